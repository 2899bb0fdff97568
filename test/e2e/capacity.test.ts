import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, startSimulator, type RunningSimulator, type Seed } from '../../src/sim/index.js';
import { defaultRoutingSeed } from '../../src/sim/routing/index.js';
import { manifestDir, runCli, simEnv } from './cli-helpers.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

async function reset(edit: (seed: Seed) => void = () => undefined): Promise<void> {
  const seed = defaultSeed();
  edit(seed);
  const response = await fetch(`${sim.url}/_sim/reset`, { method: 'POST', body: JSON.stringify(seed) });
  expect(response.status).toBe(200);
}

async function plan(files: Record<string, string>, ...args: string[]) {
  const dir = await manifestDir(files);
  return runCli(['plan', dir, ...args], { env: simEnv(sim.url), cwd: dir });
}

async function requestsTo(pattern: RegExp): Promise<number> {
  const stats = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as { byRoute?: Record<string, number> };
  return Object.entries(stats.byRoute ?? {})
    .filter(([route]) => pattern.test(route))
    .reduce((n, [, count]) => n + count, 0);
}

const tenant = (name: string, owner: string, spec: string) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: ${name}, ${owner} }
spec:
${spec}`;

/** acme-corp/main with one BE geo entitlement (the default data set: 10, 2 assigned). */
const acmeWith = (entitlement: number, more = '') =>
  tenant(
    'acme-corp',
    'reseller: north',
    `  subscriptions:
    - name: main
      billingId: T-ACME-MAIN
      entitlements:
        - { type: BE geo, entitlement: ${entitlement} }
${more}`,
  );

describe('the update threshold (end to end)', () => {
  const twelve = (markup: number | null) =>
    Array.from({ length: 12 }, (_, i) =>
      tenant(`t${i}`, 'reseller: north', `  billingId: T-${i}\n  markup: ${markup ?? 1}\n`),
    ).join('---\n');

  it('refuses overwriting more than 30 % of a kind once 10 are live; filling empty fields does not count', async () => {
    await reset((seed) => {
      for (let i = 0; i < 12; i++)
        seed.tenants?.push({ name: `t${i}`, billingId: `T-${i}`, owner: { reseller: 'north' }, markup: 1 });
    });
    const refused = await plan({ 'tenants.yaml': twelve(2) });
    expect(refused.code).toBe(3);
    // acme-corp is live under north too: 12 of 13.
    expect(refused.stdout).toContain(
      '✗ SB_UPDATE_THRESHOLD: the plan overwrites values of 12 of 13 live Tenant objects in scope (92.3%), above --max-update-percent 30',
    );
    expect(refused.stdout).toContain('Plan: 0 to create, 12 to update');
    const allowed = await plan({ 'tenants.yaml': twelve(2) }, '--max-update-percent', '100', '--format', 'json');
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout).options).toMatchObject({ maxUpdatePercent: 100, allowPolicy: [] });

    await reset((seed) => {
      for (let i = 0; i < 12; i++) seed.tenants?.push({ name: `t${i}`, owner: { reseller: 'north' } });
    });
    const filled = await plan({ 'tenants.yaml': twelve(2) });
    expect(filled.stdout).not.toContain('SB_UPDATE_THRESHOLD');
    expect(filled.code).toBe(0);
  });

  it('catches a mass re-route of routing rows like a mass delete', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({
      number: `+3220000${String(i).padStart(3, '0')}`,
      route: 'trunk-1',
    }));
    await reset((seed) => {
      const routing = defaultRoutingSeed();
      const routes = routing.services['draas']?.['active']?.['routes'];
      if (routes) routes.rows = rows;
      seed.routing = routing;
    });
    const table = (moved: number) => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: active }
spec:
  key: [number]
  records:
${rows.map((r, i) => `    - { number: "${r.number}", route: ${i < moved ? 'trunk-2' : 'trunk-1'} }`).join('\n')}
`;
    const refused = await plan({ 'routes.yaml': table(7) });
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain(
      'SB_UPDATE_THRESHOLD: the plan overwrites values of 7 of 20 live RoutingRow objects in scope (35.0%)',
    );
    expect((await plan({ 'routes.yaml': table(6) })).code).toBe(0);
  });
});

