import { describe, expect, it } from 'vitest';
import { defaultSeed, type RunningSimulator } from '../../src/sim/index.js';
import { loginAs, P, SimClient, useTestSim, uuidOf } from './helpers.js';

let sim: RunningSimulator;
let admin: SimClient;
let group: string;
useTestSim(
  (s) => (sim = s),
  async (s) => {
    await fetch(`${s.url}/_sim/reset`, { method: 'POST' });
    admin = await loginAs(s, 'admin');
    group = await uuidOf(admin, 'groups', 'demo-group');
  },
);

type Uuid = { uuid: string };
const events = () =>
  fetch(`${sim.url}/_sim/events`).then(
    (r) => r.json() as Promise<{ events: { event: string; objectId: string; object: Record<string, unknown> }[] }>,
  );
const mails = () =>
  fetch(`${sim.url}/_sim/outbox`).then((r) => r.json() as Promise<{ mails: { to: string; template: string }[] }>);

describe('groups', () => {
  it('Doc1 §2.3/§4.2: detail carries the counts; create, update, delete', async () => {
    const detail = await admin.get(`${P}/groups/${group}`);
    expect(detail.body).toEqual({
      uuid: group,
      name: 'demo-group',
      draasDomain: 'demo.example.net',
      nbOfDistributors: 1,
      nbOfResellers: 2,
      nbOfTenants: 3,
    });
    const created = await admin.post<Uuid>(`${P}/groups`, {
      name: 'g2',
      draasDomain: 'g2.example',
      adminEmail: 'boss@g2.example',
    });
    expect(created.status).toBe(200);
    expect((await mails()).mails.some((m) => m.to === 'boss@g2.example')).toBe(true);
    expect((await admin.put(`${P}/groups/${created.body.uuid}`, { draasDomain: 'g2.example.org' })).body).toEqual({
      uuid: created.body.uuid,
    });
    expect((await admin.get(`${P}/groups/${created.body.uuid}`)).body).toMatchObject({
      draasDomain: 'g2.example.org',
      nbOfTenants: 0,
    });
    expect((await admin.delete(`${P}/groups/${created.body.uuid}`)).status).toBe(200);
    expect((await admin.get(`${P}/groups/${created.body.uuid}`)).status).toBe(404);
  });

  it('Doc1 §4.2: a group with children cannot be deleted (400); a missing group deletes with 200', async () => {
    const res = await admin.delete(`${P}/groups/${group}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'has_children' } });
    const missing = await admin.delete(`${P}/groups/00000000-0000-0000-0000-000000000000`);
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual({ uuid: '00000000-0000-0000-0000-000000000000' });
  });

  it('Doc1 §1, §4.2 "Groups (system administrators only)": a group administrator is 403 on every §4.2 endpoint', async () => {
    const groupadmin = await loginAs(sim, 'groupadmin');
    const G = `${P}/groups/${group}`;
    expect((await groupadmin.post(`${P}/groups`, { name: 'nope' })).status).toBe(403);
    expect((await groupadmin.get(`${P}/groups`)).status).toBe(403);
    expect((await groupadmin.get(G)).status).toBe(403);
    expect((await groupadmin.put(G, { name: 'renamed' })).status).toBe(403);
    expect((await groupadmin.delete(G)).status).toBe(403);
    expect((await groupadmin.post(`${G}/admins`, { adminEmail: 'x@demo.example.net' })).status).toBe(403);
    expect((await groupadmin.get(`${G}/rate_plans/uc_alpha`)).status).toBe(403);
    expect((await groupadmin.get(`${G}/configurations/general`)).status).toBe(403);
    expect((await groupadmin.get(`${G}/configurations/pages?type=font`)).status).toBe(403);
    expect((await groupadmin.put(`${G}/configurations/pages`, { type: 'font', name: 'Inter' })).status).toBe(403);
    expect((await groupadmin.get(`${G}/enabled_ucs`)).status).toBe(403);
    expect((await admin.get(G)).body).toMatchObject({ name: 'demo-group' });
    // The group's Document 2 resources and its regions (§4.5) stay open to it.
    expect((await groupadmin.get(`${G}/licenses`)).status).toBe(200);
    expect((await groupadmin.get(`${G}/regions`)).status).toBe(200);
    expect((await groupadmin.get(`${G}/products`)).status).toBe(200);
  });
});

describe('resellers and tenants', () => {
  it('Doc1 §4.3: owner is required for system administrators and defaults to the creator level otherwise', async () => {
    expect((await admin.post(`${P}/resellers`, { name: 'east' })).status).toBe(400);
    const groupadmin = await loginAs(sim, 'groupadmin');
    const east = await groupadmin.post<Uuid>(`${P}/resellers`, { name: 'east', billingId: 'R-EAST', markup: 2.5 });
    expect(east.status).toBe(200);
    const read = await admin.get(`${P}/resellers/${east.body.uuid}`);
    expect(read.body).toMatchObject({
      name: 'east',
      billingId: 'R-EAST',
      owner: { type: 'group', uuid: group, name: 'demo-group' },
      nbOfTenants: 0,
      markups: [{ markup: 2.5 }],
    });
    const reseller = await loginAs(sim, 'reselleradmin');
    const t = await reseller.post<Uuid>(`${P}/tenants`, { name: 'wayne' });
    expect((await admin.get(`${P}/tenants/${t.body.uuid}`)).body).toMatchObject({
      owner: { type: 'reseller', name: 'north' },
      numberOfSubscriptions: 0,
    });
  });

  it('Doc1 §7: a create refused 400 for its admin e-mail leaves nothing made', async () => {
    for (const [path, body] of [
      [`${P}/tenants`, { name: 'ghost', billingId: 'T-GHOST', owner: { type: 'group', uuid: group } }],
      [`${P}/groups`, { name: 'ghost-group' }],
    ] as const) {
      const refused = await admin.post(path, { ...body, adminEmail: 'not-an-email' });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: { code: 'bad_email' } });
      // The same create, with a good e-mail, is the first of its name and billingId.
      expect((await admin.post(path, { ...body, adminEmail: `ops@${body.name}.example` })).status).toBe(200);
    }
  });

  it('Doc1 §2.4: billingId is unique per group (400 on duplicate)', async () => {
    const res = await admin.post(`${P}/tenants`, {
      name: 'dup',
      billingId: 'T-ACME',
      owner: { type: 'group', uuid: group },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'duplicate_billing_id' } });
    const north = await uuidOf(admin, 'resellers', 'north');
    expect((await admin.put(`${P}/resellers/${north}`, { billingId: 'R-SOUTH' })).status).toBe(400);
  });

  it('Doc1 §4.3/§4.4: the owner cannot change (400); markups are served nearest first, list markup as a string', async () => {
    const acme = await uuidOf(admin, 'tenants', 'acme-corp');
    const south = await uuidOf(admin, 'resellers', 'south');
    const moved = await admin.put(`${P}/tenants/${acme}`, { owner: { type: 'reseller', uuid: south } });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({ error: { code: 'owner_immutable' } });
    await fetch(`${sim.url}/_sim/clock`, { method: 'POST', body: JSON.stringify({ advanceSeconds: 60 }) });
    expect((await admin.put<Uuid>(`${P}/tenants/${acme}`, { markup: 5 })).body).toEqual({ uuid: acme });
    const detail = await admin.get<{ markups: { markup: number; startDate: string }[] }>(`${P}/tenants/${acme}`);
    expect(detail.body.markups.map((m) => m.markup)).toEqual([5, 4]);
    expect(detail.body.markups[0]!.startDate > detail.body.markups[1]!.startDate).toBe(true);
    const north = await uuidOf(admin, 'resellers', 'north');
    const list = await admin.get<{ tenants: { name: string; markup?: unknown }[] }>(`${P}/tenants?parent=${north}`);
    expect(list.body.tenants.find((t) => t.name === 'acme-corp')?.markup).toBe('5');
  });

  it('Doc1 §4.3: a reseller with tenants cannot be deleted; a missing one deletes with 200', async () => {
    const north = await uuidOf(admin, 'resellers', 'north');
    expect((await admin.delete(`${P}/resellers/${north}`)).status).toBe(400);
    const acme = await uuidOf(admin, 'tenants', 'acme-corp');
    expect((await admin.delete(`${P}/tenants/${acme}`)).status).toBe(200);
    expect((await admin.delete(`${P}/tenants/${acme}`)).status).toBe(200);
    expect((await admin.delete(`${P}/resellers/${north}`)).status).toBe(200);
    expect((await admin.delete(`${P}/resellers/${north}`)).body).toEqual({ uuid: north });
    expect((await admin.get(`${P}/resellers/${north}`)).status).toBe(404);
  });

  it('Doc1 §4.3/§4.4: parent is required for system administrators on lists', async () => {
    expect((await admin.get(`${P}/resellers`)).status).toBe(400);
    expect((await admin.get(`${P}/tenants`)).status).toBe(400);
    const list = await admin.get<{ resellers: { name: string; owner: { type: string } }[] }>(
      `${P}/resellers?parent=${group}`,
    );
    expect(list.body.resellers.map((r) => r.name)).toEqual(['north', 'south']);
    const reseller = await loginAs(sim, 'reselleradmin');
    const own = await reseller.get<{ tenants: { name: string }[] }>(`${P}/tenants`);
    expect(own.body.tenants.map((t) => t.name)).toEqual(['acme-corp']);
  });

  it('Doc1 §4.3/§4.4: without parent, other levels list what is under their control; a tenant administrator lists its tenant', async () => {
    type Names = { tenants?: { name: string }[]; resellers?: { name: string }[] };
    const names = (r: { body: Names }, key: 'tenants' | 'resellers') => (r.body[key] ?? []).map((x) => x.name);
    const tenantadmin = await loginAs(sim, 'tenantadmin');
    const own = await tenantadmin.get<Names>(`${P}/tenants`);
    expect(own.status).toBe(200);
    expect(names(own, 'tenants')).toEqual(['acme-corp']);
    expect(names(await tenantadmin.get<Names>(`${P}/tenants?search=globex`), 'tenants')).toEqual([]);
    // §4.3: resellers are listed for system, group, distributor and reseller administrators.
    expect((await tenantadmin.get(`${P}/resellers`)).status).toBe(403);
    // A reseller lists only the resellers directly linked to it (north owns none).
    const reseller = await loginAs(sim, 'reselleradmin');
    const linked = await reseller.get<Names>(`${P}/resellers`);
    expect(linked.status).toBe(200);
    expect(names(linked, 'resellers')).toEqual([]);
    const groupadmin = await loginAs(sim, 'groupadmin');
    expect(names(await groupadmin.get<Names>(`${P}/tenants`), 'tenants')).toEqual(['acme-corp', 'globex', 'initech']);
    expect(names(await groupadmin.get<Names>(`${P}/resellers`), 'resellers')).toEqual(['north', 'south']);
  });

  it('Doc1 §1.5/§5.3: visibility: tenant admin sees only acme-corp; reseller admin cannot reach globex; out of scope is 403', async () => {
    const tenantadmin = await loginAs(sim, 'tenantadmin');
    const globex = await uuidOf(admin, 'tenants', 'globex');
    expect((await tenantadmin.get(`${P}/tenants/${globex}`)).status).toBe(403);
    expect((await tenantadmin.put(`${P}/tenants/${globex}`, { name: 'x' })).status).toBe(403);
    const acme = await uuidOf(admin, 'tenants', 'acme-corp');
    expect((await tenantadmin.put(`${P}/tenants/${acme}`, { markup: 9 })).status).toBe(403); // billable
    expect((await tenantadmin.put(`${P}/tenants/${acme}`, { name: 'acme' })).status).toBe(200);
    const reseller = await loginAs(sim, 'reselleradmin');
    expect((await reseller.get(`${P}/tenants/${globex}`)).status).toBe(403);
    const south = await uuidOf(admin, 'resellers', 'south');
    expect((await reseller.get(`${P}/tenants?parent=${south}`)).status).toBe(403);
    expect((await reseller.post(`${P}/tenants`, { name: 'x', owner: { type: 'reseller', uuid: south } })).status).toBe(
      403,
    );
  });

  it("Doc1 §1.5: the tenant administrator's profile grants no billable endpoint; any tenant-level caller is refused one with 403", async () => {
    const tenantadmin = await loginAs(sim, 'tenantadmin');
    const profile = await tenantadmin.get<{ profile: { api_rules: { name: string; method: string }[] } }>(
      '/api/v01/system/users/local',
    );
    const granted = new Set(profile.body.profile.api_rules.map((r) => `${r.method} ${r.name}`));
    for (const billable of [
      'post tenants.instance.subscriptions.create',
      'delete tenants.instance.subscriptions.instance.update',
      'post tenants.instance.subscriptions.entitlements.create',
      'put tenants.instance.subscriptions.entitlements.instance.update',
      'delete tenants.instance.subscriptions.entitlements.instance.delete',
      'post tenants.create',
      'delete tenants.instance.delete',
    ])
      expect(granted.has(billable), billable).toBe(false);
    for (const allowed of [
      'post tenants.instance.subscriptions.instance.uc_alpha.templates.create',
      'put tenants.instance.subscriptions.instance.update',
      'get tenants.list',
    ]) {
      expect(granted.has(allowed), allowed).toBe(true);
    }
    const acme = await uuidOf(admin, 'tenants', 'acme-corp');
    const refused = await tenantadmin.post(`${P}/tenants/${acme}/subscriptions`, { name: 'x', billingId: 'T-X' });
    expect(refused).toMatchObject({ status: 403, body: { error: { role: 'tenants.instance.subscriptions.create' } } });
    // A tenant administrator whose profile grants everything is still refused by its level.
    await fetch(`${sim.url}/_sim/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...defaultSeed(),
        users: [
          {
            username: 'wide',
            password: 'wide',
            email: 'wide@demo.example.net',
            adminOf: { level: 'tenant', name: 'acme-corp' },
            rules: 'all',
          },
        ],
      }),
    });
    const wide = await loginAs(sim, 'wide');
    const acmeAgain = await uuidOf(wide, 'tenants', 'acme-corp');
    const byLevel = await wide.post(`${P}/tenants/${acmeAgain}/subscriptions`, { name: 'x', billingId: 'T-X' });
    expect(byLevel.status).toBe(403);
    expect(byLevel.body).toMatchObject({ error: { message: expect.stringContaining('billable') } });
  });

  it('Doc1 §4.3: suspension profile PUT takes an integer or null', async () => {
    const north = await uuidOf(admin, 'resellers', 'north');
    expect((await admin.put(`${P}/resellers/${north}/suspension_profile`, { suspensionProfileId: 2 })).status).toBe(
      200,
    );
    expect((await admin.get(`${P}/resellers/${north}`)).body).toMatchObject({
      status: 'suspended',
      suspensionProfileId: 'BP-OUT',
    });
    expect((await admin.put(`${P}/resellers/${north}/suspension_profile`, { suspensionProfileId: 999 })).status).toBe(
      400,
    );
    expect((await admin.put(`${P}/resellers/${north}/suspension_profile`, {})).status).toBe(400);
    expect((await admin.put(`${P}/resellers/${north}/suspension_profile`, { suspensionProfileId: null })).status).toBe(
      200,
    );
    const after = await admin.get(`${P}/resellers/${north}`);
    expect(after.body['status']).toBeUndefined();
    expect(after.body['suspensionProfileId']).toBeUndefined();
  });

  it('Doc1 §6: create, update and delete of resellers and tenants are recorded as events', async () => {
    const r = await admin.post<Uuid>(`${P}/resellers`, { name: 'ev', owner: { type: 'group', uuid: group } });
    const t = await admin.post<Uuid>(`${P}/tenants`, { name: 'evt', owner: { type: 'reseller', uuid: r.body.uuid } });
    await admin.put(`${P}/tenants/${t.body.uuid}`, { name: 'evt2' });
    await admin.delete(`${P}/tenants/${t.body.uuid}`);
    const { events: list } = await events();
    expect(list.map((e) => e.event)).toEqual(['reseller.create', 'tenant.create', 'tenant.update', 'tenant.delete']);
    expect(list[2]?.object).toMatchObject({ name: 'evt2' });
    expect(list[3]?.objectId).toBe(t.body.uuid);
  });
});

