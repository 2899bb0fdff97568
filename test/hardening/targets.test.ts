/**
 * `--target` and `--exclude`: a pattern that matches nothing is an error naming the closest
 * address (a typo must not turn a drift job green with "No changes."), and a plan made
 * with either says so in every format.
 */
import { describe, expect, it } from 'vitest';
import { EXAMPLES, manifestDir, runCli } from '../e2e/cli-helpers.js';

describe('--target / --exclude that match nothing (docs/plans.md)', () => {
  it('plan --target with a typo: exit 1 naming the closest declared address, no plan printed', async () => {
    const result = await runCli(['plan', EXAMPLES, '--sim', '--target', 'tenant/acme-crop', '--detailed-exitcode']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      '--target tenant/acme-crop matches nothing declared in the manifests; the closest address is tenant/acme-corp',
    );
  });

  it('apply --target with a typo: exit 1, nothing applied', async () => {
    const result = await runCli(
      ['apply', EXAMPLES, '--sim', '--yes', '--target', 'tenant/acme-crop/subscription/main'],
      { cwd: await manifestDir({}) },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('closest address is tenant/acme-corp/subscription/main');
  });

  it('--exclude with a typo and a glob target matching nothing: both named in one error', async () => {
    const result = await runCli(['plan', EXAMPLES, '--sim', '--exclude', 'tenant/globx', '--target', 'tenant/zzz*']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--target tenant/zzz* matches nothing declared');
    expect(result.stderr).toContain(
      '--exclude tenant/globx matches nothing declared in the manifests or read from the platform; the closest address is tenant/globex',
    );
  });

  it('an --exclude naming a live object that is not declared is accepted (it keeps the object from a prune)', async () => {
    const dir = await manifestDir({
      'acme.yaml':
        'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: acme-corp, reseller: north, prune: true }\nspec:\n  billingId: T-ACME\n  markup: 4\n  subscriptions: []\n',
    });
    const args = ['plan', dir, '--sim', '--format', 'json', '--max-delete-percent', '100'];
    const pruned = JSON.parse((await runCli(args)).stdout) as { changes: { action: string; address: string }[] };
    const live = pruned.changes.find((c) => c.action === 'delete')?.address;
    expect(live, 'the prune deletes an undeclared live subscription').toBe('tenant/acme-corp/subscription/main');
    const kept = await runCli([...args, '--exclude', live!]);
    expect(kept.stderr).not.toContain('SB_TARGET_UNMATCHED');
    expect((JSON.parse(kept.stdout) as { changes: { address: string }[] }).changes.map((c) => c.address)).not.toContain(
      live,
    );
  });

  it("a target's ancestors are only made to exist: their own drift, a rename or a replace is not planned", async () => {
    const dir = await manifestDir({
      'acme.yaml':
        'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: acme-corp, reseller: north }\nspec:\n' +
        '  billingId: T-ACME\n  markup: 9\n  subscriptions:\n    - name: main\n      billingId: T-ACME-MAIN\n' +
        '      uc: uc_alpha\n      entitlements:\n        - { type: BE geo, entitlement: 17 }\n',
    });
    const args = ['plan', dir, '--sim', '--format', 'json'];
    const changes = async (...more: string[]) =>
      (JSON.parse((await runCli([...args, ...more])).stdout) as { changes: { address: string }[] }).changes.map(
        (c) => c.address,
      );
    const entitlement = 'tenant/acme-corp/subscription/main/entitlement/BE geo';
    expect(await changes()).toEqual(expect.arrayContaining(['tenant/acme-corp', entitlement]));
    expect(await changes('--target', entitlement)).toEqual([entitlement]);
  });

  it('a routing row as target, and a glob, match their table', async () => {
    for (const target of ['routing/draas/standby/routes/number=+3221234560', 'routing/*', 'tenant/acme*']) {
      const result = await runCli(['plan', EXAMPLES, '--sim', '--target', target]);
      expect(result.code, `${target}: ${result.stderr}`).toBe(0);
    }
  });
});

describe("apply --plan re-reads the saved changes' subtrees", () => {
  it('by their planned addresses (an entitlement declared by type id is planned under its type name)', async () => {
    const dir = await manifestDir({});
    const planned = await runCli([
      'plan',
      EXAMPLES,
      '--sim',
      '--out',
      `${dir}/plan.json`,
      '--target',
      'tenant/wayne-logistics',
    ]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('tenant/wayne-logistics/subscription/depot/entitlement/BE geo');
    const applied = await runCli(['apply', EXAMPLES, '--sim', '--yes', '--plan', `${dir}/plan.json`], { cwd: dir });
    expect(applied.stderr).not.toContain('SB_TARGET_UNMATCHED');
    expect(applied.stderr).not.toContain('matches nothing');
  });
});

describe('a plan made with --target or --exclude says so in every format', () => {
  it('text, markdown and JSON carry the SB_PLAN_PARTIAL warning; JSON also records the options', async () => {
    const args = [
      'plan',
      EXAMPLES,
      '--sim',
      '--target',
      'tenant/acme-corp',
      '--exclude',
      'tenant/acme-corp/subscription/main',
    ];
    const text = await runCli(args);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      'SB_PLAN_PARTIAL: this plan covers only --target tenant/acme-corp (with what it depends on), without --exclude tenant/acme-corp/subscription/main',
    );
    const markdown = await runCli([...args, '--format', 'markdown']);
    expect(markdown.stdout).toContain('this plan covers only --target tenant/acme-corp');
    const json = JSON.parse((await runCli([...args, '--format', 'json'])).stdout) as {
      warnings: { code: string }[];
      options: { target: string[] };
    };
    expect(json.warnings.map((w) => w.code)).toContain('SB_PLAN_PARTIAL');
    expect(json.options.target).toEqual(['tenant/acme-corp']);
    const whole = await runCli(['plan', EXAMPLES, '--sim']);
    expect(whole.stdout).not.toContain('SB_PLAN_PARTIAL');
  });
});
