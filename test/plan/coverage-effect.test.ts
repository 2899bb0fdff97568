/**
 * What the Emergency coverage section (src/plan/coverage/read.ts) says a plan does to a
 * subscription's numbers, on hand-built live states: a number whose link the plan leaves
 * without an address is counted without one after the plan (not "relinked"), and so is a
 * number whose address the plan deletes or replaces without relinking it (a plan made with
 * --allow-address-in-use). And "a number has an address" means one thing to the plan and to
 * coverage: the platform gives its `addressId` (address text alone is no link).
 */
import { describe, expect, it } from 'vitest';
import { kindOf } from '../../src/kinds/index.js';
import type { KindContext, LiveObject } from '../../src/kinds/types.js';
import { readCoverage } from '../../src/plan/coverage/read.js';
import type { CoverageScope } from '../../src/plan/coverage/types.js';
import { computeChanges } from '../../src/plan/planner.js';
import { inUseText } from '../../src/plan/render-assurance.js';
import type { Change } from '../../src/plan/types.js';
import type { LiveState } from '../../src/state/types.js';

const SUB = 'tenant/acme/subscription/main';
const ctx = { P: '/api/v01/draas/demo' } as KindContext;
const links = kindOf('NumberAddressLink');
const subscription: LiveObject = {
  kind: 'Subscription',
  address: SUB,
  id: '7',
  ids: { Tenant: 'u-acme', Subscription: '7' },
  fields: {},
};
const RUE_HAUTE = 'Rue Haute 10, 1000 Brussels, Belgium';
const MEIR = 'Meir 22, 2000 Antwerpen, Belgium';

const addresses: LiveObject[] = [
  { id: '41', fullAddress: RUE_HAUTE },
  { id: '42', fullAddress: MEIR },
].map(({ id, fullAddress }) => ({
  kind: 'Address',
  address: `${SUB}/address/${fullAddress}`,
  id,
  parentAddress: SUB,
  ids: { ...subscription.ids, Address: id },
  fields: { fullAddress },
}));

/** A number as the platform lists it (Doc 2 §2.5), read through the kind. */
async function number(item: Record<string, unknown>): Promise<LiveObject> {
  const parts = await links.fromApi({ id: 1, ...item }, ctx, subscription);
  return {
    kind: links.kind,
    address: links.address(SUB, links.identity(parts.fields)),
    id: parts.id,
    parentAddress: SUB,
    ids: subscription.ids,
    fields: parts.fields,
    ...(parts.facts ? { facts: parts.facts } : {}),
  };
}

function change(live: LiveObject, action: Change['action'], after: Record<string, unknown> | null): Change {
  return {
    address: live.address,
    kind: live.kind,
    provider: 'platform',
    action,
    id: live.id,
    before: live.fields,
    after,
    patch: [],
    reason: 'test',
    dependsOn: [],
    requests: [],
  };
}

async function scope(numbers: LiveObject[], changes: Change[]): Promise<CoverageScope> {
  const report = await readCoverage({
    scopes: [subscription],
    changes,
    list: async (kind) => (kind === links.kind ? numbers : addresses),
    listLimit: null,
  });
  return report.scopes[0] as CoverageScope;
}

const linked = (n: string, addressId: string, address: string) =>
  number({ fullNumber: n, address, addressId, addressVerified: true });

