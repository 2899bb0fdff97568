import { describe, expect, it } from 'vitest';
import type { LiveObject } from '../../src/kinds/types.js';
import { SearchScope, type ReaderPort } from '../../src/state/search-scope.js';

const live = (address: string, id: string): LiveObject => ({ kind: 'Tenant', address, id, ids: {}, fields: {} });

describe('SearchScope.indexOf', () => {
  const scope = new SearchScope({} as ReaderPort);

  // Short lists are scanned and long ones indexed: both must answer alike, first listed first.
  for (const length of [0, 1, 3, 16, 17, 200]) {
    it(`finds by address and by id, the first of duplicates, in a list of ${length}`, () => {
      const list = Array.from({ length }, (_, i) => live(`tenant/t${i % 150}`, `id-${i}`));
      const index = scope.indexOf(list);
      for (let i = 0; i < length; i++) {
        expect(index.byAddress.get(`tenant/t${i % 150}`)).toBe(list[i % 150]);
        expect(index.byId.get(`id-${i}`)).toBe(list[i]);
      }
      expect(index.byAddress.get('tenant/absent')).toBeUndefined();
      expect(index.byId.get('absent')).toBeUndefined();
    });
  }
});
