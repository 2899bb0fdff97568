import { describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { type SubscriptionFixture, useSubscriptionSim } from './subscription-helpers.js';
import { loginAs, P } from './helpers.js';

let sim: RunningSimulator;
let f: SubscriptionFixture;
useSubscriptionSim(
  (s) => (sim = s),
  (x) => (f = x),
);

type Plan = {
  id: number;
  name: string;
  type: string;
  country: string;
  countryCode: string;
  isoCode: string;
  region: string;
  classification: string;
  risk: number;
};
type Prefix = { id: number; prefix: string; name: string; isExact: boolean };

describe('Document 2 calling plans', () => {
  const BG = () => `${P}/groups/${f.group}/block_list`;

  it('Doc2 §4.9: the group block list is 404 when none; POST answers 200 with the plan and its id', async () => {
    expect((await f.admin.get(BG())).status).toBe(404);
    const created = await f.admin.post<Plan>(BG(), { name: 'no premium', isoCode: 'BE', region: 'Flanders' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'no premium',
      type: 'block_list',
      country: 'Belgium',
      countryCode: '32',
      isoCode: 'BE',
      region: 'Flanders',
      classification: '',
      risk: 0,
    });
    const list = await f.admin.get<{ callingPlans: Plan[]; results: number }>(BG());
    expect(list.body).toMatchObject({ results: 1, callingPlans: [created.body] });
  });

  it('Doc2 §4.9 (spec README): update changes only name; delete is 204 and idempotent', async () => {
    const created = await f.admin.post<Plan>(BG(), { name: 'a', isoCode: 'BE' });
    const put = await f.admin.put(`${BG()}/${created.body.id}`, {
      name: 'b',
      isoCode: 'NL',
      country: 'Netherlands',
      risk: 5,
    });
    expect(put).toMatchObject({ status: 200, body: { id: created.body.id } });
    const after = (await f.admin.get<{ callingPlans: Plan[] }>(BG())).body.callingPlans[0];
    expect(after).toEqual({ ...created.body, name: 'b' });
    expect((await f.admin.put(`${BG()}/${created.body.id}`, { isoCode: 'NL' })).status).toBe(400);
    expect((await f.admin.delete(`${BG()}/${created.body.id}`)).status).toBe(204);
    expect((await f.admin.delete(`${BG()}/${created.body.id}`)).status).toBe(204);
    expect((await f.admin.get(BG())).status).toBe(404);
  });

  it('Doc2 §2.11/§4.9: prefixes: 404 when none, create/update/delete, isExact as boolean or string', async () => {
    const plan = await f.admin.post<Plan>(BG(), { name: 'p' });
    const PX = `${BG()}/${plan.body.id}/prefixes`;
    expect((await f.admin.get(PX)).status).toBe(404);
    const a = await f.admin.post<{ id: number }>(PX, { prefix: '+32900', name: 'premium', isExact: 'true' });
    expect(a.status).toBe(200);
    const b = await f.admin.post<{ id: number }>(PX, { prefix: '0800', isExact: false });
    expect((await f.admin.post(PX, { prefix: '+32900' })).body).toMatchObject({ error: { code: 'duplicate_prefix' } });
    expect((await f.admin.post(PX, { prefix: '09x' })).status).toBe(400);
    expect((await f.admin.post(PX, { prefix: '070', isExact: 'maybe' })).status).toBe(400);
    const list = await f.admin.get<{ prefixes: Prefix[] }>(PX);
    expect(list.body.prefixes).toEqual([
      { id: a.body.id, prefix: '+32900', name: 'premium', isExact: true },
      { id: b.body.id, prefix: '0800', name: '', isExact: false },
    ]);
    expect(await f.admin.put(`${PX}/${b.body.id}`, { isExact: 'true', name: 'freephone' })).toMatchObject({
      status: 200,
      body: { id: b.body.id },
    });
    expect((await f.admin.get<{ prefixes: Prefix[] }>(PX)).body.prefixes[1]).toEqual({
      id: b.body.id,
      prefix: '0800',
      name: 'freephone',
      isExact: true,
    });
    expect((await f.admin.delete(`${PX}/${b.body.id}`)).status).toBe(204);
    // §4.9 does not say that a missing prefix counts as success (Doc1 §1.10: per endpoint): 404.
    expect((await f.admin.delete(`${PX}/${b.body.id}`)).status).toBe(404);
    expect((await f.admin.put(`${PX}/${b.body.id}`, { name: 'x' })).status).toBe(404);
  });

  it('Doc2 §4.10: trunk-group allow and block lists are per seeded trunk group; an unknown trunk group is 404', async () => {
    const AL = `${f.T}/trunkgroups/7/allow_list`;
    const BL = `${f.T}/trunkgroups/8/block_list`;
    expect((await f.admin.get(AL)).status).toBe(404);
    const allow = await f.admin.post<Plan>(AL, { name: 'exceptions', isoCode: 'NL' });
    expect(allow.body).toMatchObject({ type: 'allow_list', country: 'Netherlands', countryCode: '31' });
    expect((await f.admin.post(AL, { name: 'x', type: 'block_list' })).status).toBe(400);
    const block = await f.admin.post<Plan>(BL, { name: 'blocked' });
    expect(block.body.type).toBe('block_list');
    expect((await f.admin.get<{ callingPlans: Plan[] }>(AL)).body.callingPlans.map((p) => p.id)).toEqual([
      allow.body.id,
    ]);
    expect((await f.admin.get(`${f.T}/trunkgroups/8/allow_list`)).status).toBe(404);
    expect((await f.admin.put(`${AL}/${block.body.id}`, { name: 'wrong list' })).status).toBe(404);
    expect(await f.admin.put(`${BL}/${block.body.id}`, { name: 'renamed', classification: 'ignored' })).toMatchObject({
      status: 200,
    });
    expect((await f.admin.get<{ callingPlans: Plan[] }>(BL)).body.callingPlans[0]).toMatchObject({
      name: 'renamed',
      classification: '',
    });
    expect((await f.admin.get(`${f.T}/trunkgroups/99/allow_list`)).status).toBe(404);
    expect(
      (await f.admin.post(`${P}/tenants/${f.globex}/subscriptions/${f.voice}/trunkgroups/7/allow_list`, { name: 'x' }))
        .status,
    ).toBe(404);
  });

  it('design decision (§4.10 not shown): trunk-group block list delete and prefixes work like the allow list', async () => {
    const BL = `${f.T}/trunkgroups/7/block_list`;
    const plan = await f.admin.post<Plan>(BL, { name: 'b' });
    const px = await f.admin.post<{ id: number }>(`${BL}/${plan.body.id}/prefixes`, { prefix: '00', isExact: false });
    expect(px.status).toBe(200);
    expect((await f.admin.get<{ prefixes: Prefix[] }>(`${BL}/${plan.body.id}/prefixes`)).body.prefixes).toHaveLength(1);
    expect((await f.admin.delete(`${BL}/${plan.body.id}`)).status).toBe(204);
    expect((await f.admin.get(`${BL}/${plan.body.id}/prefixes`)).status).toBe(404);
    expect((await f.admin.get(BL)).status).toBe(404);
    // Like the allow list's delete, which does not say "missing counts as success": 404.
    expect((await f.admin.delete(`${BL}/${plan.body.id}`)).status).toBe(404);
  });

  it('Doc2 §4.10, Doc1 §1.10: deleting a missing allow-list plan or prefix is 404 (the endpoints do not make it a success)', async () => {
    const AL = `${f.T}/trunkgroups/7/allow_list`;
    const plan = await f.admin.post<Plan>(AL, { name: 'exceptions' });
    const px = await f.admin.post<{ id: number }>(`${AL}/${plan.body.id}/prefixes`, { prefix: '0032', isExact: true });
    expect((await f.admin.delete(`${AL}/${plan.body.id}/prefixes/${px.body.id}`)).status).toBe(204);
    expect((await f.admin.delete(`${AL}/${plan.body.id}/prefixes/${px.body.id}`)).status).toBe(404);
    expect((await f.admin.delete(`${AL}/${plan.body.id}`)).status).toBe(204);
    const again = await f.admin.delete(`${AL}/${plan.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: { code: 'not_found' } });
  });

  it("Doc1 §1.6: calling-plan routes carry the spec's role names", async () => {
    const profile = await f.admin.get<{ profile: { api_rules: { name: string }[] } }>('/api/v01/system/users/local');
    const names = new Set(profile.body.profile.api_rules.map((r) => r.name));
    for (const role of [
      'groups.instance.block_list.instance.list',
      'groups.instance.block_list.instance.prefixes.instance.delete',
      'tenants.instance.subscriptions.instance.trunk_group.instance.block_list.instance.read',
      'tenants.instance.subscriptions.instance.trunk_group.instance.allow_list.list',
      'tenants.instance.subscriptions.instance.trunk_group.instance.allow_list.instance.prefixes.instance.update',
      'tenants.instance.subscription.instance.addresses.read',
      'tenants.instance.subscriptions.entitlements.create',
    ])
      expect(names.has(role), role).toBe(true);
  });
});

type Product = { id: number; name: string; sku: string; status: string; description?: string; resources?: unknown[] };

describe('Document 2 products', () => {
  it('Doc2 §4.11: catalogue items of the group, and the deprecated public path (parent required)', async () => {
    const items = await f.admin.get<{ items: { name: string; type: string; subType?: string }[] }>(
      `${P}/groups/${f.group}/products/items`,
    );
    expect(items.body.items).toHaveLength(8);
    expect(items.body.items[0]).toMatchObject({
      name: 'ucAlphaUsers',
      type: 'product_license',
      subType: 'ucAlphaUsers',
    });
    expect((await f.admin.get(`${P}/public/products/items?parent=${f.group}`)).body).toEqual(items.body);
    expect((await f.admin.get(`${P}/public/products/items`)).status).toBe(400);
  });

  it('Doc2 §4.11: product lists from every level; parent required for system administrators; detailed adds resources', async () => {
    expect((await f.admin.get(`${P}/public/products`)).status).toBe(400);
    const pub = await f.admin.get<{ products: Product[]; results: number }>(`${P}/public/products?parent=${f.group}`);
    expect(pub.body).toMatchObject({
      results: 1,
      products: [{ name: 'Basic voice', sku: 'PRD-BASIC', status: 'enabled' }],
    });
    expect(pub.body.products[0]).not.toHaveProperty('resources');
    const detailed = await f.admin.get<{ products: Product[] }>(`${P}/groups/${f.group}/products?detailed=true`);
    expect(detailed.body.products[0]?.resources).toEqual([
      expect.objectContaining({ type: 'license', name: 'ucAlphaUsers', quantity: 1 }),
      expect.objectContaining({ type: 'entitlement', name: 'BE geo', quantity: 1 }),
    ]);
    const tenantadmin = await loginAs(sim, 'tenantadmin');
    expect((await tenantadmin.get<{ results: number }>(`${P}/tenants/${f.acme}/products`)).body.results).toBe(1);
    expect((await tenantadmin.get<{ results: number }>(`${P}/public/products`)).body.results).toBe(1);
    expect((await tenantadmin.get(`${P}/tenants/${f.globex}/products`)).status).toBe(403);
    const reseller = await loginAs(sim, 'reselleradmin');
    const north = await reseller.get<{ products: Product[] }>(
      `${P}/resellers/${(await f.admin.get<{ owner: { uuid: string } }>(`${P}/tenants/${f.acme}`)).body.owner.uuid}/products`,
    );
    expect(north.body.products).toHaveLength(1);
  });

  it('Doc2 §4.11: create (200 {id}; name and sku required; sku unique), ebaled filter, token paging', async () => {
    const G = `${P}/groups/${f.group}/products`;
    const created = await f.admin.post<{ id: number }>(G, {
      name: 'Trunk 10',
      sku: 'PRD-TRUNK',
      status: 'disabled',
      items: [{ type: 'license', subType: 'sipTrunkChannels', quantity: 10 }],
    });
    expect(created.status).toBe(200);
    expect((await f.admin.post(G, { name: 'again', sku: 'PRD-TRUNK' })).body).toMatchObject({
      error: { code: 'duplicate_sku' },
    });
    expect((await f.admin.post(G, { sku: 'PRD-X' })).status).toBe(400);
    expect(
      (await f.admin.post(G, { name: 'bad', sku: 'PRD-BAD', items: [{ type: 'entitlement', id: 99, quantity: 1 }] }))
        .status,
    ).toBe(400);
    expect((await f.admin.get<{ results: number }>(`${G}?ebaled=true`)).body.results).toBe(1);
    const first = await f.admin.get<{ products: Product[]; next?: string }>(`${G}?page_size=1`);
    expect(first.body.products[0]?.name).toBe('Basic voice');
    const second = await f.admin.get<{ products: Product[]; next?: string }>(`${G}?next=${first.body.next}`);
    expect(second.body.products[0]?.name).toBe('Trunk 10');
    expect(second.body).not.toHaveProperty('next');
    const tenantadmin = await loginAs(sim, 'tenantadmin');
    expect((await tenantadmin.post(G, { name: 'x', sku: 'y' })).status).toBe(403);
  });

  it('Doc2 §4.11: update answers 204; items are replaced as a whole; omitted items stay; description null removes it', async () => {
    const G = `${P}/groups/${f.group}/products`;
    const detail = (id: number) =>
      f.admin.get<{ name: string; description?: string; items: unknown[] }>(
        `${P}/public/products/${id}?parent=${f.group}`,
      );
    const id = (await f.admin.get<{ products: Product[] }>(`${G}`)).body.products[0]?.id as number;
    expect((await detail(id)).body).toEqual({
      name: 'Basic voice',
      description: expect.any(String),
      sku: 'PRD-BASIC',
      status: 'enabled',
      items: [
        { type: 'license', subType: 'ucAlphaUsers', quantity: 1 },
        { type: 'entitlement', id: 1, quantity: 1 },
      ],
    });
    expect((await f.admin.put(`${G}/${id}`, { name: 'Basic voice 2' })).status).toBe(204);
    expect((await detail(id)).body.items).toHaveLength(2);
    expect(
      (await f.admin.put(`${G}/${id}`, { description: null, items: [{ type: 'entitlement', id: 3, quantity: 2 }] }))
        .status,
    ).toBe(204);
    const after = await detail(id);
    expect(after.body).not.toHaveProperty('description');
    expect(after.body).toMatchObject({ name: 'Basic voice 2', items: [{ type: 'entitlement', id: 3, quantity: 2 }] });
    expect((await f.admin.put(`${G}/${id}`, { sku: 'NEW' })).status).toBe(400);
    expect((await f.admin.get(`${P}/public/products/999?parent=${f.group}`)).status).toBe(404);
  });

  it('Doc2 §4.11 (spec README): products cannot be deleted (405)', async () => {
    const G = `${P}/groups/${f.group}/products`;
    const id = (await f.admin.get<{ products: Product[] }>(G)).body.products[0]?.id as number;
    const res = await f.admin.delete(`${G}/${id}`);
    expect(res.status).toBe(405);
    expect((await f.admin.get<{ results: number }>(G)).body.results).toBe(1);
  });
});
