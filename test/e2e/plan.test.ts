import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, adminApi, manifestDir, runCli, simEnv } from './cli-helpers.js';

const P = '/api/v01/draas/demo';

/** acme-corp as the default data set has it, managed by a manifest (docs/manifests.md). */
const acme = (extra = '', metadata = '') => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: acme-corp, reseller: north${metadata} }
spec:
  billingId: T-ACME
  markup: 4
${extra}`;

let sim: RunningSimulator;
let api: Awaited<ReturnType<typeof adminApi>>;
let acmeUuid: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  api = await adminApi(sim.url);
  const groups = await api('GET', `${P}/groups`);
  const group = groups.body.groups[0].uuid as string;
  const resellers = await api('GET', `${P}/resellers?parent=${group}`);
  const north = resellers.body.resellers.find((r: { name: string }) => r.name === 'north').uuid as string;
  const tenants = await api('GET', `${P}/tenants?parent=${north}`);
  acmeUuid = tenants.body.tenants.find((t: { name: string }) => t.name === 'acme-corp').uuid;
});

afterAll(async () => {
  await sim.close();
});

describe('switchboard plan (end to end, real CLI over loopback HTTP)', () => {
  it('plans examples/ on a fresh embedded simulator: the expected creates, exit 2 with --detailed-exitcode', async () => {
    const result = await runCli(['plan', EXAMPLES, '--sim', '--detailed-exitcode']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    for (const address of [
      '+ tenant/hooli-be (Tenant)',
      '+ tenant/hooli-be/subscription/hq (Subscription)',
      '+ group/demo-group/block_list/premium-numbers (GroupCallingPlan)',
      '+ tenant/acme-corp/subscription/main/trunkgroup/7/block_list/no-premium (TrunkGroupBlockList)',
      '~ tenant/acme-corp (Tenant',
    ]) {
      expect(result.stdout).toContain(address);
    }
    expect(result.stdout).toMatch(/Plan: \d+ to create, \d+ to update, 0 to replace, 0 to delete\./);
  });

  it('shows no changes for a manifest that matches live state, then exactly a drift made behind its back', async () => {
    const dir = await manifestDir({ 'acme.yaml': acme() });
    const clean = await runCli(['plan', dir, '--detailed-exitcode'], { env: simEnv(sim.url) });
    expect(clean.stdout).toContain('No changes.');
    expect(clean.code).toBe(0);

    expect((await api('PUT', `${P}/tenants/${acmeUuid}`, { markup: 7.5 })).status).toBe(200);
    const drift = await runCli(['plan', dir, '--detailed-exitcode', '--format', 'json'], { env: simEnv(sim.url) });
    expect(drift.code).toBe(2);
    const plan = JSON.parse(drift.stdout);
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).toMatchObject({
      address: 'tenant/acme-corp',
      action: 'update',
      before: { markup: 7.5 },
      after: { markup: 4 },
      patch: [{ op: 'replace', path: '/markup', value: 4 }],
      requests: [{ method: 'PUT', path: `${P}/tenants/${acmeUuid}` }],
    });
    await api('PUT', `${P}/tenants/${acmeUuid}`, { markup: 4 });
  });

  it('a manifest that prunes shows the deletes with reasons; beyond the threshold the plan is refused (exit 3)', async () => {
    const codes = await api('GET', `${P}/public/postal_codes?code=1000`);
    const postalCodeId = codes.body.postalCodes[0].id as number;
    const subs = await api('GET', `${P}/tenants/${acmeUuid}/subscriptions`);
    const main = subs.body.subscriptions.find((s: { name: string }) => s.name === 'main').id as number;
    for (const street of ['Rue A', 'Rue B', 'Rue C', 'Rue D', 'Rue E']) {
      const created = await api('POST', `${P}/tenants/${acmeUuid}/subscriptions/${main}/locations`, {
        street,
        number: '1',
        postalCodeId,
      });
      expect(created.status).toBe(200);
    }
    const keepFour = (streets: string[]) =>
      acme(
        `  subscriptions:\n    - name: main\n      billingId: T-ACME-MAIN\n      locations:\n${streets.map((s) => `        - { street: ${s}, number: "1", postalCode: "1000" }`).join('\n')}\n`,
        ', prune: true',
      );

    const small = await runCli(
      ['plan', await manifestDir({ 'acme.yaml': keepFour(['Rue A', 'Rue B', 'Rue C', 'Rue D']) }), '--format', 'json'],
      { env: simEnv(sim.url) },
    );
    const plan = JSON.parse(small.stdout);
    expect(plan.changes.map((c: { action: string; address: string }) => `${c.action} ${c.address}`)).toEqual([
      'delete tenant/acme-corp/subscription/main/location/Rue E 1 1000',
    ]);
    expect(plan.changes[0].reason).toMatch(/not declared in tenant\/acme-corp\/subscription\/main/);
    expect(small.code).toBe(0);

    const all = await runCli(
      ['plan', await manifestDir({ 'acme.yaml': keepFour([]).replace('locations:\n', 'locations: []\n') })],
      { env: simEnv(sim.url) },
    );
    expect(all.code).toBe(3);
    expect(all.stdout).toContain('SB_DELETE_THRESHOLD');
    const allowed = await runCli(
      [
        'plan',
        await manifestDir({ 'acme.yaml': keepFour([]).replace('locations:\n', 'locations: []\n') }),
        '--max-delete-percent',
        '100',
      ],
      { env: simEnv(sim.url) },
    );
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 5 to delete.');
  });

  it("a read-only user's plan reports the missing roles and exits 3 (docs/plans.md)", async () => {
    const dir = await manifestDir({
      'acme.yaml': acme(`  admins:\n    - { email: new-admin@acme.example, firstName: Ada }\n`).replace(
        'markup: 4',
        'markup: 9',
      ),
    });
    const result = await runCli(['plan', dir], { env: simEnv(sim.url, 'reader') });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('role tenants.instance.update');
    expect(result.stdout).toContain('role tenants.instance.admins.create');
  });

  it('reports manifest errors with file:line:col and sends nothing (exit 1)', async () => {
    const dir = await manifestDir({ 'bad.yaml': acme().replace('markup: 4', 'markupp: 4') });
    const before = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as { total?: number };
    const result = await runCli(['plan', dir], { env: simEnv(sim.url) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/bad\.yaml:\d+:\d+: error/);
    const after = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as { total?: number };
    expect(after).toEqual(before);
  });
});