describe('the capacity pre-flight (end to end)', () => {
  it('refuses a subscription on a UC platform its group does not enable, before anything is sent', async () => {
    await reset((seed) => {
      const group = seed.groups?.[0];
      if (group) group.enabledUcs = ['uc_alpha'];
    });
    const files = {
      'acme.yaml': tenant(
        'acme-corp',
        'reseller: north',
        '  subscriptions:\n    - { name: second, billingId: T-ACME-2, uc: uc_beta }\n',
      ),
      // globex hangs under south, a reseller of the distributor: its group is found through the licence report.
      'globex.yaml': tenant(
        'globex',
        'reseller: south',
        '  subscriptions:\n    - { name: extra, billingId: T-GLOBEX-2, uc: uc_gamma }\n',
      ),
    };
    const planned = await plan(files);
    expect(planned.code).toBe(3);
    expect(planned.stdout).toContain(
      '✗ SB_UC_NOT_ENABLED tenant/acme-corp/subscription/second: uc "uc_beta" is not one of the enabled UC platforms of group/demo-group (uc_alpha): the platform refuses a subscription on a UC platform its group does not enable (Doc 1 §4.2)',
    );
    expect(planned.stdout).toContain('✗ SB_UC_NOT_ENABLED tenant/globex/subscription/extra: uc "uc_gamma"');
    await fetch(`${sim.url}/_sim/stats`, { method: 'DELETE' });
    const dir = await manifestDir(files);
    const applied = await runCli(['apply', dir, '--yes'], { env: simEnv(sim.url), cwd: dir });
    expect(applied.code).toBe(3);
    expect(await requestsTo(/^(POST|PUT|DELETE) (?!\/api\/v01\/auth\/)/)).toBe(0); // logging in and out only
    const fine = await plan({ 'acme.yaml': files['acme.yaml'].replace('uc_beta', 'uc_alpha') });
    expect(fine.code).toBe(0);
  });

  it('lists declared, assigned and reserved per touched subscription, warns under 10 % headroom, keeps the refusal below assigned', async () => {
    await reset((seed) => {
      const main = seed.tenants?.find((t) => t.name === 'acme-corp')?.subscriptions?.[0];
      if (main) main.entitlements = [{ type: 'BE geo', entitlement: 10, assigned: 19, reserved: 3 }];
    });
    const low = await plan({ 'acme.yaml': acmeWith(20) });
    expect(low.code).toBe(0);
    expect(low.stdout).toContain(
      [
        'Capacity (what the plan leaves, against what the platform reports):',
        '  tenant/acme-corp/subscription/main',
        '      entitlement BE geo               declared 20  assigned 19  reserved 3            headroom 1  ! headroom 1 of 20 (5%), under 10%',
        '      licence sipTrunkChannelNational               assigned 10',
        '      licence ucAlphaUsers                          assigned 50              in use 2  headroom 48',
      ].join('\n'),
    );
    expect(low.stdout).toContain(
      '! SB_CAPACITY_LOW tenant/acme-corp/subscription/main/entitlement/BE geo: entitlement BE geo: headroom 1 of 20 (5%), under 10%',
    );
    const json = JSON.parse((await plan({ 'acme.yaml': acmeWith(20) }, '--format', 'json')).stdout);
    expect(json.capacity.rows[0]).toEqual({
      address: 'tenant/acme-corp/subscription/main/entitlement/BE geo',
      scope: 'tenant/acme-corp/subscription/main',
      subject: 'entitlement BE geo',
      declared: 20,
      assigned: 19,
      reserved: 3,
      headroom: 1,
      warning: 'headroom 1 of 20 (5%), under 10%',
    });
    expect(json.capacity.rows[2]).toEqual({
      address: 'tenant/acme-corp/subscription/main',
      subject: 'licence ucAlphaUsers',
      declared: null,
      assigned: 50,
      reserved: 0,
      inUse: 2,
      headroom: 48,
    });
    const markdown = await plan({ 'acme.yaml': acmeWith(20) }, '--format', 'markdown');
    expect(markdown.stdout).toContain('#### Capacity');
    expect(markdown.stdout).toContain(
      '| <code>tenant/acme-corp/subscription/main</code> | entitlement BE geo | 20 | 19 | 3 |  | ⚠️ 1 (headroom 1 of 20 (5%), under 10%) |',
    );

    const below = await plan({ 'acme.yaml': acmeWith(18) });
    expect(below.code).toBe(3);
    expect(below.stdout).toContain(
      '✗ SB_CONSTRAINT tenant/acme-corp/subscription/main/entitlement/BE geo: entitlement 18 is below the 19 numbers already assigned',
    );
    expect(below.stdout).toMatch(
      /entitlement BE geo +declared 18 +assigned 19 +reserved 3 +headroom -1 +! headroom -1 of 18/,
    );

    const rule = `apiVersion: switchboard/v1
kind: Policy
metadata: { name: capacity }
spec:
  rules:
    - id: room
      match: { kind: Entitlement }
      limit: { field: headroom, min: 5 }
`;
    const limited = await plan({ 'acme.yaml': acmeWith(20), 'policy.yaml': rule });
    expect(limited.code).toBe(3);
    expect(limited.stdout).toContain(
      '✗ SB_POLICY tenant/acme-corp/subscription/main/entitlement/BE geo: entitlement BE geo: headroom is 1, below the minimum 5 (rule room, at acme.yaml:9:11)',
    );
  });

  it('reads only what the plan touches: nothing for a plan with no change below a subscription', async () => {
    await reset();
    await fetch(`${sim.url}/_sim/stats`, { method: 'DELETE' });
    const untouched = await plan({
      'acme.yaml': tenant(
        'acme-corp',
        'reseller: north',
        '  markup: 5\n  subscriptions:\n    - { name: main, billingId: T-ACME-MAIN }\n',
      ),
    });
    expect(untouched.code).toBe(0);
    expect(untouched.stdout).not.toContain('Capacity');
    expect(await requestsTo(/enabled_ucs|licenses|entitlements/)).toBe(0);
  });
});
