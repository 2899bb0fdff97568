import { describe, expect, it } from 'vitest';
import { defaultSeed, type RunningSimulator } from '../../src/sim/index.js';
import { type SubscriptionFixture, useSubscriptionSim } from './subscription-helpers.js';
import { loginAs, P, uuidOf } from './helpers.js';

let sim: RunningSimulator;
let f: SubscriptionFixture;
useSubscriptionSim(
  (s) => (sim = s),
  (x) => (f = x),
);

type Entitlement = Record<string, unknown> & { id: number };

describe('Document 2 entitlements', () => {
  it('Doc2 §2.3/§4.3: the seeded BE geo entitlement carries its type but not licenseModelId; counters only when ≥ 1', async () => {
    const res = await f.admin.get<{ entitlements: Entitlement[] }>(`${f.T}/entitlements`);
    expect(res.status).toBe(200);
    expect(res.body.entitlements).toHaveLength(1);
    const e = res.body.entitlements[0] as Entitlement;
    expect(e).toMatchObject({
      name: 'BE geo',
      countryCode: '32',
      isoCode: 'BE',
      numberType: 'geo',
      entitlement: 10,
      assigned: 2,
    });
    expect(e).not.toHaveProperty('licenseModelId');
    expect(e).not.toHaveProperty('reserved');
    expect(e).not.toHaveProperty('disconnected');
  });

  it('Doc2 §2.3: reserved and disconnected, seeded, are served when at least 1 (and may exceed the entitlement)', async () => {
    const seed = defaultSeed();
    const main = seed.tenants?.find((t) => t.name === 'acme-corp')?.subscriptions?.[0];
    main!.entitlements = [{ type: 'BE geo', entitlement: 10, assigned: 2, reserved: 12, disconnected: 1 }];
    await fetch(`${sim.url}/_sim/reset`, { method: 'POST', body: JSON.stringify(seed) });
    const admin = await loginAs(sim, 'admin');
    const acme = await uuidOf(admin, 'tenants', 'acme-corp');
    const subs = await admin.get<{ subscriptions: { id: number }[] }>(`${P}/tenants/${acme}/subscriptions`);
    const T = `${P}/tenants/${acme}/subscriptions/${subs.body.subscriptions[0]?.id}`;
    const res = await admin.get<{ entitlements: Entitlement[] }>(`${T}/entitlements`);
    expect(res.body.entitlements[0]).toMatchObject({ entitlement: 10, assigned: 2, reserved: 12, disconnected: 1 });
  });

  it('Doc2 §4.3: create with licenseModelId = type id; a second of the same type is 400; unknown type is 400', async () => {
    const created = await f.admin.post<{ id: number }>(`${f.T}/entitlements`, {
      licenseModelId: 2,
      entitlement: 3,
      externalReference: 'X-1',
    });
    expect(created.status).toBe(200);
    const list = await f.admin.get<{ entitlements: Entitlement[] }>(`${f.T}/entitlements`);
    const fresh = list.body.entitlements.find((x) => x.id === created.body.id);
    expect(fresh).toMatchObject({ name: 'BE tollfree', entitlement: 3, externalReference: 'X-1' });
    expect(fresh).not.toHaveProperty('assigned');
    const again = await f.admin.post(`${f.T}/entitlements`, { licenseModelId: 2 });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: { code: 'duplicate_entitlement' } });
    expect((await f.admin.post(`${f.T}/entitlements`, { licenseModelId: 99 })).status).toBe(400);
    expect((await f.admin.post(`${f.T}/entitlements`, {})).status).toBe(400);
    const zero = await f.admin.post<{ id: number }>(`${f.T}/entitlements`, { licenseModelId: 3 });
    const z = (await f.admin.get<{ entitlements: Entitlement[] }>(`${f.T}/entitlements`)).body.entitlements.find(
      (x) => x.id === zero.body.id,
    );
    expect(z?.['entitlement']).toBe(0);
  });

  it('Doc2 §4.3 (spec README): an entitlement cannot go below assigned, and cannot be deleted while numbers are assigned', async () => {
    const [e] = (await f.admin.get<{ entitlements: Entitlement[] }>(`${f.T}/entitlements`)).body.entitlements;
    const id = (e as Entitlement).id;
    const below = await f.admin.put(`${f.T}/entitlements/${id}`, { entitlement: 1 });
    expect(below.status).toBe(400);
    expect(below.body).toMatchObject({ error: { code: 'below_assigned', assigned: 2 } });
    expect(await f.admin.put(`${f.T}/entitlements/${id}`, { entitlement: 2 })).toMatchObject({
      status: 200,
      body: { id },
    });
    const del = await f.admin.delete(`${f.T}/entitlements/${id}`);
    expect(del.status).toBe(400);
    expect(del.body).toMatchObject({ error: { code: 'entitlement_in_use' } });
    expect((await f.admin.put(`${f.T}/entitlements/999`, { entitlement: 1 })).status).toBe(404);
  });

  it('Doc2 §4.3: delete answers 200 {id}; a missing entitlement counts as success', async () => {
    const created = await f.admin.post<{ id: number }>(`${f.T}/entitlements`, { licenseModelId: 4, entitlement: 5 });
    expect(await f.admin.delete(`${f.T}/entitlements/${created.body.id}`)).toMatchObject({
      status: 200,
      body: { id: created.body.id },
    });
    expect(await f.admin.delete(`${f.T}/entitlements/${created.body.id}`)).toMatchObject({
      status: 200,
      body: { id: created.body.id },
    });
  });

  it('Doc1 §1.5: entitlements are billable: tenant administrators get 403 on create and update', async () => {
    const tenantadmin = await loginAs(sim, 'tenantadmin');
    expect((await tenantadmin.get(`${f.T}/entitlements`)).status).toBe(200);
    expect((await tenantadmin.post(`${f.T}/entitlements`, { licenseModelId: 2 })).status).toBe(403);
    expect((await tenantadmin.put(`${f.T}/entitlements/1`, { entitlement: 20 })).status).toBe(403);
  });
});