describe('administrators', () => {
  it('Doc1 §4.2/§2.7: create answers {id} and mails; the e-mail must be new anywhere (400); no read route', async () => {
    const north = await uuidOf(admin, 'resellers', 'north');
    const created = await admin.post<{ id: number }>(`${P}/resellers/${north}/admins`, {
      adminEmail: 'ops@north.example',
      firstName: 'Ops',
    });
    expect(created.status).toBe(200);
    expect(created.body.id).toEqual(expect.any(Number));
    expect((await mails()).mails.filter((m) => m.to === 'ops@north.example')).toHaveLength(1);
    expect((await admin.post(`${P}/groups/${group}/admins`, { adminEmail: 'ops@north.example' })).status).toBe(400);
    expect((await admin.post(`${P}/groups/${group}/admins`, { adminEmail: 'admin@demo.example.net' })).status).toBe(
      400,
    );
    expect((await admin.get(`${P}/resellers/${north}/admins`)).status).toBe(405);
    expect((await admin.get(`${P}/resellers/${north}/admins/ops@north.example`)).status).toBe(405);
  });

  it('Doc1 §4.2: update requires adminEmail and force_reset; delete answers 204, and 404 for a missing account (§1.10)', async () => {
    const acme = await uuidOf(admin, 'tenants', 'acme-corp');
    await admin.post(`${P}/tenants/${acme}/admins`, { adminEmail: 'it@acme.example' });
    expect((await admin.put(`${P}/tenants/${acme}/admins/it@acme.example`, { firstName: 'Ada' })).status).toBe(400);
    const upd = await admin.put<{ id: number }>(`${P}/tenants/${acme}/admins/it@acme.example`, {
      adminEmail: 'it@acme.example',
      force_reset: false,
      lastName: 'Lovelace',
    });
    expect(upd.status).toBe(200);
    expect(
      (
        await admin.put(`${P}/tenants/${acme}/admins/it@acme.example`, {
          adminEmail: 'other@acme.example',
          force_reset: true,
        })
      ).status,
    ).toBe(400);
    const del = await admin.delete(`${P}/tenants/${acme}/admins/it@acme.example`);
    expect(del.status).toBe(204);
    // The endpoint does not say that a missing account counts as success (Doc1 §1.10): 404.
    expect((await admin.delete(`${P}/tenants/${acme}/admins/it@acme.example`)).status).toBe(404);
    // Gone: the e-mail is free again.
    expect((await admin.post(`${P}/tenants/${acme}/admins`, { adminEmail: 'it@acme.example' })).status).toBe(200);
  });

  it('Doc1 §4.3: reseller admins welcome sends a mail', async () => {
    const north = await uuidOf(admin, 'resellers', 'north');
    await admin.post(`${P}/resellers/${north}/admins`, { adminEmail: 'ops@north.example' });
    expect(
      (await admin.post(`${P}/resellers/${north}/admins/welcome`, { adminEmail: 'ops@north.example' })).status,
    ).toBe(204);
    expect((await mails()).mails.filter((m) => m.to === 'ops@north.example').map((m) => m.template)).toEqual([
      'mails.new_admin',
      'mails.welcome',
    ]);
    expect(
      (await admin.post(`${P}/resellers/${north}/admins/welcome`, { adminEmail: 'nobody@north.example' })).status,
    ).toBe(400);
  });
});
