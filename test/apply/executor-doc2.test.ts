import { describe, expect, it } from 'vitest';
import type { DesiredNode } from '../../src/state/types.js';
import { apiError, applyWith, FakePlatform, groups, north, outcomeOf, P, planWith } from './helpers.js';

const T = `${P}/tenants/t-1/subscriptions/3`;
const SUB = 'tenant/acme/subscription/main';
const acmeLive = {
  ...groups,
  ...north,
  [`${P}/tenants?parent=r-1`]: [{ uuid: 't-1', name: 'acme', billingId: 'T-acme' }],
  [`${P}/tenants/t-1/subscriptions`]: [{ id: 3, name: 'main', billingId: 'S-acme' }],
};
const acme: DesiredNode[] = [
  { kind: 'Tenant', address: 'tenant/acme', parentRef: { kind: 'Reseller', name: 'north' }, fields: { name: 'acme' } },
  { kind: 'Subscription', address: SUB, parentAddress: 'tenant/acme', fields: { name: 'main' } },
];

function address(i: number): DesiredNode {
  const fields = { street: 'Rue Haute', number: String(i), city: 'Brussels', postalCode: 1000, country: 'Belgium' };
  const full = `Rue Haute ${i}, 1000 Brussels, Belgium`;
  return {
    kind: 'Address',
    address: `${SUB}/address/${full}`,
    parentAddress: SUB,
    fields: { ...fields, fullAddress: full },
    source: `addresses.csv:${i + 1}`,
  };
}

describe('Doc2 §4.8: a template create answers 204 without an id', () => {
  it('finds the id by listing the templates and matching the sku', async () => {
    const live: Record<string, unknown[]> = {
      ...acmeLive,
      [`${T}/uc_alpha/templates`]: [{ id: 0, sku: 'DEFAULT', name: 'Default' }],
    };
    const platform = new FakePlatform(live, (r) => {
      if (r.method !== 'POST') return undefined;
      live[`${T}/uc_alpha/templates`] = [
        ...(live[`${T}/uc_alpha/templates`] ?? []),
        { id: 12, sku: 'TPL-STD', name: 'Standard' },
      ];
      return { status: 204 };
    });
    const planned = await planWith(platform, [
      ...acme,
      {
        kind: 'Template',
        address: `${SUB}/template/TPL-STD`,
        parentAddress: SUB,
        fields: { sku: 'TPL-STD', name: 'Standard', description: 'd', location: 'BE', vrp: 'v' },
      },
    ]);
    const result = await applyWith(platform, planned);
    expect(result).toMatchObject({ applied: 1, failed: 0 });
    expect(platform.sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      `POST ${T}/uc_alpha/templates`,
      `LIST ${T}/uc_alpha/templates`,
    ]);
  });

  it('fails the change (not silently) when the listing does not show the new template', async () => {
    const platform = new FakePlatform({ ...acmeLive, [`${T}/uc_alpha/templates`]: [] }, (r) =>
      r.method === 'POST' ? { status: 204 } : undefined,
    );
    const planned = await planWith(platform, [
      ...acme,
      {
        kind: 'Template',
        address: `${SUB}/template/TPL-X`,
        parentAddress: SUB,
        fields: { sku: 'TPL-X', name: 'X', description: 'd', location: 'BE', vrp: 'v' },
      },
    ]);
    const result = await applyWith(platform, planned);
    expect(outcomeOf(result, `${SUB}/template/TPL-X`)).toMatchObject({ status: 'failed', code: 'SB_APPLY_NO_ID' });
  });
});