type NumberPage = {
  results: number;
  pages: number;
  page: unknown;
  next?: string;
  numbers: { fullNumber: string; addressId?: number }[];
};

describe('Document 2 numbers', () => {
  it('Doc2 §4.4: number_inventory_type of a group and of a subscription follows the configuration key', async () => {
    expect((await f.admin.get(`${P}/groups/${f.group}/number_inventory_type`)).body).toEqual({ service: 'default' });
    expect((await f.admin.get(`${f.T}/number_inventory_type`)).body).toEqual({ service: 'default' });
  });

  it('Doc2 §2.5/§4.4: numbers page both ways and serve page as a string', async () => {
    const first = await f.admin.get<NumberPage>(`${f.T}/numbers?page_size=4`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ results: 10, pages: 3, page: '1' });
    expect(first.body.numbers.map((n) => n.fullNumber)).toEqual([
      '+3221234560',
      '+3221234561',
      '+3221234562',
      '+3221234563',
    ]);
    expect(first.body.numbers[0]).toMatchObject({
      assigned: true,
      assignedTo: { type: 'uc_alpha', subType: 'user' },
      source: 'number_inventory',
      status: 'active',
      nsn: '21234560',
      countryCode: '32',
      isoCode: 'BE',
    });
    expect(first.body.numbers[2]).toMatchObject({ assigned: false });
    expect(first.body.numbers[2]).not.toHaveProperty('assignedTo');
    const second = await f.admin.get<NumberPage>(`${f.T}/numbers?next=${first.body.next}`);
    expect(second.body.page).toBe('2');
    expect(second.body.numbers[0]?.fullNumber).toBe('+3221234564');
    const third = await f.admin.get<NumberPage>(`${f.T}/numbers?page_size=4&page=3`);
    expect(third.body).toMatchObject({ page: '3' });
    expect(third.body.numbers).toHaveLength(2);
    expect(third.body).not.toHaveProperty('next');
  });

  it('Doc2 §4.4: search is an E.164 substring; filters take addressId (string or null) and countryCode', async () => {
    const search = await f.admin.get<NumberPage>(`${f.T}/numbers?search=${encodeURIComponent('+322123456')}`);
    expect(search.body.results).toBe(10);
    expect(
      (await f.admin.get<NumberPage>(`${f.T}/numbers?search=34569`)).body.numbers.map((n) => n.fullNumber),
    ).toEqual(['+3221234569']);
    const filtersNl = encodeURIComponent(JSON.stringify({ countryCode: '31' }));
    expect((await f.admin.get<NumberPage>(`${f.T}/numbers?filters=${filtersNl}`)).body.results).toBe(0);
    const addr = await f.admin.post<{ id: number; full_address: string }>(`${f.T}/addresses`, {
      data: { street: 'Rue Neuve', number: '1', postalCode: 1000, city: 'Brussels', country: 'Belgium' },
    });
    await f.admin.put(`${f.T}/address_numbers/bulk`, {
      name: 'link',
      data: [{ full_address: addr.body.full_address, number: '+3221234565' }],
    });
    const withAddress = await f.admin.get<NumberPage>(
      `${f.T}/numbers?filters=${encodeURIComponent(JSON.stringify({ addressId: String(addr.body.id) }))}`,
    );
    expect(withAddress.body.numbers).toEqual([
      expect.objectContaining({ fullNumber: '+3221234565', addressId: addr.body.id, address: addr.body.full_address }),
    ]);
    const without = await f.admin.get<NumberPage>(
      `${f.T}/numbers?filters=${encodeURIComponent(JSON.stringify({ addressId: null }))}`,
    );
    expect(without.body.results).toBe(9);
    expect((await f.admin.get<NumberPage>(`${f.T}/numbers?filters[countryCode]=32&page_size=2`)).body.results).toBe(10);
  });

  it('Doc2 §4.4: free numbers of a country', async () => {
    const be = await f.admin.get<{ freeNumbers: string[] }>(`${f.T}/free_numbers?country=BE`);
    expect(be.body.freeNumbers).toHaveLength(100);
    expect(be.body.freeNumbers[0]).toBe('+3221239000');
    expect(
      (await f.admin.get<{ freeNumbers: string[] }>(`${f.T}/free_numbers?country=NL`)).body.freeNumbers,
    ).toHaveLength(5);
    expect((await f.admin.get(`${f.T}/free_numbers?country=LU`)).body).toEqual({ freeNumbers: [] });
  });

  it('Doc2 §2.6/§4.4: number_inventory filters (all must match), pages with next, and excludes ported-in numbers', async () => {
    const nsn = await f.admin.get<{ numbers: { id: string; state?: string }[]; results: number; next?: string }>(
      `${f.T}/number_inventory?nsn=2123900&country_code=32&number_type=geo&page_size=4`,
    );
    expect(nsn.body.results).toBe(10);
    expect(nsn.body.next).toBeDefined();
    const rest = await f.admin.get<{ numbers: { id: string }[]; next?: string }>(
      `${f.T}/number_inventory?next=${nsn.body.next}&page_size=6`,
    );
    expect(rest.body.numbers.map((n) => n.id)).toEqual([
      '+3221239004',
      '+3221239005',
      '+3221239006',
      '+3221239007',
      '+3221239008',
      '+3221239009',
    ]);
    expect(rest.body).not.toHaveProperty('next');
    expect(nsn.body.numbers[0]).toMatchObject({
      id: '+3221239000',
      countryCode: '32',
      nsn: '21239000',
      numberType: 'geo',
      region: 'Brussels-Capital',
    });
    expect(nsn.body.numbers[0]).not.toHaveProperty('state');
    expect(
      (await f.admin.get<{ results: number }>(`${f.T}/number_inventory?nsn=2123900&country_code=31`)).body.results,
    ).toBe(0);
    const held = await f.admin.get<{ numbers: { id: string; state?: string }[] }>(
      `${f.T}/number_inventory?nsn=21234560`,
    );
    expect(held.body.numbers).toEqual([expect.objectContaining({ id: '+3221234560', state: 'assigned' })]);
    const regions = await f.admin.get<{ regions: { id: number; name: string }[] }>(`${P}/groups/${f.group}/regions`);
    const brussels = regions.body.regions.find((r) => r.name === 'Brussels-Capital')?.id;
    const flanders = regions.body.regions.find((r) => r.name === 'Flanders')?.id;
    expect((await f.admin.get<{ results: number }>(`${f.T}/number_inventory?region=${brussels}`)).body.results).toBe(
      100,
    );
    expect((await f.admin.get<{ results: number }>(`${f.T}/number_inventory?region=${flanders}`)).body.results).toBe(0);
    expect((await f.admin.get(`${f.T}/number_inventory?region=abc`)).status).toBe(400);
    const seed = (await fetch(`${sim.url}/_sim/state`).then((r) => r.json())) as {
      tables: { numbers: { fullNumber: string; source: string }[] };
    };
    const ported = seed.tables.numbers.find((n) => n.fullNumber === '+3221234569');
    expect(ported).toBeDefined();
    if (ported) ported.source = 'ported_in';
    await fetch(`${sim.url}/_sim/reset`, { method: 'POST', body: JSON.stringify(seed) });
    const admin = await loginAs(sim, 'admin');
    expect((await admin.get<{ results: number }>(`${f.T}/number_inventory?nsn=21234569`)).body.results).toBe(0);
    expect((await admin.get<{ results: number }>(`${f.T}/number_inventory?nsn=21234568`)).body.results).toBe(1);
  });
});
