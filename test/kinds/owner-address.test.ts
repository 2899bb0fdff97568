/**
 * A kind whose address does not name its parent (a tenant is `tenant/<name>` under any
 * reseller) can be declared under one parent and found live under another: the reader keeps
 * such a create safe through `fixedParent` (src/state/read.ts `restedOn`: every list of the
 * kind goes to the second read, and an owner change is refused), not through the one list it
 * looked in. So every such kind must say it cannot move.
 */
import { describe, expect, it } from 'vitest';
import { kinds } from '../../src/kinds/index.js';

describe('a kind whose address does not name its parent', () => {
  it('is fixedParent', () => {
    const unnamed = kinds.filter((kind) =>
      kind.parentKinds.some((parent) => {
        const parentAddress = `${parent.toLowerCase()}/owner-of-it`;
        return !kind.address(parentAddress, 'x').startsWith(`${parentAddress}/`);
      }),
    );
    expect(unnamed.map((k) => k.kind).sort()).toEqual(['Reseller', 'Tenant']);
    for (const kind of unnamed) expect(kind.fixedParent, kind.kind).toBeDefined();
  });
});
