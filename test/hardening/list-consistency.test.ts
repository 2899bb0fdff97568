/**
 * Lists that change while they are read (Document 1 §1.8 `results`, Document 3 §4.2
 * `num_results`): another operator deletes an object on page 1 while page 2 is fetched, so
 * an item slides onto page 1 unseen. The plan must not propose creating an object that
 * exists: the list is read again, and when it never settles the plan fails naming the list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { adminApi, manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';
import { startHookProxy, type HookProxy, type ProxiedRequest } from './support/hook-proxy.js';

const P = '/api/v01/draas/demo';
const TENANTS = 150; // the simulator caps a page at 100 items: two pages
const ROWS = 150;
const name = (i: number) => `lst-t${String(i).padStart(3, '0')}`;
const number = (i: number) => `+3227${String(i).padStart(6, '0')}`;
const ROUTING_AUTH = `Basic ${Buffer.from('routing:routing').toString('base64')}`;

let sim: RunningSimulator;
let api: Awaited<ReturnType<typeof adminApi>>;
let north: string;
let proxy: HookProxy | undefined;
/** What the proxy does before forwarding a request (set per test). */
let beforeForward: (request: ProxiedRequest) => Promise<void> = async () => undefined;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  api = await adminApi(sim.url);
  const group = (await api('GET', `${P}/groups`)).body.groups[0].uuid as string;
  north = (await api('GET', `${P}/resellers?parent=${group}`)).body.resellers.find(
    (r: { name: string }) => r.name === 'north',
  ).uuid;
  for (let i = 0; i < TENANTS; i++) {
    const created = await api('POST', `${P}/tenants`, {
      name: name(i),
      owner: { type: 'reseller', uuid: north },
      billingId: `T-LST-${i}`,
      markup: 1,
    });
    expect(created.status).toBe(200);
  }
  const rows = Array.from({ length: ROWS }, (_, i) => ({ number: number(i), route: 'trunk-1', priority: 1 }));
  const bulk = await fetch(`${sim.url}/draas/standby/routes/_bulk`, {
    method: 'POST',
    headers: { authorization: ROUTING_AUTH, 'content-type': 'application/json' },
    body: JSON.stringify(rows),
  });
  expect(bulk.status).toBeLessThan(300);
  proxy = await startHookProxy(sim.url, async (request) => {
    await beforeForward(request);
    return undefined;
  });
});
afterAll(async () => {
  await proxy?.close();
  await sim.close();
});

const tenantsManifest = () =>
  Array.from(
    { length: TENANTS },
    (_, i) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: ${name(i)}, reseller: north }
