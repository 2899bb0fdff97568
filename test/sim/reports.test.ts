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

type Lic = Record<string, { assigned: number; inUse?: number; inUseUcAlphaUsers?: number }>;

describe('Document 2 licenses and reports', () => {
  it('Doc2 §2.2/§4.2: the group licenses map; detailed adds the consumption per entity', async () => {
    const plain = await f.admin.get<{ licenses: Lic; group?: unknown }>(`${P}/groups/${f.group}/licenses`);
    expect(plain.status).toBe(200);
    expect(plain.body.licenses['ucAlphaUsers']).toMatchObject({
      assigned: 50,
      inUse: 2,
      inUseUcAlphaUsers: 2,
      service: 'uc_alpha',
    });
    expect(plain.body.licenses['sipTrunkChannelNational']).toMatchObject({ assigned: 10 });
    expect(plain.body).not.toHaveProperty('group');
    const detailed = await f.admin.get<{
      group: {
        distributors: { name: string; resellers: { name: string; tenants: { name: string }[] }[] }[];
        resellers: {
          name: string;
          licenses: Lic;
          tenants: { name: string; subscriptions: { name: string; licenses: Lic }[] }[];
        }[];
        tenants: { name: string }[];
      };
    }>(`${P}/groups/${f.group}/licenses?detailed=true`);
    const g = detailed.body.group;
    expect(g.distributors.map((d) => d.name)).toEqual(['demo-distribution']);
    expect(g.distributors[0]?.resellers[0]).toMatchObject({ name: 'south', tenants: [{ name: 'globex' }] });
    expect(g.resellers[0]).toMatchObject({ name: 'north', licenses: { ucAlphaUsers: { assigned: 50 } } });
    expect(g.resellers[0]?.tenants[0]?.subscriptions[0]).toMatchObject({
      name: 'main',
      licenses: { ucAlphaUsers: { assigned: 50 } },
    });
    expect(g.tenants.map((t) => t.name)).toEqual(['initech']);
    expect((await (await loginAs(sim, 'tenantadmin')).get(`${P}/groups/${f.group}/licenses`)).status).toBe(403);
  });

  it('Doc2 §2.14/§4.2: phone and product usage rows carry the organization names', async () => {
    const phone = await f.admin.get<{ phoneUsages: Record<string, string>[] }>(
      `${P}/groups/${f.group}/sdrs/phone_usage`,
    );
    expect(phone.body.phoneUsages).toEqual([
      {
        distributor: '',
        group: 'demo-group',
        reseller: 'north',
        subscription: 'main',
        tenant: 'acme-corp',
        phoneNumber: '+3221234560',
        username: 'alice@acme.example',
      },
      {
        distributor: '',
        group: 'demo-group',
        reseller: 'north',
        subscription: 'main',
        tenant: 'acme-corp',
        phoneNumber: '+3221234561',
        username: 'bob@acme.example',
      },
    ]);
    const product = await f.admin.get<{ productUsages: Record<string, unknown>[] }>(
      `${P}/groups/${f.group}/sdrs/product_usage`,
    );
    expect(product.body.productUsages).toContainEqual(
      expect.objectContaining({ tenant: 'acme-corp', sku: 'ucAlphaUsers', quantity: 50, used: 2 }),
    );
    expect(product.body.productUsages).toContainEqual(
      expect.objectContaining({
        tenant: 'globex',
        distributor: 'demo-distribution',
        sku: 'sipTrunkChannels',
        quantity: 0,
      }),
    );
  });

  it('Doc2 §4.2: the licenses report as csv attachment and as json with a base64 fileBody', async () => {
    const res = await fetch(`${sim.url}${P}/groups/${f.group}/downloads/report`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'csv' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="licenses_group_${f.group}_\\d+\\.csv"$`),
    );
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'name,sipTrunkChannelNational_assigned,sipTrunkChannelInternational_assigned,ucAlphaUsers_assigned,ucAlphaUsers_used',
    );
    expect(lines).toContain('acme-corp/main,10,0,50,2');
    const json = await f.admin.post<{ fileBody: string; fileName: string }>(`${P}/groups/${f.group}/downloads/report`, {
      format: 'json',
    });
    expect(json.body.fileName).toMatch(/^licenses_group_.+\.json$/);
    const rows = JSON.parse(Buffer.from(json.body.fileBody, 'base64').toString('utf8')) as Record<string, string>[];
    expect(rows).toContainEqual(expect.objectContaining({ name: 'acme-corp/main', ucAlphaUsers_used: '2' }));
    expect((await f.admin.post(`${P}/groups/${f.group}/downloads/report`, {})).status).toBe(400);
    expect((await f.admin.post(`${P}/groups/${f.group}/downloads/report`, { format: 'xlsx' })).body).toMatchObject({
      error: { code: 'unsupported_format' },
    });
  });

  it('Doc2 §4.2: the entitlements download (json)', async () => {
    const json = await f.admin.post<{ fileBody: string; fileName: string }>(
      `${P}/groups/${f.group}/downloads/entitlements`,
      { format: 'json', filename: 'e.json' },
    );
    expect(json.body.fileName).toBe('e.json');
    const rows = JSON.parse(Buffer.from(json.body.fileBody, 'base64').toString('utf8')) as Record<string, string>[];
    expect(rows).toEqual([
      {
        tenant: 'acme-corp',
        subscription: 'main',
        name: 'BE geo',
        countryCode: '32',
        numberType: 'geo',
        entitlement: '10',
        assigned: '2',
      },
    ]);
  });
});

describe('branding read (Document 1 §4.2, used by Document 2 clients)', () => {
  it('Doc1 §4.2: GET G/configurations/pages?type= is 404 until that type is written', async () => {
    const created = await f.admin.post<{ uuid: string }>(`${P}/groups`, { name: 'bare-group' });
    const pages = `${P}/groups/${created.body.uuid}/configurations/pages`;
    expect((await f.admin.get(`${pages}?type=font`)).status).toBe(404);
    expect((await f.admin.put(pages, { type: 'font', name: 'Inter', allowed: ['Inter'] })).status).toBe(204);
    expect((await f.admin.get(`${pages}?type=font`)).body).toEqual({ name: 'Inter', allowed: ['Inter'] });
    expect((await f.admin.get(`${P}/groups/${f.group}/configurations/pages?type=theme`)).status).toBe(200);
  });
});
