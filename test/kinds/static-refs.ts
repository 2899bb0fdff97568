import type { ReferenceData, ReferenceList } from '../../src/kinds/types.js';

/**
 * Reference data from fixed values, by the name of the list a kind declares
 * (`'suspension profiles'`, `'entitlement types'`, `'postal codes'`): sends no request.
 */
export function staticRefs(values: Readonly<Record<string, readonly unknown[]>>): ReferenceData {
  return {
    read: async <T>(list: ReferenceList<T>): Promise<T[]> => {
      const found = values[list.name];
      if (!found) throw new Error(`the test gives no ${list.name}`);
      return [...found] as T[];
    },
  };
}