describe('docs/plans.md: replacing a calling plan creates the new list before deleting the old one', () => {
  it('creates the new list, then its prefixes under the new id, and deletes the old list last', async () => {
    const live = {
      ...groups,
      [`${P}/groups/g-1/block_list`]: [{ id: 5, name: 'premium', type: 'block_list', country: 'Belgium' }],
      [`${P}/groups/g-1/block_list/5/prefixes`]: [{ id: 50, prefix: '+32900', isExact: false }],
    };
    const platform = new FakePlatform(live, (r, nth) => {
      if (r.method === 'POST' && r.path === `${P}/groups/g-1/block_list`) return { status: 200, body: { id: 6 } };
      if (r.method === 'POST') return { status: 200, body: { id: 60 + nth } };
      return undefined;
    });
    const plan = `group/demo-group/block_list/premium`;
    const planned = await planWith(platform, [
      {
        kind: 'Group',
        address: 'group/demo-group',
        fields: { name: 'demo-group' },
        declaredCollections: ['callingPlans'],
      },
      {
        kind: 'GroupCallingPlan',
        address: plan,
        parentAddress: 'group/demo-group',
        fields: { name: 'premium', country: 'Netherlands' },
        declaredCollections: ['prefixes'],
      },
      {
        kind: 'Prefix',
        address: `${plan}/prefix/+3190`,
        parentAddress: plan,
        fields: { prefix: '+3190', isExact: false },
      },
      {
        kind: 'Prefix',
        address: `${plan}/prefix/+3191`,
        parentAddress: plan,
        fields: { prefix: '+3191', isExact: false },
      },
    ]);
    expect(planned.changes.map((c) => c.action)).toEqual(['replace', 'create', 'create']);
    const result = await applyWith(platform, planned, { concurrency: 8 });
    expect(result).toMatchObject({ applied: 3, failed: 0 });
    const writes = platform.writes();
    expect(writes[0]).toBe(`POST ${P}/groups/g-1/block_list`);
    expect(writes.slice(1, 3).sort()).toEqual([
      `POST ${P}/groups/g-1/block_list/6/prefixes`,
      `POST ${P}/groups/g-1/block_list/6/prefixes`,
    ]);
    expect(writes[3]).toBe(`DELETE ${P}/groups/g-1/block_list/5`);
  });

  it('keeps the old list (and says so) when a prefix of the new one fails', async () => {
    const live = {
      ...groups,
      [`${P}/groups/g-1/block_list`]: [{ id: 5, name: 'premium', type: 'block_list', country: 'Belgium' }],
      [`${P}/groups/g-1/block_list/5/prefixes`]: [],
    };
    const platform = new FakePlatform(live, (r) => {
      if (r.method === 'POST' && r.path.endsWith('/prefixes')) return apiError('POST', r.path, 400, 'bad prefix');
      return r.method === 'POST' ? { status: 200, body: { id: 6 } } : undefined;
    });
    const plan = `group/demo-group/block_list/premium`;
    const planned = await planWith(platform, [
      { kind: 'Group', address: 'group/demo-group', fields: { name: 'demo-group' } },
      {
        kind: 'GroupCallingPlan',
        address: plan,
        parentAddress: 'group/demo-group',
        fields: { name: 'premium', country: 'Netherlands' },
      },
      {
        kind: 'Prefix',
        address: `${plan}/prefix/+3190`,
        parentAddress: plan,
        fields: { prefix: '+3190', isExact: false },
      },
    ]);
    const result = await applyWith(platform, planned);
    expect(platform.writes().some((w) => w.startsWith('DELETE'))).toBe(false);
    expect(outcomeOf(result, plan)).toMatchObject({ status: 'failed', code: 'SB_APPLY_OLD_KEPT' });
  });
});

