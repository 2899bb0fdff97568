/**
 * Lists that shift while they are read and keep their count (Document 1 §1.8 `results`,
 * Document 3 §4.1 `num_results`): another writer deletes an object on page 1 and creates
 * another between two page reads. The count stays, every check of the read passes, and an
 * object slides from page 2 onto page 1 unseen. No create may rest on such a read, whatever
 * the list (token or page style, platform or routing engine) and whichever reads shift: the
 * plan reads the list again and plans from what is there, or fails naming the list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { adminApi, manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';
import { startHookProxy, type HookProxy, type ProxiedRequest } from './support/hook-proxy.js';

const P = '/api/v01/draas/demo';
const DECLARED = 149; // with one undeclared object first: 150, two pages at the simulator's cap of 100
const EXTRAS = 12; // undeclared objects the writer deletes, each listed before every declared one
const tenantName = (i: number) => `lsx-t${String(i).padStart(3, '0')}`;
const ROUTING_AUTH = `Basic ${Buffer.from('routing:routing').toString('base64')}`;

let sim: RunningSimulator;
let api: Awaited<ReturnType<typeof adminApi>>;
let group = '';
let north = '';
let proxy: HookProxy | undefined;
let beforeForward: (request: ProxiedRequest) => Promise<void> = async () => undefined;
let created = 0;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  api = await adminApi(sim.url);
  group = (await api('GET', `${P}/groups`)).body.groups[0].uuid as string;
  north = (await api('GET', `${P}/resellers?parent=${group}`)).body.resellers.find(
    (r: { name: string }) => r.name === 'north',
  ).uuid;
  // Tenants are listed by name: the extras (`lsx-a…`) come before every declared one (`lsx-t…`),
  // and what the writer creates (`lsx-z…`) after them.
  const names = [
    ...Array.from({ length: EXTRAS }, (_, i) => `lsx-a-extra${String(i).padStart(2, '0')}`),
    ...Array.from({ length: DECLARED }, (_, i) => tenantName(i)),
  ];
  for (const [i, name] of names.entries()) {
    const answer = await api('POST', `${P}/tenants`, {
      name,
      owner: { type: 'reseller', uuid: north },
      billingId: `T-LSX-${i}`,
      markup: 1,
    });
    expect(answer.status).toBe(200);
  }
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
    { length: DECLARED },
    (_, i) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: ${tenantName(i)}, reseller: north }
spec: { billingId: T-LSX-${i + EXTRAS}, markup: 1 }
`,
  ).join('---\n');

/** Another writer: deletes the first undeclared tenant left and creates a new one, so every count stays. */
async function swapTenant(): Promise<void> {
  const listed = await api('GET', `${P}/tenants?parent=${north}&search=lsx-a-extra&page_size=100`);
  const victim = (listed.body.tenants as { name: string; uuid: string }[])
    .filter((t) => t.name.startsWith('lsx-a-extra'))
    .sort((a, b) => a.name.localeCompare(b.name))[0];
  expect(victim, 'the writer has an undeclared tenant left to delete').toBeDefined();
  expect((await api('DELETE', `${P}/tenants/${victim!.uuid}`)).status).toBeLessThan(300);
  const made = await api('POST', `${P}/tenants`, {
    name: `lsx-z-new${created}`,
    owner: { type: 'reseller', uuid: north },
    billingId: `T-LSX-NEW-${created++}`,
    markup: 1,
  });
  expect(made.status).toBe(200);
}

/** A later page of the tenants listed under `parent` (token style: `next`). */
const laterTenantPage = (parent: () => string) => (r: ProxiedRequest) =>
  r.method === 'GET' && r.path === `${P}/tenants` && r.query.has('next') && r.query.get('parent') === parent();

/**
 * Plans `files` through the proxy while the writer acts before the first request each
 * `trigger` matches (each at most `times` times); returns the JSON plan or the failure.
 */
