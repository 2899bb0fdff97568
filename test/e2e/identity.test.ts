import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, adminApi, manifestDir, runCli, simEnv } from './cli-helpers.js';

/**
 * Identity against the simulator, through the real CLI: a tenant's or reseller's owner
 * cannot change (Document 1 §4.3, §4.4), the API renames tenants, resellers, subscriptions
 * and calling plans on the same id (§4.3, §4.4; Document 2 §4.1, §4.9, §4.10), a document
 * may be pinned to a live object by uuid, and what the API gives every subscription and
 * never deletes is not counted as unmanaged.
 */
const P = '/api/v01/draas/demo';
let sim: RunningSimulator;
let api: Awaited<ReturnType<typeof adminApi>>;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
  api = await adminApi(sim.url);
});

/** The requests that change something since the last call, as `METHOD route` → count. */
async function writesSince(): Promise<Record<string, number>> {
  const stats = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as {
    routes: { method: string; route: string; count: number }[];
  };
  await fetch(`${sim.url}/_sim/stats`, { method: 'DELETE' });
  const writes: Record<string, number> = {};
  for (const r of stats.routes)
    if (r.method !== 'GET' && !r.route.startsWith('/api/v01/auth/')) writes[`${r.method} ${r.route}`] = r.count;
  return writes;
}

async function uuidOf(list: 'tenants' | 'resellers', name: string, parent: string): Promise<string> {
  const answer = await api('GET', `${P}/${list}?parent=${parent}&page_size=100`);
  const found = (answer.body[list] as { uuid: string; name: string }[]).find((o) => o.name === name);
  if (!found) throw new Error(`no ${list} ${name}`);
  return found.uuid;
}

async function groupUuid(): Promise<string> {
  const answer = await api('GET', `${P}/groups`);
  return (answer.body.groups as { uuid: string }[])[0]!.uuid;
}

const acme = (
  metadata: string,
  subscription = '    - name: main\n      billingId: T-ACME-MAIN\n',
) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { ${metadata} }
spec:
  billingId: T-ACME
  subscriptions:
${subscription}`;

describe('owner changes (Document 1 §4.3, §4.4)', () => {
  it('a tenant moved to another reseller in its manifest is refused with exit 3, naming both owners; nothing is sent', async () => {
    const cwd = await manifestDir({ 'acme.yaml': acme('name: acme-corp, reseller: south') });
    await writesSince();
    const planned = await runCli(['plan', cwd], { env: simEnv(sim.url), cwd });
    expect(planned.code).toBe(3);
    expect(planned.stdout).toContain('Refused: this plan will not be applied.');
    expect(planned.stdout).toMatch(
      /SB_OWNER_CHANGE tenant\/acme-corp: declared under reseller\/south, but the live tenant \(id [0-9a-f-]+\) is under reseller\/north/,
    );
    expect(planned.stdout).toContain('the API cannot move it to another owner (Document 1 §4.4');
    expect(planned.stdout).toContain('keep its owner (metadata.reseller: north)');
    const markdown = await runCli(['plan', cwd, '--format', 'markdown'], { env: simEnv(sim.url), cwd });
    expect(markdown.code).toBe(3);
    expect(markdown.stdout).toContain('<code>SB_OWNER_CHANGE</code> <code>tenant/acme-corp</code>');
    const json = await runCli(['plan', cwd, '--format', 'json'], { env: simEnv(sim.url), cwd });
    expect(json.code).toBe(3);
    expect((JSON.parse(json.stdout) as { errors: unknown[] }).errors).toEqual([
      { code: 'SB_OWNER_CHANGE', message: expect.stringContaining('reseller/north'), address: 'tenant/acme-corp' },
    ]);
    const applied = await runCli(['apply', cwd, '--yes'], { env: simEnv(sim.url), cwd });
    expect(applied.code).toBe(3);
    expect(applied.stdout).toContain('Apply refused: the plan has errors (above). Nothing was changed.');
    expect(await writesSince()).toEqual({});
    // Still where it was, and not created a second time under south.
    const group = await groupUuid();
    const tenants = (await api('GET', `${P}/tenants?parent=${group}&page_size=100`)).body.tenants as {
      name: string;
      owner: { name: string };
    }[];
    expect(tenants.filter((t) => t.name === 'acme-corp').map((t) => t.owner.name)).toEqual(['north']);
  }, 60_000);
});

describe('renames (metadata.renamedFrom, renamedFrom)', () => {
  const before = `apiVersion: switchboard/v1