spec: { billingId: T-LST-${i}, markup: 1 }
`,
  ).join('---\n');

async function deleteTenant(tenantName: string): Promise<void> {
  const listed = await api('GET', `${P}/tenants?parent=${north}&search=${tenantName}`);
  const uuid = listed.body.tenants.find((t: { name: string }) => t.name === tenantName)?.uuid as string | undefined;
  if (uuid) expect((await api('DELETE', `${P}/tenants/${uuid}`)).status).toBeLessThan(300);
}

const secondTenantPage = (r: ProxiedRequest) => r.method === 'GET' && r.path === `${P}/tenants` && r.query.has('next');

/**
 * Plans `files` while `change` runs once, before the first request `isPage` matches (another
 * operator acting between two pages); returns the planned changes as `action address`.
 */
async function planAcrossOneChange(
  files: Record<string, string>,
  isPage: (r: ProxiedRequest) => boolean,
  change: () => Promise<void>,
): Promise<{ changes: string[]; stderr: string }> {
  const dir = await manifestDir(files);
  let changed = false;
  beforeForward = async (request) => {
    if (!changed && isPage(request)) {
      changed = true;
      await change();
    }
  };
  const result = await runCli(['plan', dir, '--format', 'json'], { env: simEnv(proxy!.url) });
  beforeForward = async () => undefined;
  expect(changed).toBe(true);
  expect(result.code, result.stderr).toBe(0);
  const plan = JSON.parse(result.stdout) as { changes: { address: string; action: string }[] };
  return { changes: plan.changes.map((c) => `${c.action} ${c.address}`), stderr: result.stderr };
}

/** Plans `files` while `change` runs before every request `isPage` matches: it never settles. */
async function planAcrossEndlessChanges(
  files: Record<string, string>,
  isPage: (r: ProxiedRequest) => boolean,
  change: () => Promise<void>,
): Promise<string> {
  const dir = await manifestDir(files);
  beforeForward = async (request) => {
    if (isPage(request)) await change();
  };
  const result = await runCli(['plan', dir], { env: simEnv(proxy!.url) });
  beforeForward = async () => undefined;
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  return result.stderr;
}

describe('a platform list that changes between its pages (token style, Document 1 §1.8)', () => {
  it('is read again: the plan creates only the tenant really deleted, not the one that slid onto page 1', async () => {
    // name(0) is on page 1: deleting it slides the 101st tenant onto page 1.
    const { changes, stderr } = await planAcrossOneChange({ 'tenants.yaml': tenantsManifest() }, secondTenantPage, () =>
      deleteTenant(name(0)),
    );
    expect(changes).toEqual([`create tenant/${name(0)}`]);
    expect(stderr).toContain('list changed while it was read; reading it again');
  });

  it('that never settles fails the plan (exit 1) with an error naming the list', async () => {
    let next = 1;
    const stderr = await planAcrossEndlessChanges({ 'tenants.yaml': tenantsManifest() }, secondTenantPage, () =>
      deleteTenant(name(next++)),
    );
    expect(stderr).toContain(`GET ${P}/tenants`);
    expect(stderr).toMatch(
      /the list "tenants" changed while it was read \(results was \d+, then \d+\), 3 reads in a row/,
    );
  });
});

describe('a platform list that changes between its pages (page style, Document 1 §1.8)', () => {
  const SUBSCRIPTIONS = 150;
  const sub = (i: number) => `s${String(i).padStart(3, '0')}`;
  let tenant = '';
  beforeAll(async () => {
    const created = await api('POST', `${P}/tenants`, {
      name: 'lst-subs',
      owner: { type: 'reseller', uuid: north },
      billingId: 'T-LST-SUBS',
      markup: 1,
    });
    tenant = created.body.uuid as string;
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      expect(
        (
          await api('POST', `${P}/tenants/${tenant}/subscriptions`, {
            name: sub(i),
            billingId: `T-LST-SUBS-${i}`,
            uc: 'uc_alpha',
          })
        ).status,
      ).toBeLessThan(300);
    }
  });
  const manifest = () => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: lst-subs, reseller: north }
spec:
  billingId: T-LST-SUBS
  markup: 1
  subscriptions:
${Array.from({ length: SUBSCRIPTIONS }, (_, i) => `    - { name: ${sub(i)}, billingId: T-LST-SUBS-${i}, uc: uc_alpha }`).join('\n')}
`;
  const secondPage = (r: ProxiedRequest) =>
    r.method === 'GET' && r.path === `${P}/tenants/${tenant}/subscriptions` && r.query.get('page') === '2';
  async function deleteSubscription(subscription: string): Promise<void> {
    const page = await api('GET', `${P}/tenants/${tenant}/subscriptions?page_size=100&search=${subscription}`);
    const id = page.body.subscriptions.find((s: { name: string }) => s.name === subscription)?.id as number | undefined;
    if (id !== undefined)
      expect((await api('DELETE', `${P}/tenants/${tenant}/subscriptions/${id}`)).status).toBeLessThan(300);
  }

  it('is read again: the plan creates only the subscription really deleted', async () => {
    const { changes } = await planAcrossOneChange({ 'subs.yaml': manifest() }, secondPage, () =>
      deleteSubscription(sub(0)),
    );
    expect(changes).toEqual([`create tenant/lst-subs/subscription/${sub(0)}`]);
  });

  it('that never settles fails the plan (exit 1) with an error naming the list', async () => {
    let next = 1;
    const stderr = await planAcrossEndlessChanges({ 'subs.yaml': manifest() }, secondPage, () =>
      deleteSubscription(sub(next++)),
    );
    expect(stderr).toContain(
      `GET ${P}/tenants/${tenant}/subscriptions → 200: the list "subscriptions" changed while it was read`,
    );
  });
});

describe('a routing table that changes between its pages (Document 3 §4.2 num_results)', () => {
  const tableManifest = () => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby }
spec:
  key: [number]
  fields: { priority: integer }
  records:
${Array.from({ length: ROWS }, (_, i) => `    - { number: "${number(i)}", route: trunk-1, priority: 1 }`).join('\n')}
`;
  const secondRoutingPage = (r: ProxiedRequest) =>
    r.method === 'GET' && r.path === '/draas/standby/routes' && r.query.get('page') === '2';
  async function deleteFirstRow(): Promise<void> {
    const page = (await (
      await fetch(`${sim.url}/draas/standby/routes?results_per_page=1`, { headers: { authorization: ROUTING_AUTH } })
    ).json()) as { objects: { id: number }[] };
    const id = page.objects[0]?.id;
    if (id !== undefined)
      await fetch(`${sim.url}/draas/standby/routes/${id}`, {
        method: 'DELETE',
        headers: { authorization: ROUTING_AUTH },
      });
  }

  it('is read again: the plan creates only the row really deleted', async () => {
    // number(0) is on page 1: deleting it slides the 101st row onto it.
    const { changes } = await planAcrossOneChange(
      { 'routes.yaml': tableManifest() },
      secondRoutingPage,
      deleteFirstRow,
    );
    expect(changes).toEqual([`create routing/draas/standby/routes/number=${number(0)}`]);
  });

  it('that never settles fails the plan (exit 1) with an error naming the table', async () => {
    const stderr = await planAcrossEndlessChanges(
      { 'routes.yaml': tableManifest() },
      secondRoutingPage,
      deleteFirstRow,
    );
    expect(stderr).toMatch(
      /GET \/draas\/standby\/routes → 200: the table changed while it was read \(num_results was \d+, then \d+\), 3 reads in a row/,
    );
  });
});