async function planWhileWriting(
  files: Record<string, string>,
  triggers: { matches: (r: ProxiedRequest) => boolean; times: number }[],
  write: () => Promise<void>,
): Promise<{ code: number; stdout: string; stderr: string; fired: number }> {
  const dir = await manifestDir(files);
  const left = triggers.map((t) => t.times);
  let fired = 0;
  beforeForward = async (request) => {
    const i = triggers.findIndex((t, k) => (left[k] as number) > 0 && t.matches(request));
    if (i < 0) return;
    left[i] = (left[i] as number) - 1;
    fired++;
    await write();
  };
  const result = await runCli(['plan', dir, '--format', 'json'], { env: simEnv(proxy!.url) });
  beforeForward = async () => undefined;
  return { ...result, fired };
}

function plannedChanges(stdout: string): { changes: string[]; errors: string[] } {
  const plan = JSON.parse(stdout) as {
    changes: { address: string; action: string }[];
    errors?: { code: string; message: string }[];
  };
  return {
    changes: plan.changes.map((c) => `${c.action} ${c.address}`),
    errors: (plan.errors ?? []).map((e) => `${e.code}: ${e.message}`),
  };
}

describe('tenants listed by token (Document 1 §1.8), count kept between two pages', () => {
  it('the reseller’s list shifts: the tenant that slid is found, not refused as moved to its own reseller', async () => {
    const run = await planWhileWriting(
      { 'tenants.yaml': tenantsManifest() },
      [{ matches: laterTenantPage(() => north), times: 1 }],
      swapTenant,
    );
    expect(run.fired).toBe(1);
    expect(run.code, run.stderr).toBe(0);
    const { changes, errors } = plannedChanges(run.stdout);
    expect(errors).toEqual([]);
    expect(changes).toEqual([]);
    // Before: SB_OWNER_CHANGE "declared under reseller/north, but the live tenant … is under reseller/north".
    expect(run.stdout + run.stderr).not.toContain('SB_OWNER_CHANGE');
  });

  it('both the reseller’s and the group’s list shift: nothing is created twice', async () => {
    const run = await planWhileWriting(
      { 'tenants.yaml': tenantsManifest() },
      [
        { matches: laterTenantPage(() => north), times: 1 },
        { matches: laterTenantPage(() => group), times: 1 },
      ],
      swapTenant,
    );
    expect(run.fired).toBeGreaterThanOrEqual(1);
    expect(run.code, run.stderr).toBe(0);
    const { changes, errors } = plannedChanges(run.stdout);
    expect(errors).toEqual([]);
    expect(changes.filter((c) => c.startsWith('create'))).toEqual([]);
  });

  it('a writer that shifts every read: the plan fails naming the list (exit 1), and creates nothing', async () => {
    const run = await planWhileWriting(
      { 'tenants.yaml': tenantsManifest() },
      [{ matches: laterTenantPage(() => north), times: 6 }],
      swapTenant,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`GET ${P}/tenants`);
    expect(run.stderr).toMatch(/the list "tenants" changed while it was read \(a second read found other objects/);
  });
});

describe('subscriptions listed by page (Document 2 §4.1), count kept between two pages', () => {
  const SUBS = 149;
  const sub = (i: number) => `s${String(i).padStart(3, '0')}`;
  let tenant = '';
  let made = 0;
  beforeAll(async () => {
    tenant = (
      await api('POST', `${P}/tenants`, {
        name: 'lsx-subs',
        owner: { type: 'reseller', uuid: north },
        billingId: 'T-LSX-SUBS',
        markup: 1,
      })
    ).body.uuid as string;
    // Listed by id: the extras, created first, come before every declared subscription.
    const names = [
      ...Array.from({ length: 4 }, (_, i) => `a-extra${i}`),
      ...Array.from({ length: SUBS }, (_, i) => sub(i)),
    ];
    for (const name of names) {
      const answer = await api('POST', `${P}/tenants/${tenant}/subscriptions`, {
        name,
        billingId: `T-LSX-SUBS-${name}`,
        uc: 'uc_alpha',
      });
      expect(answer.status).toBeLessThan(300);
    }
  });
  const manifest = () => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: lsx-subs, reseller: north }
spec:
  billingId: T-LSX-SUBS
  markup: 1
  subscriptions:
${Array.from({ length: SUBS }, (_, i) => `    - { name: ${sub(i)}, billingId: T-LSX-SUBS-${sub(i)}, uc: uc_alpha }`).join('\n')}
`;
  async function swapSubscription(): Promise<void> {
    const page = await api('GET', `${P}/tenants/${tenant}/subscriptions?page_size=100&search=a-extra`);
    const victim = (page.body.subscriptions as { name: string; id: number }[]).find((s) =>
      s.name.startsWith('a-extra'),
    );
    expect(victim).toBeDefined();
    expect((await api('DELETE', `${P}/tenants/${tenant}/subscriptions/${victim!.id}`)).status).toBeLessThan(300);
    const answer = await api('POST', `${P}/tenants/${tenant}/subscriptions`, {
      name: `z-new${made}`,
      billingId: `T-LSX-SUBS-NEW-${made++}`,
      uc: 'uc_alpha',
    });
    expect(answer.status).toBeLessThan(300);
  }

  it('the subscription that slid onto page 1 is not created again', async () => {
    const run = await planWhileWriting(
      { 'subs.yaml': manifest() },
      [
        {
          matches: (r) =>
            r.method === 'GET' && r.path === `${P}/tenants/${tenant}/subscriptions` && r.query.get('page') === '2',
          times: 1,
        },
      ],
      swapSubscription,
    );
    expect(run.fired).toBe(1);
    expect(run.code, run.stderr).toBe(0);
    expect(plannedChanges(run.stdout).changes).toEqual([]);
  });
});

describe('a routing table (Document 3 §4.1), count kept between two pages', () => {
  const ROWS = 149;
  const number = (i: number) => `+3228${String(i).padStart(6, '0')}`;
  let made = 0;
  beforeAll(async () => {
    // Listed by ascending id: the extras, created first, come before every declared row.
    const rows = [
      ...Array.from({ length: 4 }, (_, i) => ({ number: `+3200000000${i}`, route: 'extra', priority: 1 })),
      ...Array.from({ length: ROWS }, (_, i) => ({ number: number(i), route: 'trunk-1', priority: 1 })),
    ];
    const bulk = await fetch(`${sim.url}/draas/standby/routes/_bulk`, {
      method: 'POST',
      headers: { authorization: ROUTING_AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(rows),
    });
    expect(bulk.status).toBeLessThan(300);
  });
  const manifest = () => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby }
spec:
  key: [number]
  fields: { number: string, route: string, priority: integer }
  records:
${Array.from({ length: ROWS }, (_, i) => `    - { number: "${number(i)}", route: trunk-1, priority: 1 }`).join('\n')}
`;
  async function swapRow(): Promise<void> {
    const q = encodeURIComponent(JSON.stringify({ filters: [{ name: 'route', op: '==', val: 'extra' }] }));
    const page = (await (
      await fetch(`${sim.url}/draas/standby/routes?q=${q}`, { headers: { authorization: ROUTING_AUTH } })
    ).json()) as { objects: { id: number }[] };
    const victim = page.objects[0];
    expect(victim).toBeDefined();
    await fetch(`${sim.url}/draas/standby/routes/${victim!.id}`, {
      method: 'DELETE',
      headers: { authorization: ROUTING_AUTH },
    });
    const answer = await fetch(`${sim.url}/draas/standby/routes`, {
      method: 'POST',
      headers: { authorization: ROUTING_AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ number: `+3299999999${made++}`, route: 'new', priority: 1 }),
    });
    expect(answer.status).toBe(201);
  }
  const laterPage = (r: ProxiedRequest) =>
    r.method === 'GET' && r.path === '/draas/standby/routes' && r.query.get('page') === '2' && !r.query.has('q');

  it('the row that slid onto page 1 is not created again', async () => {
    const run = await planWhileWriting({ 'routes.yaml': manifest() }, [{ matches: laterPage, times: 1 }], swapRow);
    expect(run.fired).toBe(1);
    expect(run.code, run.stderr).toBe(0);
    expect(plannedChanges(run.stdout).changes.filter((c) => c.startsWith('create'))).toEqual([]);
    expect(run.stderr).toContain('routing table shifted while it was read');
  });

  it('a writer that shifts every read: the plan fails naming the table (exit 1)', async () => {
    const run = await planWhileWriting({ 'routes.yaml': manifest() }, [{ matches: laterPage, times: 3 }], swapRow);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /GET \/draas\/standby\/routes → 200: the table changed while it was read \(1 row\(s\) the plan would create exist/,
    );
  });
});
