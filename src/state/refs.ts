import { ApiError, ApiErrorCode } from '../api/errors.js';
import { isPlainObject } from '../core/values.js';
import { entitlementTypesList } from '../kinds/subscription-path.js';
import type { IdChain, ReferenceData } from '../kinds/types.js';

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

/** The type each field of a reference list's items must have: `?` marks an optional one. */
type Shape = Record<string, 'id' | 'string' | 'string?' | 'code' | 'object?'>;

const SUSPENSION_PROFILE: Shape = { id: 'id', name: 'string', barringProfileId: 'string' };
const ENTITLEMENT_TYPE: Shape = { id: 'id', name: 'string' };
const POSTAL_CODE: Shape = { id: 'id', code: 'code', city: 'string?', country: 'object?' };

/**
 * Fails the read (naming the GET) when an item is not what the list holds: reference data
 * turns names into ids and back, so a misread item would silently become a wrong change
 * (a suspension profile "lifted" because its barring-profile id no longer matched).
 */
function checkedItems<T>(items: T[], path: string, itemsKey: string, shape: Shape): T[] {
  items.forEach((item, i) => {
    const problem = shapeProblem(item, shape);
    if (problem) {
      throw new ApiError({ code: ApiErrorCode.badResponse, method: 'GET', path, status: 200, retryable: false, detail: `the answer cannot be read: ${itemsKey}[${i}] ${problem}` });
    }
  });
  return items;
}

function shapeProblem(item: unknown, shape: Shape): string | undefined {
  if (!isPlainObject(item)) return 'is not an object';
  const record = item as Record<string, unknown>;
  for (const [field, type] of Object.entries(shape)) {
    const value = record[field];
    const ok =
      type === 'id' ? typeof value === 'number' || (typeof value === 'string' && value !== '') :
      type === 'code' ? typeof value === 'string' || typeof value === 'number' :
      type === 'string' ? typeof value === 'string' :
      type === 'string?' ? value === undefined || value === null || typeof value === 'string' :
      value === undefined || value === null || isPlainObject(value);
    if (!ok) return `has ${field} ${value === undefined ? 'missing' : `of type ${Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value}`}`;
  }
  return undefined;
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
  const read = async <T>(options: Parameters<RefsClient['listPages']>[0], shape: Shape): Promise<T[]> =>
    checkedItems(await client.listPages<T>(options), options.path, options.itemsKey, shape);
  const publicTypes = once(() =>
    read<{ id: number; name: string }>({ path: `${P}/public/entitlement_types`, itemsKey: 'entitlementTypes', style: 'none' }, ENTITLEMENT_TYPE),
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
        types = read<{ id: number; name: string }>({ path: list.path, itemsKey: 'entitlementTypes', style: 'none', role: list.role }, ENTITLEMENT_TYPE);
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
