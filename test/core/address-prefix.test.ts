import { describe, expect, it } from 'vitest';
import { atOrBelowAny, nearestAncestor } from '../../src/core/address-prefix.js';
import { FormerNames } from '../../src/plan/former-names.js';

/** What the lookup replaces: a scan of every member with startsWith. */
const scanned = (address: string, set: readonly string[]) =>
  set.filter((s) => address.startsWith(`${s}/`)).sort((a, b) => b.length - a.length)[0];

describe('address prefixes', () => {
  const set = ['tenant/acme', 'tenant/acme/subscription/main', 'routing/draas/active/routes', 'a/', 'tenant/ac'];
  const has = (a: string) => set.includes(a);

  it('finds the nearest strict ancestor, as a scan of every member would', () => {
    for (const address of [
      'tenant/acme',
      'tenant/acme/subscription/main',
      'tenant/acme/subscription/main/entitlement/BE tollfree',
      'tenant/acme/subscription/other',
      'tenant/acmex/subscription/main',
      'routing/draas/active/routes/number=+3200/1',
      'a//b',
      'tenant',
      '',
    ])
      expect(nearestAncestor(address, has), address).toBe(scanned(address, set));
  });

  it('atOrBelowAny holds for a member itself and for what is below it only', () => {
    const members = new Set(set);
    expect(atOrBelowAny('tenant/acme', members)).toBe(true);
    expect(atOrBelowAny('tenant/acme/subscription/x', members)).toBe(true);
    expect(atOrBelowAny('tenant/acmex', members)).toBe(false);
    expect(atOrBelowAny('tenant', members)).toBe(false);
  });

  it("FormerNames names an object under its nearest renamed ancestor's former address", () => {
    const former = new FormerNames([
      ['tenant/new', 'tenant/old'],
      ['tenant/new/subscription/b', 'tenant/old/subscription/a'],
    ]);
    expect(former.of({ address: 'tenant/new/subscription/b/entitlement/x' })).toEqual([
      'tenant/new/subscription/b/entitlement/x',
      'tenant/old/subscription/a/entitlement/x',
    ]);
    expect(former.of({ address: 'tenant/new/subscription/c' })).toEqual([
      'tenant/new/subscription/c',
      'tenant/old/subscription/c',
    ]);
    expect(former.of({ address: 'tenant/newer' })).toEqual(['tenant/newer']);
  });
});
