/**
 * `apply --plan FILE` (docs/apply.md): the saved plan is applied from the manifests it was
 * made from, and its scope is matched against what the manifests declare, whatever spelling
 * (an entitlement declared by type id is planned under its type's name).
 */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPlanFile, writePlanFile } from '../../src/plan/plan-file.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

const tenant = (entitlements: string) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: saved-typeid, reseller: north }
spec:
  billingId: T-SAVED-TYPEID
  subscriptions:
    - name: main
      billingId: T-SAVED-TYPEID-MAIN
      uc: uc_alpha
      entitlements:
${entitlements}
`;

describe('apply --plan: saved scopes match canonical addresses', () => {
  it('a plan whose only change is an entitlement declared by typeId is applied, not refused as stale', async () => {
    const cwd = await manifestDir({ 't.yaml': tenant('        - { typeId: 1, entitlement: 5 }') });
    const env = simEnv(sim.url);
    expect((await runCli(['apply', '.', '--yes'], { env, cwd })).code).toBe(0);
    await writeFile(join(cwd, 't.yaml'), tenant('        - { typeId: 1, entitlement: 7 }'));
    const planned = await runCli(['plan', '.', '--out', 'plan.json', '--format', 'json'], { env, cwd });
    const changes = (JSON.parse(planned.stdout) as { changes: { action: string; address: string }[] }).changes;
    expect(changes).toEqual([expect.objectContaining({ action: 'update' })]);
    const address = changes[0]!.address;
    expect(address).toMatch(/^tenant\/saved-typeid\/subscription\/main\/entitlement\/[^/]+$/);
    expect(address.endsWith('/entitlement/1'), 'planned under the type name').toBe(false);

    const applied = await runCli(['apply', '.', '--plan', 'plan.json', '--yes'], { env, cwd });
    expect(applied.stderr).not.toContain('stale');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Apply complete: 1 applied, 0 failed, 0 skipped');
    const again = await runCli(['plan', '.', '--detailed-exitcode'], { env, cwd });
    expect(again.stdout).toContain('No changes.');
  }, 60_000);

  it('--target and --exclude naming the planned (type-name) address select the entitlement declared by typeId', async () => {
    const cwd = await manifestDir({ 't.yaml': tenant('        - { typeId: 1, entitlement: 9 }') });
    const env = simEnv(sim.url);
    const full = JSON.parse((await runCli(['plan', '.', '--format', 'json'], { env, cwd })).stdout) as {
      changes: { address: string }[];
    };
    const address = full.changes.find((c) => c.address.includes('/entitlement/'))!.address;
    const targeted = await runCli(['plan', '.', '--format', 'json', '--target', address], { env, cwd });
    expect(targeted.code, targeted.stderr).toBe(0);
    expect((JSON.parse(targeted.stdout) as { changes: { address: string }[] }).changes.map((c) => c.address)).toEqual([
      address,
    ]);
    const excluded = await runCli(['plan', '.', '--format', 'json', '--exclude', address], { env, cwd });
    expect(excluded.code, excluded.stderr).toBe(0);
    expect(
      (JSON.parse(excluded.stdout) as { changes: { address: string }[] }).changes.map((c) => c.address),
    ).not.toContain(address);
  }, 60_000);
});

describe('--exclude by the spelling a manifest writes', () => {
  it('keeps the live object from --prune: the entitlement declared by typeId is never deleted', async () => {
    const cwd = await manifestDir({ 't.yaml': tenant('        - { typeId: 1, entitlement: 5 }') });
    const env = simEnv(sim.url);
    expect((await runCli(['apply', '.', '--yes'], { env, cwd })).code).toBe(0);
    const asWritten = 'tenant/saved-typeid/subscription/main/entitlement/1';
    const pruned = await runCli(['plan', '.', '--prune', '--exclude', asWritten, '--format', 'json'], { env, cwd });
    expect(pruned.code, pruned.stderr).toBe(0);
    const plan = JSON.parse(pruned.stdout) as { changes: { action: string; address: string }[] };
    expect(plan.changes.filter((c) => c.action === 'delete')).toEqual([]);
  }, 60_000);
});

describe('apply --plan without paths: the manifest paths recorded in the plan file', () => {
  it('applies the plan from the paths it was made from (relative to where it was made), not from "."', async () => {
    // The checkout: manifests in examples/ and a stray, invalid YAML file at the top that "." would read.
    const cwd = await manifestDir({ 'notes.yaml': 'this: [is not a manifest\n' });
    await mkdir(join(cwd, 'manifests'));
    await cp(join(EXAMPLES, 'tenants', 'globex.yaml'), join(cwd, 'manifests', 'globex.yaml'));
    await cp(join(EXAMPLES, 'group.yaml'), join(cwd, 'manifests', 'group.yaml'));
    const env = simEnv(sim.url);
    const planned = await runCli(['plan', 'manifests', '--out', 'plan.json', '--format', 'json'], { env, cwd });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as { manifests: { paths?: string[] } };
    expect(plan.manifests.paths).toEqual(['manifests']);

    const applied = await runCli(['apply', '--plan', 'plan.json', '--yes'], { env, cwd });
    expect(applied.stderr).not.toContain('notes.yaml');
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stderr).toContain('manifests from the plan file: manifests');
    expect(applied.stdout).toMatch(/Apply complete: [1-9]\d* applied, 0 failed/);

    // Paths given on the command line win (here: the wrong ones, so the digest check refuses).
    const other = await manifestDir({ 'g.yaml': 'apiVersion: switchboard/v1\nkind: Group\nmetadata: { name: x }\n' });
    const given = await runCli(['plan', 'manifests', '--out', 'plan2.json'], { env, cwd });
    expect(given.code).toBe(0);
    const refused = await runCli(['apply', other, '--plan', 'plan2.json', '--yes'], { env, cwd });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).not.toContain('manifests from the plan file');

    // Edited (and digested again, as anyone can), a plan file may not point the apply elsewhere.
    const outside = await manifestDir({ 'g.yaml': 'apiVersion: switchboard/v1\nkind: Group\nmetadata: { name: x }\n' });
    const plan2 = await readPlanFile(join(cwd, 'plan2.json'));
    await writePlanFile(join(cwd, 'moved.json'), { ...plan2, manifests: { ...plan2.manifests, paths: [outside] } });
    const moved = await runCli(['apply', '--plan', 'moved.json', '--yes'], { env, cwd });
    expect(moved.code).toBe(3);
    expect(moved.stderr).toContain('names manifests outside this folder');
    expect(moved.stderr).not.toContain('manifests from the plan file');
    const scope = { changedSince: 'main', commit: 'c', documents: 1, ofDocuments: 1, addresses: [], targets: [] };
    const fifo = { '/dev/stdin': 'sha256:00' };
    await writePlanFile(join(cwd, 'reads.json'), { ...plan2, scope: { ...scope, files: fifo } });
    const reads = await runCli(['apply', 'manifests', '--plan', 'reads.json', '--yes'], { env, cwd });
    expect(reads.code).toBe(3);
    expect(reads.stderr).toMatch(/records a file it read.*"\/dev\/stdin"/s);
  }, 60_000);
});
