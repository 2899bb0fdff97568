import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, type RunningSimulator } from '../../src/sim/index.js';
import { createPlatformCore } from '../../src/sim/platform/core.js';
import { loginAs, P, SimClient, startTestSim, uuidOf } from './helpers.js';

let sim: RunningSimulator;
let admin: SimClient;
let group: string;
beforeAll(async () => {
  sim = await startTestSim();
  admin = await loginAs(sim, 'admin');
  group = await uuidOf(admin, 'groups', 'demo-group');
});
afterAll(async () => {
  await sim.close();
});

describe('group configuration and reference data', () => {
  it('Doc1 §2.9/§4.2: configuration masks password and token keys; keys and search filter; full ignores them', async () => {
    const all = await admin.get<{ properties: Record<string, string> }>(`${P}/groups/${group}/configurations/general`);
    expect(all.body.properties['smtp_password']).toBe('********');
    expect(all.body.properties['api_token']).toBe('********');
    expect(all.body.properties['ui_language']).toBe('en');
    const keys = await admin.get<{ properties: Record<string, string> }>(
      `${P}/groups/${group}/configurations/general?keys=ui_language,smtp_password`,
    );
    expect(keys.body.properties).toEqual({ ui_language: 'en', smtp_password: '********' });
    const search = await admin.get<{ properties: Record<string, string> }>(
      `${P}/groups/${group}/configurations/general?search=twofa`,
    );
    expect(Object.keys(search.body.properties).sort()).toEqual(['twofa_mail_template', 'twofa_totp_issuer']);
    const full = await admin.get<{ properties: Record<string, string> }>(
      `${P}/groups/${group}/configurations/general?full=true&keys=ui_language`,
    );
    expect(Object.keys(full.body.properties).length).toBe(Object.keys(all.body.properties).length);
  });

  it('Doc1 §2.10/§4.2: branding PUT answers 204 and reads back at GET configurations/pages?type=', async () => {
    const put = await admin.put(`${P}/groups/${group}/configurations/pages`, { type: 'theme', selected: 'dark' });
    expect(put.status).toBe(204);
    const theme = await admin.get(`${P}/groups/${group}/configurations/pages?type=theme`);
    expect(theme.body).toMatchObject({ selected: 'dark', allowed: ['light', 'dark'] });
    expect((await admin.get(`${P}/groups/${group}/configurations/pages`)).status).toBe(400);
    expect((await admin.put(`${P}/groups/${group}/configurations/pages`, { type: 'font', name: 3 })).status).toBe(400);
    expect((await admin.put(`${P}/groups/${group}/configurations/pages`, { type: 'image', color: 'red' })).status).toBe(
      400,
    );
  });

  it('Doc1 §4.2/§4.5: enabled_ucs, regions of every level, country ISO codes, rate plan prices', async () => {
    expect((await admin.get(`${P}/groups/${group}/enabled_ucs`)).body).toEqual({
      enabled_ucs: ['uc_alpha', 'uc_beta'],
    });
    const regions = await admin.get<{ regions: { name: string; isoCode: string; id: number }[] }>(
      `${P}/groups/${group}/regions`,
    );
    expect(regions.body.regions.map((r) => r.name)).toEqual(['Brussels-Capital', 'Flanders', 'Wallonia']);
    const state = await fetch(`${sim.url}/_sim/state`).then(
      (r) => r.json() as Promise<{ tables: { distributors: { uuid: string }[] } }>,
    );
    const dist = state.tables.distributors[0]!.uuid;
    expect((await admin.get(`${P}/distributors/${dist}/regions`)).status).toBe(200);
    const north = await uuidOf(admin, 'resellers', 'north');
    expect((await admin.get(`${P}/resellers/${north}/regions`)).body).toMatchObject({
      regions: [{ name: 'Flanders', isoCode: 'BE' }],
    });
    const acme = await uuidOf(admin, 'tenants', 'acme-corp');
    expect((await admin.get(`${P}/tenants/${acme}/regions`)).status).toBe(200);
    const iso = await admin.get<{ countryIsoCodes: { isoCode: string; name: string }[] }>(
      `${P}/public/country_iso_codes`,
    );
    expect(iso.body.countryIsoCodes.map((c) => c.isoCode)).toEqual(['BE', 'DE', 'FR', 'LU', 'NL']);
    const prices = await admin.get<{
      prices: { destination: string; activeSince: string; national: { setup: number } }[];
    }>(`${P}/groups/${group}/rate_plans/uc_alpha`);
    expect(prices.body.prices[0]).toMatchObject({ destination: 'Belgium', activeSince: '2026-01-01 00:00:00' });
    expect((await admin.get(`${P}/groups/${group}/rate_plans/nope`)).status).toBe(400);
  });

  it('Doc1 §4.5: reference data needs a token but no api_rule', async () => {
    const limited = await loginAs(sim, 'tenantadmin');
    expect((await limited.get(`${P}/public/suspension_profiles`)).status).toBe(200);
    expect((await new SimClient(sim).get(`${P}/public/suspension_profiles`)).status).toBe(401);
  });
});

describe('the reads the documents do not show (seed inventedEndpoints)', () => {
  it('Doc1 §4.2 ("the path of the endpoint is not shown") and Doc2 §4.7 (postalCodeId, no list shown): each can be switched off and then answers 404', async () => {
    const bare = await startTestSim({
      seed: { ...defaultSeed(), inventedEndpoints: { postalCodes: false, brandingRead: false } },
    });
    try {
      const client = await loginAs(bare, 'admin');
      const uuid = await uuidOf(client, 'groups', 'demo-group');
      for (const type of ['font', 'image', 'theme']) {
        const read = await client.get(`${P}/groups/${uuid}/configurations/pages?type=${type}`);
        expect(read.status).toBe(404);
        expect(read.body).toMatchObject({
          error: { code: 'not_found', message: expect.stringContaining('no endpoint GET') },
        });
      }
      // The documented PUT stays.
      expect(
        (await client.put(`${P}/groups/${uuid}/configurations/pages`, { type: 'font', name: 'Roboto' })).status,
      ).toBe(204);
      expect((await client.get(`${P}/public/postal_codes?code=1000`)).status).toBe(404);
      // On by default, and a reset with a seed that says nothing puts them back.
      await fetch(`${bare.url}/_sim/reset`, { method: 'POST' });
      expect((await client.get(`${P}/groups/${uuid}/configurations/pages?type=font`)).status).toBe(401); // a reset ends sessions
      const again = await loginAs(bare, 'admin');
      const group2 = await uuidOf(again, 'groups', 'demo-group');
      expect((await again.get(`${P}/groups/${group2}/configurations/pages?type=font`)).status).toBe(200);
      expect((await again.get(`${P}/public/postal_codes?code=1000`)).status).toBe(200);
      expect(() => createPlatformCore({ seed: { inventedEndpoints: { nope: false } as never } })).toThrow(
        /inventedEndpoints\.nope: unknown/,
      );
    } finally {
      await bare.close();
    }
  });
});
