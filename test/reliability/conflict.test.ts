/**
 * Stale and conflicting runs: two applies started at once against one platform,
 * and saved plans applied after an out-of-band change (test/e2e/apply.test.ts covers an
 * out-of-band update; these cover an out-of-band create and delete).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { adminApi } from '../e2e/cli-helpers.js';
import { SOAK } from './support/budget.js';
import { cli, simEnv } from './support/cli.js';
import { estateDir } from './support/estate.js';
import { duplicates, simState } from './support/sim-tools.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, latencyMs: 3 });
});
afterAll(async () => {
  await sim.close();
});

const P = '/api/v01/draas/demo';
/** Tenants each racing apply creates (`npm run soak`: 60). */
const TENANTS = SOAK ? 60 : 20;

describe('reliability: stale and conflicting runs', () => {
  it('docs/commands.md apply: a second apply started while one runs from the same state directory is refused; the first converges with no duplicates', async () => {
    const dir = await estateDir(TENANTS);
    const manifests = join(dir, 'manifests');
    const env = simEnv(sim.url);
    const [a, b] = await Promise.all([
      cli(['apply', manifests, '--yes'], { cwd: dir, env }),
      cli(['apply', manifests, '--yes'], { cwd: dir, env }),
    ]);
    const runs = [a, b];
    const refused = runs.filter((r) => /another apply is running/.test(r.stderr));
    expect(refused, runs.map((r) => r.stderr.slice(-500)).join('\n---\n')).toHaveLength(1);
    expect(refused[0]?.code).toBe(1);
    expect(runs.filter((r) => r.code === 0)).toHaveLength(1);
    expect(duplicates(await simState(sim.url))).toEqual([]);
    expect((await cli(['plan', manifests, '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
  }, 120_000);

  it('docs/commands.md apply: two applies from two checkouts at once (no shared lock: two CI runners) duplicate no customer, and the next plan refuses to act on any duplicate it finds', async () => {
    const one = await estateDir(TENANTS, { prefix: 'twin' });
    const two = await estateDir(TENANTS, { prefix: 'twin' });
    const env = simEnv(sim.url);
    const runs = await Promise.all(
      [one, two].map((d) => cli(['apply', join(d, 'manifests'), '--yes'], { cwd: d, env })),
    );
    const dupes = duplicates(await simState(sim.url));
    // Customers carry billingIds the platform keeps unique: the loser's creates are refused (400).
    expect(dupes.filter((d) => /^(tenants|resellers|subscriptions):/.test(d))).toEqual([]);
    // Objects the platform does not keep unique (locations, block lists) may exist twice: the next
    // plan names every one and refuses to plan around it (exit 1) instead of picking one.
    const next = await cli(['plan', join(one, 'manifests')], { cwd: one, env });
    const reported = next.stderr.match(/SB_LIVE_PARENT: two live objects match this address/g) ?? [];
    console.log(
      `[conflict] two checkouts at once: exits ${runs.map((r) => r.code).join(', ')}, ${dupes.length} duplicated objects, ${reported.length} reported by the next plan`,
    );
    expect(reported.length).toBe(dupes.length);
    if (dupes.length > 0) expect(next.code).toBe(1);
    else expect(next.code).toBe(0);
  }, 120_000);

  it('docs/plans.md: a saved plan is refused (exit 3) after an out-of-band create of an object it creates, and after an out-of-band delete', async () => {
    const dir = await estateDir(0, { examples: false });
    const manifests = join(dir, 'manifests');
    const env = simEnv(sim.url);
    const doc = (name: string, billing: string) =>
      `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: ${name}, reseller: north }\nspec:\n  billingId: ${billing}\n`;
    await mkdir(manifests, { recursive: true });
    await writeFile(join(manifests, 't.yaml'), `${doc('oob-kept', 'T-OOB-KEPT')}---\n${doc('oob-new', 'T-OOB-NEW')}`);
    const api = await adminApi(sim.url);
    const north = (await simState(sim.url)).tables['resellers']?.find((r) => r['name'] === 'north');

    // create: the plan creates oob-new, someone creates it first
    expect((await cli(['plan', manifests, '--out', join(dir, 'plan.json')], { cwd: dir, env })).code).toBe(0);
    expect(
      (
        await api('POST', `${P}/tenants`, {
          name: 'oob-new',
          billingId: 'T-OOB-NEW',
          owner: { type: 'reseller', uuid: north?.['uuid'] },
        })
      ).status,
    ).toBe(200);
    const afterCreate = await cli(['apply', manifests, '--plan', join(dir, 'plan.json'), '--yes'], { cwd: dir, env });
    expect(afterCreate.code, afterCreate.stdout + afterCreate.stderr).toBe(3);
    expect(afterCreate.stderr).toContain('tenant/oob-new');
    expect((await simState(sim.url)).tables['tenants']?.filter((t) => t['name'] === 'oob-new')).toHaveLength(1);

    // delete: the plan updates oob-kept, someone deletes it
    await cli(['apply', manifests, '--yes'], { cwd: dir, env });
    await writeFile(
      join(manifests, 't.yaml'),
      `${doc('oob-kept', 'T-OOB-KEPT')}  markup: 7\n---\n${doc('oob-new', 'T-OOB-NEW')}`,
    );
    expect((await cli(['plan', manifests, '--out', join(dir, 'plan.json')], { cwd: dir, env })).code).toBe(0);
    const kept = (await simState(sim.url)).tables['tenants']?.find((t) => t['name'] === 'oob-kept');
    expect((await api('DELETE', `${P}/tenants/${String(kept?.['uuid'])}`)).status).toBeLessThan(300);
    const afterDelete = await cli(['apply', manifests, '--plan', join(dir, 'plan.json'), '--yes'], { cwd: dir, env });
    expect(afterDelete.code).toBe(3);
    expect(afterDelete.stderr).toContain('tenant/oob-kept');
    expect((await simState(sim.url)).tables['tenants']?.filter((t) => t['name'] === 'oob-kept')).toHaveLength(0);
  }, 60_000);
});
