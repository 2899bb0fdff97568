import { describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { type SubscriptionFixture, simEvents, useSubscriptionSim } from './subscription-helpers.js';
import { loginAs, P } from './helpers.js';

let sim: RunningSimulator;
let f: SubscriptionFixture;
useSubscriptionSim(
  (s) => (sim = s),
  (x) => (f = x),
);

const subs = () => `${P}/tenants/${f.acme}/subscriptions`;

describe('Document 2 subscriptions', () => {
  it('Doc2 §4.1: the list is page style and carries the seeded subscription', async () => {
    const res = await f.admin.get(`${subs()}?page_size=1`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      results: 1,
      pages: 1,
      page: 1,
      subscriptions: [
        {
          id: f.main,
          name: 'main',
          billingId: 'T-ACME-MAIN',
          uc: 'uc_alpha',
          licenses: { ucAlphaUsers: 50, sipTrunkChannels: 10 },
        },
      ],
    });
  });

  it('Doc2 §2.1/§4.1: detailed read computes isDeletable and assignedEntities from what is linked', async () => {
    const plain = await f.admin.get(f.T);
    expect(plain.body).toMatchObject({
      numberOfUsers: 2,
      numberOfTrunkgroups: 2,
      phoneNumbers: { total: 10, free: 8, linkedToUsers: 2 },
    });
    expect(plain.body).not.toHaveProperty('isDeletable');
    const detailed = await f.admin.get(`${f.T}?detailed=true`);
    expect(detailed.body).toMatchObject({
      isDeletable: false,
      assignedEntities: ['MS Users', 'Trunkgroups', 'Phone numbers'],
    });
    const created = await f.admin.post<{ id: number }>(subs(), { name: 'extra', billingId: 'T-ACME-EXTRA' });
    const fresh = await f.admin.get(`${subs()}/${created.body.id}?detailed=true`);
    expect(fresh.body).toMatchObject({ isDeletable: true, assignedEntities: [], phoneNumbers: { total: 0 } });
  });

  it('Doc2 §4.1: create answers 200 {id}, requires name and billingId, and emits an event', async () => {
    const created = await f.admin.post<{ id: number }>(subs(), {
      name: 'second',
      billingId: 'T-ACME-2',
      uc: 'uc_beta',
    });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body)).toEqual(['id']);
    expect(Number.isInteger(created.body.id)).toBe(true);
    expect((await f.admin.get(`${subs()}/${created.body.id}`)).body).toMatchObject({
      name: 'second',
      uc: 'uc_beta',
      licenses: { ucAlphaUsers: 0, sipTrunkChannels: 0 },
    });
    expect((await f.admin.post(subs(), { name: 'x' })).status).toBe(400);
    expect((await f.admin.post(subs(), { name: 'x', billingId: 'T-ACME-MAIN' })).status).toBe(400);
    expect((await f.admin.post(subs(), { name: 'x', billingId: 'T-X', uc: 'uc_gamma' })).body).toMatchObject({
      error: { code: 'uc_not_enabled' },
    });
    expect((await simEvents(sim)).map((e) => e.event)).toContain('subscription.create');
  });

  it('Doc2 §4.1 (spec README): PUT requires suspensionProfileId; the read reports the barring-profile id string', async () => {
    const missing = await f.admin.put(f.T, { name: 'renamed' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: { code: 'missing_field' } });
    const suspend = await f.admin.put(f.T, { name: 'renamed', suspensionProfileId: 2 });
    expect(suspend).toMatchObject({ status: 200, body: { id: f.main } });
    const read = await f.admin.get(f.T);
    expect(read.body).toMatchObject({ name: 'renamed', suspensionProfileId: 'BP-OUT' });
    expect((await f.admin.put(f.T, { suspensionProfileId: 999 })).status).toBe(400);
    expect((await f.admin.put(f.T, { suspensionProfileId: 'BP-OUT' })).status).toBe(400);
    expect((await f.admin.put(f.T, { suspensionProfileId: null })).status).toBe(200);
    expect((await f.admin.get(f.T)).body).not.toHaveProperty('suspensionProfileId');
    const updates = (await simEvents(sim)).filter((e) => e.event === 'subscription.update');
    expect(updates).toHaveLength(2);
    expect(updates[0]?.object).toMatchObject({ suspensionProfileId: 'BP-OUT' });
  });

  it('Doc2 §4.1: delete answers 200 {id}; a missing one counts as success; a linked one is 400', async () => {
    const created = await f.admin.post<{ id: number }>(subs(), { name: 'tmp', billingId: 'T-TMP' });
    const del = await f.admin.delete(`${subs()}/${created.body.id}`);
    expect(del).toMatchObject({ status: 200, body: { id: created.body.id } });
    expect((await f.admin.get(`${subs()}/${created.body.id}`)).status).toBe(404);
    expect(await f.admin.delete(`${subs()}/${created.body.id}`)).toMatchObject({
      status: 200,
      body: { id: created.body.id },
    });
    const blocked = await f.admin.delete(f.T);
    expect(blocked.status).toBe(400);
    expect(blocked.body).toMatchObject({
      error: { code: 'subscription_in_use', assignedEntities: ['MS Users', 'Trunkgroups', 'Phone numbers'] },
    });
    expect((await simEvents(sim)).filter((e) => e.event === 'subscription.delete')).toHaveLength(1);
  });

  it('Doc1 §1.5: tenant administrators make no billable changes (create, delete, suspension) but may rename', async () => {
    const tenantadmin = await loginAs(sim, 'tenantadmin');
    expect((await tenantadmin.post(subs(), { name: 'x', billingId: 'T-X' })).status).toBe(403);
    expect((await tenantadmin.put(f.T, { suspensionProfileId: 1 })).status).toBe(403);
    expect((await tenantadmin.put(f.T, { name: 'mine', suspensionProfileId: null })).status).toBe(200);
    expect((await tenantadmin.get(`${P}/tenants/${f.globex}/subscriptions/${f.voice}`)).status).toBe(403);
  });

  it('Doc2 §4.1: a subscription of another tenant, or a non-integer id, is 404 / 400', async () => {
    expect((await f.admin.get(`${P}/tenants/${f.acme}/subscriptions/${f.voice}`)).status).toBe(404);
    expect((await f.admin.get(`${P}/tenants/${f.acme}/subscriptions/abc`)).status).toBe(400);
  });

  it("Doc2 §4.1: rate plans, a rate plan's prices, regions", async () => {
    const plans = await f.admin.get<{ currency: string; ratePlans: { id: string }[] }>(`${f.T}/rate_plans`);
    expect(plans.body.currency).toBe('EUR');
    expect(plans.body.ratePlans.map((p) => p.id)).toEqual(['uc_alpha', 'trunking']);
    const prices = await f.admin.get<{ prices: unknown[] }>(`${f.T}/rate_plans/trunking`);
    expect(prices.body.prices.length).toBeGreaterThan(0);
    expect((await f.admin.get(`${f.T}/rate_plans/premium`)).status).toBe(400);
    expect((await f.admin.get(`${f.T}/regions`)).body).toEqual({ regions: [] });
    await f.admin.post(`${f.T}/locations`, { street: 'Rue Neuve', number: '1', postalCodeId: 1 });
    const regions = await f.admin.get<{ regions: { name: string; isoCode: string; id: number }[] }>(`${f.T}/regions`);
    expect(regions.body.regions).toEqual([expect.objectContaining({ name: 'Brussels-Capital', isoCode: 'BE' })]);
    expect(regions.body.regions[0]?.id).toBeGreaterThan(0);
  });

  it('Doc2 §4.1/§2.4, Doc1 §9: entitlement types, and the deprecated public path with the same body', async () => {
    const res = await f.admin.get<{
      entitlementTypes: { id: number; name: string }[];
      pagination: unknown[];
      sorting: unknown[];
    }>(`${f.T}/entitlement_types`);
    expect(res.status).toBe(200);
    expect(res.body.entitlementTypes.map((e) => e.name)).toEqual([
      'BE geo',
      'BE tollfree',
      'NL geo',
      'FR geo',
      'DE geo',
      'BE mobile',
    ]);
    expect(Array.isArray(res.body.pagination) && Array.isArray(res.body.sorting)).toBe(true);
    expect(res.body.entitlementTypes[0]).toMatchObject({ countryCode: '32', numberType: 'geo', vanityType: null });
    const tenantadmin = await loginAs(sim, 'tenantadmin');
    expect((await tenantadmin.get(`${P}/public/entitlement_types`)).body).toEqual(res.body);
  });

  it('Doc2 §4.1: entitlement types answer `pagination`: the list pages in page style, described in pagination[0]', async () => {
    type Types = { entitlementTypes: { id: number }[]; pagination: Record<string, unknown>[] };
    const first = await f.admin.get<Types>(`${f.T}/entitlement_types?page_size=4`);
    expect(first.body.entitlementTypes.map((e) => e.id)).toEqual([1, 2, 3, 4]);
    expect(first.body.pagination).toEqual([{ results: 6, pages: 2, page: 1, page_size: 4 }]);
    const second = await f.admin.get<Types>(`${f.T}/entitlement_types?page_size=4&page=2`);
    expect(second.body.entitlementTypes.map((e) => e.id)).toEqual([5, 6]);
    expect(second.body.pagination[0]).toMatchObject({ page: 2, pages: 2 });
    expect((await f.admin.get<Types>(`${f.T}/entitlement_types`)).body.pagination[0]).toMatchObject({
      page_size: 10,
      pages: 1,
    });
  });

  it('Doc1 §4.5: country codes of a subscription', async () => {
    const res = await f.admin.get<{ countryCodes: { code: string }[] }>(`${f.T}/country_codes`);
    expect(res.body.countryCodes.map((c) => c.code)).toEqual(['32', '31', '33', '49', '352']);
  });

  it("Doc1 §4.4 + design decision: deleting a tenant cascades to its subscriptions' Document 2 data", async () => {
    const tenant = await f.admin.post<{ uuid: string }>(`${P}/tenants`, {
      name: 'temp',
      owner: { type: 'group', uuid: f.group },
    });
    const sub = await f.admin.post<{ id: number }>(`${P}/tenants/${tenant.body.uuid}/subscriptions`, {
      name: 's',
      billingId: 'T-TEMP-S',
    });
    const TT = `${P}/tenants/${tenant.body.uuid}/subscriptions/${sub.body.id}`;
    expect(
      (
        await f.admin.post(`${TT}/addresses`, {
          data: { street: 'A', number: '1', postalCode: 1000, city: 'Brussels', country: 'Belgium' },
        })
      ).status,
    ).toBe(201);
    expect((await f.admin.post(`${TT}/locations`, { street: 'A', number: '1', postalCodeId: 1 })).status).toBe(200);
    expect(
      (
        await f.admin.post(`${TT}/uc_alpha/templates`, {
          sku: 'S',
          name: 'n',
          description: 'd',
          location: 'BE',
          vrp: 'v',
        })
      ).status,
    ).toBe(204);
    const state = async () =>
      (await fetch(`${sim.url}/_sim/state`).then((r) => r.json())) as {
        tables: Record<string, { subscriptionId?: number }[]>;
      };
    const count = (s: { tables: Record<string, { subscriptionId?: number }[]> }) =>
      ['addresses', 'locations', 'templates'].map(
        (t) => (s.tables[t] ?? []).filter((r) => r.subscriptionId === sub.body.id).length,
      );
    expect(count(await state())).toEqual([1, 1, 1]);
    expect((await f.admin.delete(`${P}/tenants/${tenant.body.uuid}`)).status).toBe(200);
    expect(count(await state())).toEqual([0, 0, 0]);
  });
});
