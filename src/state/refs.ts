import { ApiError, ApiErrorCode } from '../api/errors.js';
import { entitlementTypesList } from '../kinds/subscription-path.js';
import type { IdChain, ReferenceData, ValueShape } from '../kinds/types.js';
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

const SUSPENSION_PROFILE: ValueShape = { id: 'integer', name: 'string', barringProfileId: 'string' };
const ENTITLEMENT_TYPE: ValueShape = { id: 'integer', name: 'string' };
const POSTAL_CODE: ValueShape = { id: 'integer', code: 'scalar', city: 'string?', country: 'object?' };

/**
 * Fails the read (naming the GET) when an item is not what the list holds: reference data
 * turns names into ids and back, so a misread item would silently become a wrong change
 * (a suspension profile "lifted" because its barring-profile id no longer matched).
 */
function checkedItems<T>(items: T[], path: string, itemsKey: string, shape: ValueShape): T[] {
  items.forEach((item, i) => {
    const problem = valueProblem(item, shape);
    if (problem) {
      throw new ApiError({ code: ApiErrorCode.badResponse, method: 'GET', path, status: 200, retryable: false, detail: `the answer cannot be read: ${itemsKey}[${i}]${problem}` });
    }
  });
  return items;
}

/**
 * Reference data read once per run and cached (Doc 1 §4.5, Doc 2 §4.1). Lists are read
 * lazily: a plan that names no suspension profile never asks for them. Every item is
 * checked for the fields the mapping relies on.
 */
export function createReferenceData(client: RefsClient, P: string): ReferenceData {
  const once = <T>(load: () => Promise<T>): (() => Promise<T>) => {
    let value: Promise<T> | undefined;
    return () => (value ??= load());
  };
  const typesBySubscription = new Map<string, Promise<{ id: number; name: string }[]>>();
  const read = async <T>(options: Parameters<RefsClient['listPages']>[0], shape: ValueShape): Promise<T[]> =>
    checkedItems(await client.listPages<T>(options), options.path, options.itemsKey, shape);
  // Both answers carry `pagination` (Doc 2 §4.1): read in page style, every page.
  const publicTypes = once(() =>
    read<{ id: number; name: string }>({ path: `${P}/public/entitlement_types`, itemsKey: 'entitlementTypes', style: 'page' }, ENTITLEMENT_TYPE),
  );
  return {
    suspensionProfiles: once(() =>
      read<{ id: number; name: string; barringProfileId: string }>(
        { path: `${P}/public/suspension_profiles`, itemsKey: 'suspensionProfiles', style: 'page', pageSizeParam: 'size' },
        SUSPENSION_PROFILE,
      ),
    ),
    entitlementTypes: (ids: IdChain) => {
      const list = entitlementTypesList(P, ids);
      // A subscription this plan creates has no types endpoint yet: the deprecated public list stands in.
      if (!list) return publicTypes();
      let types = typesBySubscription.get(list.key);
      if (!types) {
        types = read<{ id: number; name: string }>({ path: list.path, itemsKey: 'entitlementTypes', style: 'page', role: list.role }, ENTITLEMENT_TYPE);
        typesBySubscription.set(list.key, types);
      }
      return types;
    },
    postalCodes: once(async () => {
      const codes = await read<{ id: number; code: string; country?: { isoCode?: string }; city?: string }>(
        { path: `${P}/public/postal_codes`, itemsKey: 'postalCodes', style: 'page' },
        POSTAL_CODE,
      );
      return codes.map((c) => ({ id: c.id, code: String(c.code), ...(c.country?.isoCode ? { isoCode: c.country.isoCode } : {}), ...(c.city ? { city: c.city } : {}) }));
    }),
  };
}
