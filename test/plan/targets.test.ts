import { describe, expect, it } from 'vitest';
import { matchesPattern, selectTargets } from '../../src/plan/targets.js';
import type { DesiredNode } from '../../src/state/types.js';

const node = (address: string, parentAddress?: string, declaredCollections: string[] = []): DesiredNode => ({
  kind: 'X',
  address,
  fields: {},
  declaredCollections,
  ...(parentAddress ? { parentAddress } : {}),
});

const set = [
  node('tenant/acme', undefined, ['subscriptions']),
  node('tenant/acme/subscription/main', 'tenant/acme', ['entitlements', 'templates']),
  node('tenant/acme/subscription/main/entitlement/BE geo', 'tenant/acme/subscription/main'),
  node('tenant/acme/subscription/main/template/T1', 'tenant/acme/subscription/main'),
  node('tenant/acme-two'),
  node('tenant/globex'),
];

describe('--target and --exclude (docs/commands.md)', () => {
  it('a target keeps its subtree and its ancestors, and the ancestors lose their collections (no prune outside the target)', () => {
    const out = selectTargets(set, ['tenant/acme/subscription/main/entitlement/BE geo'], []);
    expect(out.map((n) => [n.address, n.declaredCollections])).toEqual([
      ['tenant/acme', []],
      ['tenant/acme/subscription/main', []],
      ['tenant/acme/subscription/main/entitlement/BE geo', []],
    ]);
  });

  it('a subtree target keeps the collections of what it selects', () => {
    const out = selectTargets(set, ['tenant/acme/subscription/main'], []);
    expect(out.find((n) => n.address === 'tenant/acme/subscription/main')?.declaredCollections).toEqual([
      'entitlements',
      'templates',
    ]);
    expect(out).toHaveLength(4);
  });

  it('a trailing * globs by prefix; an exact address does not match a longer name', () => {
    expect(selectTargets(set, ['tenant/acme*'], []).map((n) => n.address)).toContain('tenant/acme-two');
    expect(selectTargets(set, ['tenant/acme'], []).map((n) => n.address)).not.toContain('tenant/acme-two');
    expect(matchesPattern('tenant/acme', 'tenant/acme/subscription/main')).toBe(true);
  });

  it('excludes win over targets and take their subtree', () => {
    const out = selectTargets(set, [], ['tenant/acme/subscription/main/template/T1', 'tenant/globex']);
    expect(out.map((n) => n.address)).toEqual([
      'tenant/acme',
      'tenant/acme/subscription/main',
      'tenant/acme/subscription/main/entitlement/BE geo',
      'tenant/acme-two',
    ]);
  });

  it('an address matches a pattern exactly as "equal, or starts with the pattern and a slash" (random addresses)', () => {
    const reference = (p: string, a: string) =>
      p.endsWith('*') ? a.startsWith(p.slice(0, -1)) : a === p || a.startsWith(`${p}/`);
    const parts = ['tenant', 'acme', 'acme-two', 'a', '', 'sub', '/'];
    let seed = 7;
    const pick = () => parts[(seed = (seed * 48271) % 2147483647) % parts.length] as string;
    const path = () => Array.from({ length: 1 + (seed % 4) }, pick).join('/');
    for (let i = 0; i < 5000; i++) {
      const pattern = i % 5 === 0 ? `${path()}*` : path();
      const address = i % 3 === 0 ? `${pattern.replace(/\*$/, '')}${pick()}` : path();
      expect(matchesPattern(pattern, address), `${pattern} ~ ${address}`).toBe(reference(pattern, address));
    }
  });

  it('targets alone select the same nodes as targets with an exclude that matches nothing', () => {
    for (const targets of [['tenant/acme/subscription/main/template/T1'], ['tenant/acme*'], ['tenant/globex']]) {
      const alone = selectTargets(set, targets, []);
      const general = selectTargets(set, targets, ['nothing/declared']);
      expect(alone.map((n) => [n.address, n.declaredCollections])).toEqual(
        general.map((n) => [n.address, n.declaredCollections]),
      );
    }
  });
});
