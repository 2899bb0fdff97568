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

/**
 * Reference data read once per run and cached (Doc 1 §4.5, Doc 2 §4.1). Lists are read
 * lazily: a plan that names no suspension profile never asks for them.
 */
export function createReferenceData(client: RefsClient, P: string): ReferenceData {
  const once = <T>(load: () => Promise<T>): (() => Promise<T>) => {
    let value: Promise<T> | undefined;
    return () => (value ??= load());
  };
  const typesBySubscription = new Map<string, Promise<{ id: number; name: string }[]>>();
  const publicTypes = once(() =>
    client.listPages<{ id: number; name: string }>({ path: `${P}/public/entitlement_types`, itemsKey: 'entitlementTypes', style: 'none' }),
  );
  return {
    suspensionProfiles: once(() =>
      client.listPages<{ id: number; name: string; barringProfileId: string }>({
        path: `${P}/public/suspension_profiles`,
        itemsKey: 'suspensionProfiles',
        style: 'page',
        pageSizeParam: 'size',
      }),
    ),
    entitlementTypes: (ids: IdChain) => {
      const list = entitlementTypesList(P, ids);
      // A subscription this plan creates has no types endpoint yet: the deprecated public list stands in.
      if (!list) return publicTypes();
      let types = typesBySubscription.get(list.key);
      if (!types) {
        types = client.listPages<{ id: number; name: string }>({ path: list.path, itemsKey: 'entitlementTypes', style: 'none', role: list.role });
        typesBySubscription.set(list.key, types);
      }
      return types;
    },
    postalCodes: once(async () => {
      const codes = await client.listPages<{ id: number; code: string; country?: { isoCode?: string }; city?: string }>({
        path: `${P}/public/postal_codes`,
        itemsKey: 'postalCodes',
        style: 'page',
      });
      return codes.map((c) => ({ id: c.id, code: String(c.code), ...(c.country?.isoCode ? { isoCode: c.country.isoCode } : {}), ...(c.city ? { city: c.city } : {}) }));
    }),
  };
}
