/**
 * Plan changes carry their provider (docs/plans.md "The plan file (JSON)"): `platform` for the
 * kind table's objects, `routing` for routing-engine rows. A plan file written before the
 * field existed still applies (the provider comes from the change's kind); a saved change
 * whose provider no longer matches the fresh plan is stale. Real CLI, simulator over HTTP.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { forge } from '../trust/helpers.js';
import { manifestDir, runCli, simEnv } from './cli-helpers.js';

const MANIFESTS = {
  'tenant.yaml': `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: provider-co, reseller: north }
spec:
  billingId: T-PROVIDER
`,
  'routes.yaml': `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby }
spec:
  key: [number]
  fields: { priority: integer }
  records:
    - { number: "+3229992001", route: trunk-1, priority: 10 }
`,
};

interface PlanFile {
  changes: { address: string; kind: string; provider?: string }[];
}

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

describe('providers in plans (end to end)', () => {
  it('names the provider of every change; a changed provider is stale, a missing one no plan', async () => {
    const cwd = await manifestDir(MANIFESTS);
    const env = simEnv(sim.url);
    const file = join(cwd, 'plan.json');
    expect((await runCli(['plan', '.', '--out', file], { env, cwd })).code).toBe(0);
    const plan = JSON.parse(await readFile(file, 'utf8')) as PlanFile;
    expect(plan.changes.map((c) => [c.address, c.provider])).toEqual([
      ['tenant/provider-co', 'platform'],
      ['routing/draas/standby/routes/number=+3229992001', 'routing'],
    ]);

    // A change claiming another provider than the fresh plan gives it: the edit breaks the
    // file's digest (exit 3); sealed again, the fresh plan refuses it as stale (exit 3).
    const original = await readFile(file, 'utf8');
    const swapped = plan.changes.map((c) => ({ ...c, provider: c.provider === 'platform' ? 'routing' : 'platform' }));
    await writeFile(file, JSON.stringify({ ...plan, changes: swapped }));
    const changed = await runCli(['apply', '.', '--plan', file, '--yes'], { env, cwd });
    expect(changed.code).toBe(3);
    expect(changed.stderr).toContain('was changed after switchboard wrote it');
    await writeFile(file, original);
    await forge(file, (p) => {
      for (const c of p.changes) c.provider = c.provider === 'platform' ? 'routing' : 'platform';
    });
    const stale = await runCli(['apply', '.', '--plan', file, '--yes'], { env, cwd });
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain(
      'tenant/provider-co: the plan would now make it through the platform provider (saved: routing)',
    );
    // A change without a provider is no plan file of this version (exit 1).
    await writeFile(file, original);
    await forge(file, (p) => {
      for (const c of p.changes) delete (c as Partial<typeof c>).provider;
    });
    const unnamed = await runCli(['apply', '.', '--plan', file, '--yes'], { env, cwd });
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain('changes[0].provider must be one of platform, routing (got nothing)');

    await writeFile(file, original);
    const applied = await runCli(['apply', '.', '--plan', file, '--yes'], { env, cwd });
    expect(applied.stdout).toContain('Apply complete: 2 applied, 0 failed, 0 skipped');
    expect(applied.code).toBe(0);
    const again = await runCli(['plan', '.', '--detailed-exitcode'], { env, cwd });
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });
});
