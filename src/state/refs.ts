import { ApiError, ApiErrorCode } from '../api/errors.js';
import type { IdChain, ReferenceData, ReferenceList, ReferenceSource } from '../kinds/types.js';
import { valueProblem } from './item-shape.js';

/** The client calls reference data needs (the API client satisfies it). */
export interface RefsClient {
  listPages<T = unknown>(options: {
    path: string;
    itemsKey: string;
    style: 'page' | 'token' | 'none';
    role?: string;
    pageSizeParam?: string;
  }): Promise<T[]>;
}

/**
 * Reference data read once per run and cached by source (Doc 1 §4.5, Doc 2 §4.1), from
 * the lists the kinds declare (ReferenceList): a plan that names no suspension profile never
 * asks for them. Every item is checked against the list's shape before it is used: reference
 * data turns names into ids and back, so a misread item would silently become a wrong change
 * (a suspension profile "lifted" because its barring-profile id no longer matched).
 */
export function createReferenceData(client: RefsClient, P: string): ReferenceData {
  const cache = new Map<string, Promise<unknown[]>>();
  const load = async <T>(list: ReferenceList<T>, source: ReferenceSource): Promise<T[]> => {
    const items = await client.listPages<Record<string, unknown>>(source);
    items.forEach((item, i) => {
      const problem = valueProblem(item, list.shape);
      if (problem) {
        const detail = `the answer cannot be read: ${source.itemsKey}[${i}]${problem}`;
        throw new ApiError({
          code: ApiErrorCode.badResponse,
          method: 'GET',
          path: source.path,
          status: 200,
          retryable: false,
          detail,
        });
      }
    });
    return items.map((item) => list.value(item));
  };
  return {
    read<T>(list: ReferenceList<T>, ids: IdChain = {}): Promise<T[]> {
      const source = list.source(P, ids);
      const key = `${list.name}\u0000${source.path}`;
      let values = cache.get(key) as Promise<T[]> | undefined;
      if (!values) {
        values = load(list, source);
        cache.set(key, values);
      }
      return values;
    },
  };
}
