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
  it('limit: a violation refuses the plan (exit 3) after printing it in full, with rule, address and position', async () => {
    const text = await plan({ 'acme.yaml': acme(), 'policy.yaml': policy(GEO_CAP) });
    expect(text.code).toBe(3);
    expect(text.stdout).toContain('Refused: this plan will not be applied.');
    expect(text.stdout).toContain(
      '✗ SB_POLICY tenant/acme-corp/subscription/main/entitlement/BE geo: entitlement is 20, above the maximum 15 (at most 15 geographic numbers) (rule geo-cap, at acme.yaml:12:27)',
    );
    expect(text.stdout).toContain('~ tenant/acme-corp/subscription/main/entitlement/BE geo (Entitlement');
    expect(text.stdout).toMatch(/Plan: 0 to create, 1 to update/);
    const json = await plan({ 'acme.yaml': acme(), 'policy.yaml': policy(GEO_CAP) }, '--format', 'json');
    expect(JSON.parse(json.stdout).errors).toEqual([
      {
        code: 'SB_POLICY',
        message: 'entitlement is 20, above the maximum 15 (at most 15 geographic numbers)',
        address: 'tenant/acme-corp/subscription/main/entitlement/BE geo',
        rule: 'geo-cap',
        source: 'acme.yaml:12:27',
      },
    ]);
    const markdown = await plan({ 'acme.yaml': acme(), 'policy.yaml': policy(GEO_CAP) }, '--format', 'markdown');
    expect(markdown.stdout).toContain('(rule <code>geo-cap</code>, at <code>acme.yaml:12:27</code>)');
  });

  it('limit on a count, require (present, pattern, one of): each names its rule and the field it is about', async () => {
    const rules = `    - id: one-entitlement-type
      match: { kind: Subscription }
      limit: { count: entitlements, max: 0 }
    - id: billing-ids
      match: { kind: Tenant }
      require: { field: billingId, pattern: "^X-" }
    - id: uc
      match: { kind: Subscription }
      require: { field: uc, oneOf: [uc_beta] }
    - id: suspension
      match: { kind: Subscription }
      require: { field: suspensionProfile }
`;
    const result = await plan({ 'acme.yaml': acme(), 'policy.yaml': policy(rules) }, '--format', 'json');
    expect(result.code).toBe(3);
    const errors = JSON.parse(result.stdout).errors as { rule: string; message: string; source: string }[];
    expect(errors.map((e) => [e.rule, e.message, e.source])).toEqual([
      ['one-entitlement-type', 'declares 1 entitlements, above the maximum 0', 'acme.yaml:11:7'],
      ['billing-ids', 'billingId "T-ACME" does not match ^X-', 'acme.yaml:5:3'],
      ['uc', 'uc "uc_alpha" is not one of uc_beta', 'acme.yaml:10:7'],
      ['suspension', 'declares no suspensionProfile', 'acme.yaml:8:7'],
    ]);
  });

  it('reference: to a kind (declared or live objects) and to routing tables (declared rows, or read live)', async () => {
    const templates = `      templates:
        - { sku: PRD-BASIC, name: Basic, description: d, location: BE, vrp: v }
        - { sku: TPL-OWN, name: Own, description: d, location: BE, vrp: v }
`;
    const routes = `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby }
spec:
  key: [number]
  records:
    - { number: "+3221234560", route: trunk-7 }
    - { number: "+3229999999", route: trunk-9 }
---
apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: carriers, service: draas, version: standby }
spec:
  key: [prefix]
  records:
    - { prefix: "+32", carrier: trunk-7 }
`;
    const rules = `    - id: products
      match: { kind: Template }
      reference: { field: sku, kind: Product, key: sku }
    - id: carriers
      match: { kind: RoutingRow, table: draas/standby/routes }
      reference: { field: route, table: draas/standby/carriers, key: carrier }
    - id: active-numbers
      match: { kind: RoutingRow, table: draas/standby/routes }
      reference: { field: number, table: draas/active/routes, key: number }
`;
    const result = await plan(
      { 'acme.yaml': acme(templates), 'routes.yaml': routes, 'policy.yaml': policy(rules) },
      '--format',
      'json',
    );
    expect(result.code).toBe(3);
    const errors = JSON.parse(result.stdout).errors as Record<string, string>[];
    // PRD-BASIC is a live product (not declared); draas/active/routes is read live (no manifest declares it).
    expect(errors.map((e) => [e.rule, e.address, e.message, e.source])).toEqual([
      [
        'products',
        'tenant/acme-corp/subscription/main/template/TPL-OWN',
        'sku "TPL-OWN" names no sku of Product',
        'acme.yaml:15:13',
      ],
      [
        'carriers',
        'routing/draas/standby/routes/number=+3229999999',
        'route "trunk-9" names no carrier of routing/draas/standby/carriers',
        'routes.yaml:8:7',
      ],
      [
        'active-numbers',
        'routing/draas/standby/routes/number=+3229999999',
        'number "+3229999999" names no number of routing/draas/active/routes',
        'routes.yaml:8:7',
      ],
    ]);
  });

  it('forbid (with where) and threshold refuse changes; a warning rule only warns (exit 0)', async () => {
    const rules = `    - id: frozen-acme
      match: { kind: Tenant, where: { name: acme-corp } }
      forbid: [update, delete]
    - id: tenant-share
      match: { kind: Tenant }
      threshold: { update: 20%, min: 1 }
`;
    const refused = await plan(
      { 'acme.yaml': acme().replace('markup: 4', 'markup: 5'), 'policy.yaml': policy(rules) },
      '--format',
      'json',
    );
    expect(refused.code).toBe(3);
    const errors = JSON.parse(refused.stdout).errors as Record<string, string>[];
    expect(errors.map((e) => [e.rule, e.address, e.message, e.source])).toEqual([
      ['frozen-acme', 'tenant/acme-corp', 'the plan would update it, which the rule forbids', 'acme.yaml:1:1'],
      [
        'tenant-share',
        undefined,
        "the plan overwrites values of 1 of the 1 live Tenant objects in scope (100.0%), above the rule's 20%",
        'policy.yaml:9:7',
      ],
    ]);
    const warned = await plan({
      'acme.yaml': acme(),
      'policy.yaml': policy(GEO_CAP.replace('match:', 'severity: warning\n      match:')),
    });
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain('Warnings:\n  ! SB_POLICY tenant/acme-corp/subscription/main/entitlement/BE geo:');
  });

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
