import { describe, expect, it } from 'vitest';
import { idChain } from '../../src/kinds/id-chain.js';

describe('idChain', () => {
  it("is the parent's ids and one more, in the spread's key order, the parent untouched", () => {
    const parent = Object.freeze({ Group: 'g-1', Reseller: 'r-2' });
    const ids = idChain(parent, 'Tenant', 't-3');
    expect(ids).toEqual({ ...parent, Tenant: 't-3' });
    expect(Object.keys(ids)).toEqual(['Group', 'Reseller', 'Tenant']);
    expect(parent).toEqual({ Group: 'g-1', Reseller: 'r-2' });
    expect(idChain(undefined, 'Group', 'g-1')).toEqual({ Group: 'g-1' });
    // A kind already in the chain takes the new id, where it was (as the spread does).
    expect(Object.entries(idChain(parent, 'Group', 'g-9'))).toEqual(Object.entries({ ...parent, Group: 'g-9' }));
  });
});