describe('the coverage effect of a plan', () => {
  it('counts a linked number whose link change leaves it without an address as without one after', async () => {
    const a = await linked('+3221234560', '41', RUE_HAUTE);
    const b = await linked('+3221234561', '41', RUE_HAUTE);
    const c = await number({ fullNumber: '+3221234562' });
    for (const after of [
      { number: '+3221234560', address: null },
      { number: '+3221234560', address: '' },
    ]) {
      const s = await scope([a, b, c], [change(a, 'update', after)]);
      expect(s.withoutAddress.count).toBe(1);
      expect(s.effect.linksMoved).toEqual({ count: 0, items: [] });
      expect(s.effect.withoutAddressAfter).toBe(2);
    }
    // A move stays a move; a first link is a link.
    const moved = await scope(
      [a, b, c],
      [change(a, 'update', { address: MEIR }), change(c, 'update', { address: RUE_HAUTE })],
    );
    expect(moved.effect.linksMoved.items).toEqual(['+3221234560']);
    expect(moved.effect.linksAdded.items).toEqual(['+3221234562']);
    expect(moved.effect.withoutAddressAfter).toBe(0);
  });

  it('counts the numbers of an address it deletes or replaces, and does not relink, as without one after', async () => {
    const a = await linked('+3221234560', '41', RUE_HAUTE);
    const b = await linked('+3221234561', '41', RUE_HAUTE);
    const c = await linked('+3221234562', '42', MEIR);
    const rueHaute = addresses[0] as LiveObject;
    for (const action of ['delete', 'replace'] as const) {
      const s = await scope([a, b, c], [change(rueHaute, action, action === 'delete' ? null : rueHaute.fields)]);
      expect(s.withoutAddress.count).toBe(0);
      expect(s.effect.withoutAddressAfter).toBe(2);
      expect(s.effect.addressesInUse).toMatchObject([{ action, relinked: false, numbers: { count: 2 } }]);
    }
    // One relinked, one left behind (and a link change to none on the same number counts once).
    const some = await scope(
      [a, b, c],
      [
        change(rueHaute, 'delete', null),
        change(a, 'update', { address: MEIR }),
        change(b, 'update', { address: null }),
      ],
    );
    expect(some.effect.withoutAddressAfter).toBe(1);
    expect(some.effect.addressesInUse[0]?.relinked).toBe(false);
    // An update keeps the address's id: its numbers keep their link.
    const updated = await scope([a, b, c], [change(rueHaute, 'update', { ...rueHaute.fields, premises: 'Floor 2' })]);
    expect(updated.effect.withoutAddressAfter).toBe(0);
  });

  it('says a delete that leaves numbers behind was allowed when the plan was made with --allow-address-in-use', () => {
    const use = {
      address: `${SUB}/address/${RUE_HAUTE}`,
      action: 'delete' as const,
      numbers: { count: 1, items: ['+3221234560'] },
      relinked: false,
    };
    expect(inUseText(use)).toMatch(/\(refused: SB_ADDRESS_IN_USE\)$/);
    expect(inUseText(use, true)).toMatch(/\(allowed by --allow-address-in-use: .*left without an address\)$/);
    expect(inUseText({ ...use, relinked: true }, true)).toMatch(/\(all relinked by this plan\)$/);
  });
});

describe('a number has an address when the platform gives its addressId', () => {
  it('address text without an id: coverage counts it without an address, and the plan links it', async () => {
    const textOnly = await number({ fullNumber: '+3221234560', address: RUE_HAUTE });
    expect(links.coverage?.linkOf(textOnly).id).toBeNull();
    expect(textOnly.fields['address']).toBeNull();
    expect((await scope([textOnly], [])).withoutAddress.items).toEqual(['+3221234560']);

    const live: LiveState = {
      byAddress: new Map([subscription, textOnly].map((o) => [o.address, o])),
      collections: [],
      problems: [],
    };
    const desired = [
      {
        kind: links.kind,
        address: textOnly.address,
        parentAddress: SUB,
        fields: { number: '+3221234560', address: RUE_HAUTE },
      },
    ];
    const planned = await computeChanges({ desired, live, lastApplied: new Map(), ctx, options: { prune: false } });
    expect(planned.changes.map((c) => `${c.action} ${c.address}`)).toEqual([`update ${textOnly.address}`]);
    expect((await scope([textOnly], planned.changes)).effect).toMatchObject({
      linksAdded: { items: ['+3221234560'] },
      withoutAddressAfter: 0,
    });
  });

  it('an id: both say it has one, and the plan leaves it as it is', async () => {
    const withId = await linked('+3221234560', '41', RUE_HAUTE);
    expect(links.coverage?.linkOf(withId)).toEqual({ id: '41', verified: true });
    expect(withId.fields['address']).toBe(RUE_HAUTE);
    const numeric = await number({ fullNumber: '+3221234560', address: RUE_HAUTE, addressId: 41 });
    expect(links.coverage?.linkOf(numeric).id).toBe('41');
  });
});
