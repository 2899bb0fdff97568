import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { manifestDir, runCli, simEnv } from './cli-helpers.js';

/** acme-corp as the default data set has it (markup 4; main's BE geo entitlement: 10, 2 assigned), with `spec`. */
const acme = (spec = '') => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: acme-corp, reseller: north }
spec:
  billingId: T-ACME
  markup: 4
  subscriptions:
    - name: main
      billingId: T-ACME-MAIN
      uc: uc_alpha
      entitlements:
        - { type: BE geo, entitlement: 20 }
${spec}`;

const policy = (rules: string) => `apiVersion: switchboard/v1
kind: Policy
metadata: { name: guardrails }
spec:
  rules:
${rules}`;

const GEO_CAP = `    - id: geo-cap
      description: at most 15 geographic numbers
      match: { kind: Entitlement, where: { type: { pattern: " geo$" } } }
      limit: { field: entitlement, max: 15 }
`;

let sim: RunningSimulator;
const env = () => simEnv(sim.url);

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
beforeEach(async () => {
  await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
});
afterAll(async () => {
  await sim.close();
});

async function plan(files: Record<string, string>, ...args: string[]) {
  const dir = await manifestDir(files);
  const result = await runCli(['plan', dir, ...args], { env: env(), cwd: dir });
  return { ...result, dir };
}

describe('policies (end to end, real CLI against the simulator)', () => {
  // Limits, counts, require, reference, forbid, thresholds and warnings are case folders
  // (test/cases/policy-*); what a plan does with --allow-policy takes more than one run.
  it('--allow-policy overrides one rule for one plan: recorded, shown in every format, and required again by apply --plan', async () => {
    const files = { 'acme.yaml': acme(), 'policy.yaml': policy(GEO_CAP) };
    const unknown = await plan(files, '--allow-policy', 'geo-cp');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      "--allow-policy geo-cp names no rule of the manifests' policies; the closest is geo-cap",
    );

    const text = await plan(files, '--allow-policy', 'geo-cap', '--out', 'plan.json');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Policy rules overridden for this plan (--allow-policy): geo-cap');
    expect(text.stdout).toContain(
      '! SB_POLICY tenant/acme-corp/subscription/main/entitlement/BE geo: allowed by --allow-policy geo-cap: entitlement is 20',
    );
    const saved = JSON.parse(await readFile(join(text.dir, 'plan.json'), 'utf8'));
    expect(saved.options.allowPolicy).toEqual(['geo-cap']);
    expect(saved.policy).toEqual({ overrides: ['geo-cap'] });
    expect(saved.errors).toEqual([]);
    const markdown = await plan(files, '--allow-policy', 'geo-cap', '--format', 'markdown');
    expect(markdown.stdout).toContain(
      '> [!IMPORTANT]\n> **Policy rules overridden for this plan** (--allow-policy): <code>geo-cap</code>',
    );

    const apply = (...args: string[]) =>
      runCli(['apply', text.dir, '--plan', join(text.dir, 'plan.json'), '--yes', ...args], {
        env: env(),
        cwd: text.dir,
      });
    const without = await apply();
    expect(without.code).toBe(3);
    expect(without.stderr).toContain('was made with other options');
    expect(without.stderr).toContain(
      '--allow-policy: the plan was made with --allow-policy geo-cap, this command gives no --allow-policy',
    );
    expect((await apply('--allow-policy', 'other')).code).toBe(3);
    const applied = await apply('--allow-policy', 'geo-cap');
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Policy rules overridden for this plan (--allow-policy): geo-cap');
    expect(applied.stdout).toContain('Apply complete: 1 applied');

    // A plan made without an override cannot be applied with one.
    const relaxed = policy(GEO_CAP.replace('max: 15', 'max: 50'));
    const clean = await plan(
      { 'acme.yaml': acme().replace('markup: 4', 'markup: 6'), 'policy.yaml': relaxed },
      '--out',
      'plan.json',
    );
    expect(clean.code).toBe(0);
    const sneaked = await runCli(
      ['apply', clean.dir, '--plan', join(clean.dir, 'plan.json'), '--yes', '--allow-policy', 'geo-cap'],
      { env: env(), cwd: clean.dir },
    );
    expect(sneaked.code).toBe(3);
    expect(sneaked.stderr).toContain('this command gives --allow-policy geo-cap');
  });
});
