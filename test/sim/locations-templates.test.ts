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

type PostalCode = {
  id: number;
  code: string;
  city: string;
  region: { id: number; name: string };
  country: { id: number; name: string; isoCode: string };
};
type Template = { id: number; sku: string; name: string; description: string };

describe('Document 2 locations and postal codes', () => {
  it('design decision: GET P/public/postal_codes lists postal codes (isoCode, code, search, page style)', async () => {
    const tenantadmin = await loginAs(sim, 'tenantadmin');
    const all = await tenantadmin.get<{ postalCodes: PostalCode[]; results: number; pages: number; page: number }>(
      `${P}/public/postal_codes`,
    );
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ results: 7, pages: 1, page: 1 });
    const be = await tenantadmin.get<{ postalCodes: PostalCode[]; results: number }>(
      `${P}/public/postal_codes?isoCode=BE&page_size=2&page=2`,
    );
    expect(be.body.results).toBe(5);
    expect(be.body.postalCodes.map((p) => p.code)).toEqual(['2000', '9000']);
    const ghent = await tenantadmin.get<{ postalCodes: PostalCode[] }>(`${P}/public/postal_codes?search=gent`);
    expect(ghent.body.postalCodes).toEqual([
      expect.objectContaining({
        code: '9000',
        city: 'Gent',
        region: expect.objectContaining({ name: 'Flanders' }),
        country: { id: 1, name: 'Belgium', isoCode: 'BE' },
      }),
    ]);
    expect(ghent.body.postalCodes[0]?.region.id).toBeGreaterThan(0);
    expect(
      (await tenantadmin.get<{ postalCodes: PostalCode[] }>(`${P}/public/postal_codes?code=75001`)).body.postalCodes[0]
        ?.city,
    ).toBe('Paris');
  });

  it('Doc2 §2.8/§4.7: create (200 {id}, postalCodeId required and known), list, update (404 absent), delete (204, idempotent)', async () => {
    const L = `${f.T}/locations`;
    expect((await f.admin.post(L, { street: 'Rue Neuve', number: '1' })).status).toBe(400);
    expect((await f.admin.post(L, { street: 'Rue Neuve', number: '1', postalCodeId: 999 })).body).toMatchObject({
      error: { code: 'unknown_postal_code' },
    });
    const created = await f.admin.post<{ id: number }>(L, {
      street: 'Rue Neuve',
      number: '1',
      postbox: 'B2',
      postalCodeId: 1,
    });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body)).toEqual(['id']);
    const list = await f.admin.get<{ locations: Record<string, unknown>[] }>(L);
    expect(list.body.locations).toEqual([
      {
        id: created.body.id,
        street: 'Rue Neuve',
        number: '1',
        postbox: 'B2',
        postalCode: expect.objectContaining({
          id: 1,
          code: '1000',
          city: 'Brussels',
          country: expect.objectContaining({ isoCode: 'BE' }),
        }),
      },
    ]);
    expect(await f.admin.put(`${L}/${created.body.id}`, { number: '3', postalCodeId: 2 })).toMatchObject({
      status: 200,
      body: { id: created.body.id },
    });
    expect(
      (await f.admin.get<{ locations: { number: string; postalCode: { code: string } }[] }>(L)).body.locations[0],
    ).toMatchObject({ number: '3', postalCode: { code: '1050' } });
    expect((await f.admin.put(`${L}/999`, { number: '3' })).status).toBe(404);
    expect((await f.admin.delete(`${L}/${created.body.id}`)).status).toBe(204);
    expect((await f.admin.delete(`${L}/${created.body.id}`)).status).toBe(204);
    expect((await f.admin.get<{ locations: unknown[] }>(L)).body.locations).toEqual([]);
  });
});

describe('Document 2 templates', () => {
  const M = () => `${f.T}/uc_alpha/templates`;
  const body = {
    sku: 'SKU-STD',
    name: 'Standard',
    description: 'Standard user',
    location: 'BE',
    vrp: 'BE-national',
    groups: ['g1'],
    licenses: ['L1'],
  };

  it('Doc2 §4.8 (spec README): the default template 0 always exists; create answers 204 with no body and no id', async () => {
    const before = await f.admin.get<{ templates: Template[] }>(M());
    expect(before.body.templates).toEqual([expect.objectContaining({ id: 0 })]);
    expect((await f.admin.get(`${M()}/0`)).body).toMatchObject({
      id: 0,
      voiceEnabled: true,
      groups: [],
      licenses: [],
      customerLicenses: [],
    });
    const res = await fetch(`${sim.url}${M()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const after = await f.admin.get<{ templates: Template[] }>(M());
    expect(after.body.templates.map((t) => t.sku)).toEqual(['default', 'SKU-STD']);
    expect(Object.keys(after.body.templates[1] as object).sort()).toEqual(['description', 'id', 'name', 'sku']);
    const id = after.body.templates[1]?.id as number;
    expect((await f.admin.get(`${M()}/${id}`)).body).toEqual({ id, ...body, voiceEnabled: true, customerLicenses: [] });
  });

  it('Doc2 §4.8: required fields and sku unique per subscription (400)', async () => {
    expect((await f.admin.post(M(), { ...body, vrp: undefined })).status).toBe(400);
    expect((await f.admin.post(M(), { ...body, location: 'Belgium' })).status).toBe(400);
    expect((await f.admin.post(M(), body)).status).toBe(204);
    expect((await f.admin.post(M(), body)).body).toMatchObject({ error: { code: 'duplicate_sku' } });
    const other = `${P}/tenants/${f.globex}/subscriptions/${f.voice}/uc_alpha/templates`;
    expect((await f.admin.post(other, body)).status).toBe(204);
  });

  it('Doc2 §4.8: search may exclude the default template; update 204; delete 204, idempotent; template 0 cannot be deleted', async () => {
    await f.admin.post(M(), body);
    const found = await f.admin.get<{ templates: Template[] }>(`${M()}?search=standard`);
    expect(found.body.templates.map((t) => t.sku)).toEqual(['SKU-STD']);
    const id = found.body.templates[0]?.id as number;
    const put = await f.admin.put(`${M()}/${id}`, { name: 'Standard 2', customerLicenses: ['C1'] });
    expect(put.status).toBe(204);
    expect((await f.admin.get(`${M()}/${id}`)).body).toMatchObject({
      name: 'Standard 2',
      customerLicenses: ['C1'],
      vrp: 'BE-national',
    });
    expect((await f.admin.put(`${M()}/${id}`, { sku: 'OTHER' })).status).toBe(400);
    expect((await f.admin.get(`${f.T}?detailed=true`)).body).toMatchObject({
      assignedEntities: expect.arrayContaining(['Templates']),
    });
    expect((await f.admin.delete(`${M()}/0`)).status).toBe(400);
    expect((await f.admin.delete(`${M()}/${id}`)).status).toBe(204);
    expect((await f.admin.delete(`${M()}/${id}`)).status).toBe(204);
    expect((await f.admin.get(`${M()}/${id}`)).status).toBe(404);
  });
});
