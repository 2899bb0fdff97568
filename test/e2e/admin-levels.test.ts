import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { manifestDir, runCli, simEnv } from './cli-helpers.js';

/**
 * plan and apply with the credentials of a tenant administrator and of a reseller
 * administrator (Document 1 §1.5, §5.3): they cannot list groups (§4.2: system
 * administrators only), so switchboard finds their tenants through the lists they may
 * read (§4.3, §4.4: `parent` is required for system administrators only).
 */
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
});

interface SimState {
  tables: Record<string, Record<string, unknown>[]>;
}
const state = async (): Promise<SimState> => (await (await fetch(`${sim.url}/_sim/state`)).json()) as SimState;

const acme = (subscription: string, extra = '') => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: acme-corp, reseller: north }
spec:
${extra}  subscriptions:
    - name: main
      billingId: T-ACME-MAIN
${subscription}`;

const nonBillable = `      templates:
        - { sku: TPL-TA, name: Tenant-made, description: Made by the tenant administrator, location: BE, vrp: vrp-std }
      addresses:
        - { street: Rue Haute, number: "10", city: Brussels, postalCode: 1000, country: Belgium, isoCode: BE }
      locations:
        - { street: Rue Haute, number: "10", postalCode: "1000" }
`;

describe('as a tenant administrator (tenantadmin)', () => {
  it("Doc1 §1.5, §4.4: plans and applies its tenant's non-billable changes (templates, addresses, locations), then plans no changes", async () => {
    const cwd = await manifestDir({ 'acme.yaml': acme(nonBillable) });
    const env = simEnv(sim.url, 'tenantadmin');
    const planned = await runCli(['plan', cwd], { env, cwd });
    expect(planned.stderr).toBe('');
    expect(planned.stdout).toContain('Plan: 3 to create, 0 to update, 0 to replace, 0 to delete.');
    const applied = await runCli(['apply', cwd, '--yes'], { env, cwd });
    expect(applied.stdout).toContain('Apply complete: 3 applied, 0 failed, 0 skipped');
    expect(applied.code).toBe(0);
    const tables = (await state()).tables;
    expect(tables['templates']?.map((t) => t['sku'])).toContain('TPL-TA');
    expect(tables['locations']).toHaveLength(1);
    const again = await runCli(['plan', cwd, '--detailed-exitcode'], { env, cwd });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });
  // A billable change refused: test/cases/tenant-admin-billable.
});

describe('as a reseller administrator (reselleradmin)', () => {
  it('Doc1 §4.3, §4.4: changes its tenant (markup, a new subscription) and creates a tenant of its own, then plans no changes', async () => {
    const wayne = `---
apiVersion: switchboard/v1
kind: Tenant
metadata: { name: wayne, reseller: north }
spec:
  billingId: T-WAYNE
`;
    const extra = `    - { name: extra, billingId: T-ACME-EXTRA, uc: uc_alpha }
`;
    const cwd = await manifestDir({ 'tenants.yaml': acme(extra, '  markup: 5\n') + wayne });
    const env = simEnv(sim.url, 'reselleradmin');
    const applied = await runCli(['apply', cwd, '--yes'], { env, cwd });
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('Apply complete: 3 applied, 0 failed, 0 skipped');
    const tenants = (await state()).tables['tenants'] ?? [];
    const north = ((await state()).tables['resellers'] ?? []).find((r) => r['name'] === 'north');
    expect(tenants.find((t) => t['name'] === 'wayne')?.['owner']).toEqual({ type: 'reseller', uuid: north?.['uuid'] });
    const again = await runCli(['plan', cwd, '--detailed-exitcode'], { env, cwd });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });
  // A tenant of another reseller, out of reach: test/cases/reseller-admin-out-of-reach.
});

describe('export below system level', () => {
  it('Doc1 §4.2–§4.4: a tenant or reseller administrator exports what it sees, and plan of the export reports "No changes."', async () => {
    for (const [user, expected] of [
      ['tenantadmin', ['acme-corp.yaml']],
      ['reselleradmin', ['acme-corp.yaml']],
    ] as const) {
      const env = simEnv(sim.url, user);
      const out = join(await mkdtemp(join(tmpdir(), 'switchboard-export-')), 'manifests');
      const exported = await runCli(['export', '--out', out], { env });
      expect(exported.stderr, user).toBe('');
      expect(exported.code, user).toBe(0);
      expect((await readdir(join(out, 'tenants'))).sort(), user).toEqual(expected);
      // The owner is outside what the caller exports: named by uuid, as for any parent outside the scope.
      expect(await readFile(join(out, 'tenants', 'acme-corp.yaml'), 'utf8')).toMatch(
        /metadata: \{ name: acme-corp, reseller: \{ uuid: "?[0-9a-f-]{36}"? \} \}/,
      );
      const planned = await runCli(['plan', out, '--detailed-exitcode'], {
        env,
        cwd: await mkdtemp(join(tmpdir(), 'switchboard-plan-')),
      });
      expect(planned.stdout, user).toContain('No changes.');
      expect(planned.code, user).toBe(0);
    }
  });
});
