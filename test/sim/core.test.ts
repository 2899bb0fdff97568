import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { loginAs, P, SimClient, startTestSim, uuidOf } from './helpers.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(async () => {
  await sim.close();
});

describe('simulator core', () => {
  it('Doc1 §7: unauthenticated calls are 401 with the error body', async () => {
    const res = await new SimClient(sim).get(`${P}/groups`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { status: 401, code: 'unauthorized' } });
  });

  it("Doc3 §7: on the shared port, an unknown routing version or table answers the engine's {code, message}, not the platform's body", async () => {
    const basic = { authorization: `Basic ${Buffer.from('routing:routing').toString('base64')}` };
    for (const path of ['/draas/nosuchversion/routes', '/nosuchservice/active/routes', '/draas/active/nosuchtable']) {
      const res = await new SimClient(sim).call('GET', path, undefined, basic);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual({ code: '404', message: expect.stringContaining(path) });
    }
    // Document 3 §4.2: the default standby routes table holds no record: 404 as well.
    expect((await new SimClient(sim).call('GET', '/draas/standby/routes', undefined, basic)).body).toMatchObject({
      code: '404',
    });
  });

  it('Doc1 §1.2: another draas_instance is 404', async () => {
    const admin = await loginAs(sim, 'admin');
    expect((await admin.get('/api/v01/draas/other/groups')).status).toBe(404);
  });

  it('Doc1 §4.2: the default group is listed for the system administrator', async () => {
    const admin = await loginAs(sim, 'admin');
    const res = await admin.get<{ groups: { name: string; draasDomain: string }[]; results: number }>(`${P}/groups`);
    expect(res.status).toBe(200);
    expect(res.body.groups).toEqual([expect.objectContaining({ name: 'demo-group', draasDomain: 'demo.example.net' })]);
    expect(res.body.results).toBe(1);
  });

  it('Doc1 §1.6: api_rules refuse with 403 naming the role (reader cannot create)', async () => {
    const reader = await loginAs(sim, 'reader');
    const group = await uuidOf(reader, 'groups', 'demo-group');
    const res = await reader.post(`${P}/resellers`, { name: 'x', owner: { type: 'group', uuid: group } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: { code: 'forbidden', role: 'resellers.create' } });
    expect((await reader.get(`${P}/groups/${group}`)).status).toBe(200);
  });

  it('Doc1 §1.5: a tenant administrator reading globex gets 403', async () => {
    const tenantadmin = await loginAs(sim, 'tenantadmin');
    const globex = await uuidOf(tenantadmin, 'tenants', 'globex');
    const acme = await uuidOf(tenantadmin, 'tenants', 'acme-corp');
    expect((await tenantadmin.get(`${P}/tenants/${globex}`)).status).toBe(403);
    expect((await tenantadmin.get(`${P}/tenants/${acme}`)).status).toBe(200);
  });
});
