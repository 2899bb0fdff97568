/**
 * The address-in-use rail (src/plan/coverage/rail.ts) reads the numbers of every deleted
 * address at once, through the plan's client (which bounds the requests in flight): one
 * after the other, a plan deleting hundreds of addresses waited as many round trips. Its
 * verdicts are the same, in plan order, whatever order the answers come in.
 */
import { describe, expect, it } from 'vitest';
import type { KindContext, ListSpec, LiveObject } from '../../src/kinds/types.js';
import { addressesInUse } from '../../src/plan/coverage/rail.js';
import type { Change } from '../../src/plan/types.js';
import type { LiveState } from '../../src/state/types.js';

const SUB = 'tenant/acme/subscription/7';
const subscription: LiveObject = {
  kind: 'Subscription',
  address: SUB,
  id: '7',
  ids: { Tenant: 'u-acme', Subscription: '7' },
  fields: {},
};

function address(n: number): LiveObject {
  return {
    kind: 'Address',
    address: `${SUB}/address/a${n}`,
    id: `${100 + n}`,
    parentAddress: SUB,
    ids: { ...subscription.ids, Address: `${100 + n}` },
    fields: { fullAddress: `Street ${n}` },
  };
}

function deleteOf(live: LiveObject): Change {
  return {
    address: live.address,
    kind: 'Address',
    provider: 'platform',
    action: 'delete',
    id: live.id,
    before: live.fields,
    after: null,
    patch: [],
    reason: 'not declared',
    dependsOn: [],
    requests: [],
  };
}

describe('the address-in-use rail', () => {
  it('asks for every deleted address’s numbers at once and judges them in plan order', async () => {
    const addresses = [1, 2, 3, 4].map(address);
    const live: LiveState = {
      byAddress: new Map([subscription, ...addresses].map((o) => [o.address, o])),
      collections: [],
      problems: [],
    };
    const asked: string[] = [];
    const waiting: (() => void)[] = [];
    // Each list answers only once all four are asked (a rail reading one after the other never
    // gets its first answer), and in reverse order.
    const fetch = (spec: ListSpec): Promise<Record<string, unknown>[]> => {
      const id = String(JSON.parse(String(spec.query?.['filters'])).addressId);
      asked.push(id);
      const answer = Number(id) % 2 === 0 ? [{ fullNumber: `+32200000${id}`, addressId: id }] : [];
      return new Promise((resolve) => {
        waiting.push(() => resolve(answer));
        if (waiting.length === addresses.length) for (const release of waiting.reverse()) release();
      });
    };
    const ctx = { P: '/api/v01/draas/demo' } as KindContext;
    const result = await addressesInUse({ changes: addresses.map(deleteOf), live, fetch, ctx, allow: false });
    expect(asked).toEqual(['101', '102', '103', '104']);
    expect(result.warnings).toEqual([]);
    expect(result.refusals.map((r) => [r.code, r.address])).toEqual([
      ['SB_ADDRESS_IN_USE', `${SUB}/address/a2`],
      ['SB_ADDRESS_IN_USE', `${SUB}/address/a4`],
    ]);
    expect(result.refusals[0]?.message).toContain('+32200000102');
  });
});
