/**
 * `plan --policies-from GIT_REF` through the real CLI (docs/policies.md "Policies from the
 * base"): a pull request that raises its own limit is judged by the base's limit, and every
 * format shows the loosening; the Policy documents at the ref are read from git, whatever the
 * working tree holds; a ref that names nothing, or manifests outside a git working tree, are
 * errors naming the option.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import type { Plan } from '../../src/plan/types.js';
import { runCli, simEnv } from '../e2e/cli-helpers.js';

let sim: RunningSimulator;
let repo: string;
let base: string;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], {
    cwd: repo,
    encoding: 'utf8',
  }).trim();

const policy = (max: number) => `apiVersion: switchboard/v1
kind: Policy
metadata: { name: guardrails }
spec:
  rules:
    - id: geo-cap
      description: at most ${max} geographic numbers of a type per subscription
      match: { kind: Entitlement, where: { type: { pattern: " geo$" } } }
      limit: { field: entitlement, max: ${max} }
`;
const tenant = (entitlement: number) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: pf-co, reseller: north }
spec:
  billingId: T-PF-CO
  subscriptions:
    - name: main
      billingId: T-PF-CO-MAIN
      uc: uc_alpha
      entitlements:
        - { type: BE geo, entitlement: ${entitlement} }
`;
// A Policy document and another document in one file: only the Policy is read at the ref.
const both = (max: number, entitlement: number) => `${policy(max)}---\n${tenant(entitlement)}`;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  repo = await mkdtemp(join(tmpdir(), 'sb-policies-from-'));
  await mkdir(join(repo, 'manifests'));
  await writeFile(join(repo, 'manifests', 'pf.yaml'), both(500, 400));
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'base');
  base = git('rev-parse', 'HEAD');
  // The pull request: the limit raised to 5,000 and an entitlement of 4,000 under it.
  await writeFile(join(repo, 'manifests', 'pf.yaml'), both(5000, 4000));
  git('commit', '-qam', 'raise the limit');
});

afterAll(async () => {
  await sim?.close();
  await rm(repo, { recursive: true, force: true });
});

const plan = (...args: string[]) => runCli(['plan', 'manifests', ...args], { env: simEnv(sim.url), cwd: repo });

describe('plan --policies-from', () => {
  it("judges a pull request that raises its own limit by the base's limit (exit 3), and says it loosens it", async () => {
    expect((await plan()).code).toBe(0); // its own rules let it pass
    const text = await plan('--policies-from', base);
    expect(text.code, text.stderr).toBe(3);
    expect(text.stdout).toContain('entitlement is 4000, above the maximum 500');
    expect(text.stdout).toContain('(rule geo-cap, at manifests/pf.yaml:21:27)'); // the declared value's position
    expect(text.stdout).toContain(
      `Policy changes (this plan is judged by the Policy documents at ${base} (commit ${base.slice(0, 12)}), not by these):`,
    );
    expect(text.stdout).toContain(
      '  ! looser   geo-cap (guardrails): changed: description changed; limit max 500 → 5000: looser',
    );

    const markdown = await plan('--policies-from', base, '--format', 'markdown');
    expect(markdown.stdout).toContain('#### Policy changes');
    expect(markdown.stdout).toContain('> [!WARNING]');
    expect(markdown.stdout).toMatch(
      /\| <code>geo-cap<\/code> \| guardrails \| changed \| ⚠️ \*\*looser\*\* \| .*limit max 500 → 5000(:|&#58;) looser \|/,
    );
    expect(markdown.stdout).toContain('Refused: this plan will not be applied');

    const html = await plan('--policies-from', base, '--format', 'html');
    expect(html.stdout).toContain('<h2 id="policy-changes-heading">Policy changes');
    expect(html.stdout).toContain('limit max 500 → 5000: looser');

    const json = JSON.parse((await plan('--policies-from', 'HEAD~1', '--format', 'json')).stdout) as Plan;
    expect(json.policiesFrom).toEqual({ ref: 'HEAD~1', commit: base });
    expect(json.policyChanges).toEqual([
      {
        rule: 'geo-cap',
        policy: 'guardrails',
        change: 'changed',
        effect: 'looser',
        details: ['description changed', 'limit max 500 → 5000: looser'],
        source: 'manifests/pf.yaml:6:7',
      },
    ]);
    expect(json.errors.map((e) => `${e.code} ${e.rule ?? ''}`)).toEqual(['SB_POLICY geo-cap']);
  });

  it('reads the rules at the ref from git, not from the working tree; the same rules show no change', async () => {
    await writeFile(join(repo, 'manifests', 'pf.yaml'), both(1, 1));
    try {
      const head = await plan('--policies-from', 'HEAD', '--format', 'json');
      const json = JSON.parse(head.stdout) as Plan;
      // HEAD's limit (5000), not the working tree's (1): its 4000 passes, the working tree's rule changed.
      expect(json.errors.filter((e) => e.code === 'SB_POLICY')).toEqual([]);
      expect(json.policyChanges?.map((c) => [c.rule, c.effect])).toEqual([['geo-cap', 'stricter']]);
    } finally {
      git('checkout', '--', 'manifests/pf.yaml');
    }
    const same = await plan('--policies-from', 'HEAD');
    expect(same.code).toBe(0);
    expect(same.stdout).toContain(
      `Policies: judged by the Policy documents at HEAD (commit ${git('rev-parse', 'HEAD').slice(0, 12)}); the manifests change none of them.`,
    );
  });

  it('an unknown ref, or manifests outside a git working tree, is an error naming the option (exit 1)', async () => {
    const unknown = await plan('--policies-from', 'no-such-branch');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('SB_POLICIES_FROM: --policies-from no-such-branch: no such commit in');
    const outside = await mkdtemp(join(tmpdir(), 'sb-no-git-'));
    await writeFile(join(outside, 'pf.yaml'), both(500, 400));
    const notGit = await runCli(['plan', '.', '--policies-from', 'HEAD'], { env: simEnv(sim.url), cwd: outside });
    expect(notGit.code).toBe(1);
    expect(notGit.stderr).toContain('SB_POLICIES_FROM: --policies-from HEAD: the manifests');
    expect(notGit.stderr).toContain('are not in a git working tree');
  });

  it('a mistake in a Policy document at the ref is an error with its position at the commit, never a rule left out', async () => {
    await writeFile(
      join(repo, 'manifests', 'pf.yaml'),
      both(500, 400).replace('field: entitlement', 'field: entitlemnt'),
    );
    git('commit', '-qam', 'a broken rule');
    const broken = git('rev-parse', 'HEAD');
    git('revert', '--no-edit', 'HEAD');
    const planned = await plan('--policies-from', broken);
    expect(planned.code).toBe(1);
    expect(planned.stderr).toMatch(
      new RegExp(
        `${broken.slice(0, 12)}:manifests/pf\\.yaml:\\d+:\\d+: error SB_POLICY_RULE: .*entitlemnt.*--policies-from ${broken}`,
      ),
    );
    expect(await readFile(join(repo, 'manifests', 'pf.yaml'), 'utf8')).toBe(both(5000, 4000));
  });
});