describe('Doc2 §4.5-4.6: bulk endpoints', () => {
  function bulkPlatform(live: Record<string, unknown[]>, failing: string[] = []) {
    let job: Record<string, unknown> | undefined;
    return new FakePlatform(live, (r) => {
      if (r.method === 'PUT' && r.path === `${T}/addresses/bulk`) {
        const data = (r.body as { data: Record<string, unknown>[] }).data;
        const items = data.map((d, i) => {
          const key = `${String(d['street'])} ${String(d['number'])}, ${String(d['postalCode'])} ${String(d['city'])}, ${String(d['country'])}`;
          return {
            id: i + 1,
            key,
            status: failing.includes(key) ? 'error' : 'success',
            ...(failing.includes(key) ? { reason: 'address data needs city' } : {}),
          };
        });
        live[`${T}/addresses`] = items
          .filter((i) => i.status === 'success')
          .map((i, n) => ({ id: 500 + n, full_address: i.key, data: {} }));
        job = {
          id: 9,
          job_id: 'addresses-3-9',
          title: (r.body as { name: string }).name,
          status: failing.length ? 'partial' : 'success',
          job_items: items,
        };
        return { status: 200, body: { code: 3076, reason: 'started' } };
      }
      if (r.method === 'GET' && r.path === `${T}/bulks/9`) return { status: 200, body: job };
      return undefined;
    });
  }

  it(`address creates of one subscription above the threshold go through PUT A/bulk, the job is followed, item errors are reported per address`, async () => {
    const live: Record<string, unknown[]> = {
      ...acmeLive,
      [`${T}/addresses`]: [],
      [`${T}/addresses/bulk_jobs?search=`]: [],
    };
    const addresses = Array.from({ length: 25 }, (_, i) => address(i + 1));
    const broken = 'Rue Haute 7, 1000 Brussels, Belgium';
    const platform = bulkPlatform(live, [broken]);
    // the answer carries no job id: the job is found by its unique name in the job list
    platform.handler = ((inner) => (r, nth) => {
      const answer = inner(r, nth);
      if (r.method === 'PUT') {
        const name = (r.body as { name: string }).name;
        live[`${T}/addresses/bulk_jobs?search=${encodeURIComponent(name).replace(/%20/g, '+')}`] = [
          { id: 9, title: name },
        ];
      }
      return answer;
    })(platform.handler);
    const planned = await planWith(platform, [...acme, ...addresses]);
    const result = await applyWith(platform, planned);
    expect(platform.writes()).toEqual([`PUT ${T}/addresses/bulk`]);
    const body = platform.sent.find((s) => s.method === 'PUT')?.body as { name: string; data: unknown[] };
    expect(body.data).toHaveLength(25);
    expect(body.data[0]).toEqual({
      street: 'Rue Haute',
      number: '1',
      city: 'Brussels',
      postalCode: 1000,
      country: 'Belgium',
    });
    expect(result).toMatchObject({ applied: 24, failed: 1 });
    const failed = result.results.find((r) => r.outcome.status === 'failed');
    expect(failed?.change.address).toBe(`${SUB}/address/${broken}`);
    expect(failed?.change.source).toBe('addresses.csv:8');
    expect(failed?.outcome).toMatchObject({ message: 'bulk job addresses-3-9: address data needs city' });
  });

  it('at or below the threshold, addresses are created one POST each', async () => {
    const platform = bulkPlatform({ ...acmeLive, [`${T}/addresses`]: [] });
    const planned = await planWith(platform, [...acme, ...Array.from({ length: 20 }, (_, i) => address(i))]);
    await applyWith(platform, planned);
    expect(platform.writes()).toHaveLength(20);
    expect(new Set(platform.writes())).toEqual(new Set([`POST ${T}/addresses`]));
  });

  it('number→address link updates of one subscription are one PUT T/address_numbers/bulk, after the addresses they name are created', async () => {
    const live: Record<string, unknown[]> = {
      ...acmeLive,
      [`${T}/addresses`]: [],
      [`${T}/numbers`]: [
        { id: 1, fullNumber: '+3221234562', address: null },
        { id: 2, fullNumber: '+3221234563', address: null },
      ],
    };
    const platform = new FakePlatform(live, (r) => {
      if (r.method === 'PUT') return { status: 200, body: { code: 3067, reason: 'started', id: 4 } };
      if (r.method === 'GET')
        return {
          status: 200,
          body: {
            id: 4,
            status: 'success',
            job_items: [
              { key: '+3221234562', status: 'success' },
              { key: '+3221234563', status: 'success' },
            ],
          },
        };
      return undefined;
    });
    const full = 'Rue Haute 1, 1000 Brussels, Belgium';
    const link = (n: string): DesiredNode => ({
      kind: 'NumberAddressLink',
      address: `${SUB}/number/${n}`,
      parentAddress: SUB,
      fields: { number: n, address: full },
    });
    const planned = await planWith(platform, [...acme, address(1), link('+3221234562'), link('+3221234563')]);
    const result = await applyWith(platform, planned, { concurrency: 8 });
    expect(result).toMatchObject({ applied: 3, failed: 0 });
    expect(platform.writes()).toEqual([`POST ${T}/addresses`, `PUT ${T}/address_numbers/bulk`]);
    expect(platform.sent.find((s) => s.method === 'PUT')?.body).toMatchObject({
      data: [
        { full_address: full, number: '+3221234562' },
        { full_address: full, number: '+3221234563' },
      ],
    });
  });

  it("a link update missing from a successful job's items has an unknown outcome, not applied", async () => {
    const live: Record<string, unknown[]> = {
      ...acmeLive,
      [`${T}/addresses`]: [{ id: 7, full_address: 'Rue Haute 1, 1000 Brussels, Belgium', data: {} }],
      [`${T}/numbers`]: [
        { id: 1, fullNumber: '+3221234562', address: null },
        { id: 2, fullNumber: '+3221234563', address: null },
      ],
    };
    const platform = new FakePlatform(live, (r) => {
      if (r.method === 'PUT') return { status: 200, body: { code: 3067, reason: 'started', id: 4 } };
      if (r.method === 'GET' && r.path === `${T}/bulks/4`)
        return {
          status: 200,
          body: { id: 4, status: 'success', job_items: [{ key: '+3221234562', status: 'success' }] },
        };
      return undefined;
    });
    const full = 'Rue Haute 1, 1000 Brussels, Belgium';
    const link = (n: string): DesiredNode => ({
      kind: 'NumberAddressLink',
      address: `${SUB}/number/${n}`,
      parentAddress: SUB,
      fields: { number: n, address: full },
    });
    const planned = await planWith(platform, [...acme, address(1), link('+3221234562'), link('+3221234563')]);
    const result = await applyWith(platform, planned);
    expect(result).toMatchObject({ applied: 2, failed: 1 }); // the address, one link; the other link unknown
    const missing = result.results.find((r) => r.outcome.status === 'failed');
    expect(missing?.change.address).toBe(`${SUB}/number/+3221234563`);
    expect(missing?.outcome).toMatchObject({ unknown: true, code: 'SB_APPLY_BULK_ITEM' });
    expect(missing?.outcome.status === 'failed' && missing.outcome.message).toMatch(
      /not among the items of bulk job 4/,
    );
  });
});