kind: Reseller
metadata: { name: north, group: demo-group }
spec:
  billingId: R-NORTH
---
${acme(
  'name: acme-corp, reseller: north',
  `    - name: main
      billingId: T-ACME-MAIN
      trunkGroups:
        - id: 7
          blockList: [ { name: no-premium, country: Belgium, countryCode: "32", isoCode: BE } ]
`,
)}`;
  const after = `apiVersion: switchboard/v1
kind: Reseller
metadata: { name: north-region, group: demo-group, renamedFrom: [north] }
spec:
  billingId: R-NORTH
---
${acme(
  'name: acme-group, reseller: north-region, renamedFrom: [acme-corp]',
  `    - name: headquarters
      renamedFrom: [main]
      billingId: T-ACME-MAIN
      trunkGroups:
        - id: 7
          blockList: [ { name: no-premium-calls, renamedFrom: [no-premium], country: Belgium, countryCode: "32", isoCode: BE } ]
`,
)}`;

  it('tenant, reseller, subscription and calling-plan renames apply as one PUT each on the same id, then "No changes."', async () => {
    const cwd = await manifestDir({ 'm.yaml': before });
    const env = simEnv(sim.url);
    expect((await runCli(['apply', cwd, '--yes'], { env, cwd })).code).toBe(0);
    const group = await groupUuid();
    const reseller = await uuidOf('resellers', 'north', group);
    const tenant = await uuidOf('tenants', 'acme-corp', reseller);
    await writeFile(join(cwd, 'm.yaml'), after);
    await writesSince();

    const planned = await runCli(['plan', cwd, '--out', 'rename.json'], { env, cwd });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('~ reseller/north-region (renamed from north)');
    expect(planned.stdout).toContain('~ tenant/acme-group (renamed from acme-corp)');
    expect(planned.stdout).toContain('~ tenant/acme-group/subscription/headquarters (renamed from main)');
    expect(planned.stdout).toContain(
      '~ tenant/acme-group/subscription/headquarters/trunkgroup/7/block_list/no-premium-calls (renamed from no-premium)',
    );
    expect(planned.stdout).toContain('Plan: 0 to create, 4 to update, 0 to replace, 0 to delete.');
    const saved = JSON.parse(await readFile(join(cwd, 'rename.json'), 'utf8')) as {
      changes: { address: string; previousAddress?: string; id: string; action: string }[];
    };
    expect(saved.changes.map((c) => [c.action, c.address, c.previousAddress])).toEqual([
      ['update', 'reseller/north-region', 'reseller/north'],
      ['update', 'tenant/acme-group', 'tenant/acme-corp'],
      ['update', 'tenant/acme-group/subscription/headquarters', 'tenant/acme-group/subscription/main'],
      [
        'update',
        'tenant/acme-group/subscription/headquarters/trunkgroup/7/block_list/no-premium-calls',
        'tenant/acme-group/subscription/headquarters/trunkgroup/7/block_list/no-premium',
      ],
    ]);
    expect(saved.changes[1]?.id).toBe(tenant);
    await writesSince();

    const applied = await runCli(['apply', cwd, '--plan', 'rename.json', '--yes'], { env, cwd });
    expect(applied.stdout).toMatch(/Apply complete: 4 applied, 0 failed, 0 skipped \(4 requests/);
    expect(applied.code).toBe(0);
    expect(await writesSince()).toEqual({
      'PUT /api/v01/draas/:instance/resellers/:uuid': 1,
      'PUT /api/v01/draas/:instance/tenants/:uuid': 1,
      'PUT /api/v01/draas/:instance/tenants/:uuid/subscriptions/:subscription_id': 1,
      'PUT /api/v01/draas/:instance/tenants/:uuid/subscriptions/:subscription_id/trunkgroups/:trunkgroup_id/block_list/:id': 1,
    });
    // The same objects, renamed.
    expect(await uuidOf('resellers', 'north-region', group)).toBe(reseller);
    expect(await uuidOf('tenants', 'acme-group', reseller)).toBe(tenant);
    const again = await runCli(['plan', cwd, '--detailed-exitcode'], { env, cwd });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);

    // export writes the current names, never renamedFrom
    const out = join(await mkdtemp(join(tmpdir(), 'sb-identity-export-')), 'm');
    expect((await runCli(['export', '--out', out], { env, cwd })).code).toBe(0);
    const exported = await Promise.all(
      (await readdir(out, { recursive: true }))
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => readFile(join(out, f), 'utf8')),
    );
    expect(exported.join('\n')).toContain('acme-group');
    expect(exported.join('\n')).not.toContain('renamedFrom');
  }, 90_000);

  it('a saved rename is stale once the object changed on the platform (exit 3, nothing sent)', async () => {
    const cwd = await manifestDir({ 't.yaml': acme('name: acme-bv, reseller: north, renamedFrom: [acme-corp]') });
    const env = simEnv(sim.url);
    expect((await runCli(['plan', cwd, '--out', 'p.json'], { env, cwd })).code).toBe(0);
    const tenant = await uuidOf('tenants', 'acme-corp', await groupUuid());
    await api('PUT', `${P}/tenants/${tenant}`, { billingId: 'T-ACME-CHANGED' });
    await writesSince();
    const applied = await runCli(['apply', cwd, '--plan', 'p.json', '--yes'], { env, cwd });
    expect(applied.code).toBe(3);
    expect(applied.stderr).toContain('tenant/acme-bv: the live object changed since the plan was made');
    expect(await writesSince()).toEqual({});
  }, 60_000);
  // renamedFrom with both names live: test/cases/rename-conflict.
});

describe('pinning (metadata.uuid)', () => {
  // A pinned uuid that does not exist: test/cases/pinned-uuid-missing.
  it('a pinned document under another name renames the object it is bound to', async () => {
    const tenant = await uuidOf('tenants', 'acme-corp', await groupUuid());
    const cwd = await manifestDir({ 't.yaml': acme(`name: acme-holding, reseller: north, uuid: ${tenant}`) });
    const env = simEnv(sim.url);
    await writesSince();
    const applied = await runCli(['apply', cwd, '--yes'], { env, cwd });
    expect(applied.stdout).toContain('~ tenant/acme-holding (renamed from acme-corp)');
    expect(applied.code).toBe(0);
    expect(await writesSince()).toEqual({ 'PUT /api/v01/draas/:instance/tenants/:uuid': 1 });
    expect((await runCli(['plan', cwd, '--detailed-exitcode'], { env, cwd })).code).toBe(0);
  }, 60_000);
});

describe('unmanaged means "a manifest could manage it"', () => {
  it('the unmanaged count after a clean apply of examples/ is not larger than before it; the default template is never counted', async () => {
    const cwd = await manifestDir({});
    const env = simEnv(sim.url);
    type Planned = { summary: { unmanaged: number }; unmanaged: { kind: string; id?: string }[] };
    const plan = async (): Promise<Planned> =>
      JSON.parse((await runCli(['plan', EXAMPLES, '--format', 'json'], { env, cwd })).stdout) as Planned;
    const before = await plan();
    expect((await runCli(['apply', EXAMPLES, '--yes'], { env, cwd })).code).toBe(0);
    const after = await plan();
    expect(after.summary.unmanaged).toBeLessThanOrEqual(before.summary.unmanaged);
    for (const planned of [before, after])
      expect(planned.unmanaged.filter((u) => u.kind === 'Template' && u.id === '0')).toEqual([]);
  }, 90_000);
});
