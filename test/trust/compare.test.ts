/**
 * `show --verify` and `show --compare-with` (docs/audit.md): the seal of one plan file, and
 * whether two plans do the same, as a CI job asks it after a merge. Two plans of the same
 * manifests against the same live state, made at other times, from other folders, have the
 * same change set; an edit of what would be done makes them differ, and the listing says where.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePlanFile } from '../../src/plan/plan-file.js';
import type { PlanComparison } from '../../src/plan/plan-compare.js';
import type { VerifyReport } from '../../src/plan/plan-verify.js';
import type { Plan } from '../../src/plan/types.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, runCli, simEnv } from '../e2e/cli-helpers.js';
import { samplePlan } from '../fixtures/plans/sample-plan.js';
import { changeAt, forge } from './helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-compare-'));
  await writePlanFile(join(dir, 'sample.json'), samplePlan());
});

const show = (...args: string[]) => runCli(['show', ...args], { cwd: dir });

describe('show --verify', () => {
  it('prints the digest and the change set, recorded against computed, and exits 0', async () => {
    const verified = await show('sample.json', '--verify');
    expect(verified.code).toBe(0);
    const plan = samplePlan();
    expect(verified.stdout).toBe(
      [
        'Plan file:   sample.json',
        `Plan digest: recorded ${plan.digest}`,
        `             computed ${plan.digest}: matches`,
        `Change set:  recorded ${plan.changeSet?.digest}`,
        `             computed ${plan.changeSet?.digest}: matches (56 changes)`,
        'Consistent: the digests match the content, and this switchboard reads all of it.',
        'Not a signature: anyone who can edit the file can recompute its digests, and its provenance (user, commit, CI run) is what the file claims; compare the plan digest with the one the reviewer saw.',
        '',
      ].join('\n'),
    );
    const json = JSON.parse((await show('sample.json', '--verify', '--format', 'json')).stdout) as VerifyReport;
    expect(json).toMatchObject({ digest: { matches: true }, changeSet: { matches: true, changes: 56 }, problem: null });
  });

  it('a value changed: the digest does not match (exit 3), and the report says which', async () => {
    await writeFile(
      join(dir, 'changed.json'),
      (await readFile(join(dir, 'sample.json'), 'utf8')).replace('"markup": 5', '"markup": 6'),
    );
    const verified = await show('changed.json', '--verify');
    expect(verified.code).toBe(3);
    expect(verified.stdout).toMatch(/computed sha256:[0-9a-f]{64}: DOES NOT MATCH\n/);
    expect(verified.stdout).toContain('Refused: changed.json was changed after switchboard wrote it');
  });

  it('a file edited and sealed again matches too: the report never says who wrote it, only that it is consistent', async () => {
    const file = join(dir, 'resealed.json');
    await writeFile(file, await readFile(join(dir, 'sample.json'), 'utf8'));
    await forge(file, (plan) => {
      plan.provenance = { user: { username: 'someone-else', login: 'password', api: 'platform', authenticated: true } };
    });
    const verified = await show('resealed.json', '--verify');
    expect(verified.code).toBe(0);
    expect(verified.stdout).not.toContain('as switchboard wrote it');
    expect(verified.stdout).toContain('Consistent: the digests match the content');
    expect(verified.stdout).toContain('Not a signature: anyone who can edit the file can recompute its digests');
  });
});

describe('show --compare-with', () => {
  it('the same plan: exit 0, "Same change set"', async () => {
    const same = await show('sample.json', '--compare-with', 'sample.json');
    expect(same.code).toBe(0);
    expect(same.stdout.split('\n')[0]).toBe(`Same change set: ${samplePlan().changeSet?.digest} (56 changes)`);
    expect((await show('sample.json', '--compare-with', samplePlan().changeSet?.digest ?? '')).code).toBe(0);
  });

  it('another plan: exit 2, every differing address and field, in text, markdown and JSON', async () => {
    const other = join(dir, 'other.json');
    await writeFile(other, await readFile(join(dir, 'sample.json'), 'utf8'));
    await forge(other, (p) => {
      const acme = changeAt(p, 'tenant/acme-corp');
      acme.after = { ...acme.after, markup: 99 };
      acme.patch = acme.patch.map((op) => (op.path === '/markup' ? { ...op, value: 99 } : op));
      p.changes = p.changes.filter((c) => c.address !== 'tenant/old-co');
      p.summary.delete -= 1;
    });
    const text = await show('sample.json', '--compare-with', 'other.json');
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('The change sets differ:');
    expect(text.stdout).toContain('  - tenant/old-co: delete only in sample.json');
    expect(text.stdout).toContain('  ~ tenant/acme-corp: after: ');
    expect(text.stdout).toMatch(/~ tenant\/acme-corp: patch: \[.*"value":5.*\] → \[.*"value":99.*\]/);

    const markdown = await show('sample.json', '--compare-with', 'other.json', '--format', 'markdown');
    expect(markdown.code).toBe(2);
    expect(markdown.stdout).toContain('**The change sets differ**');
    expect(markdown.stdout).toContain('| <code>tenant/old-co</code> |');

    const json = JSON.parse(
      (await show('sample.json', '--compare-with', 'other.json', '--format', 'json')).stdout,
    ) as PlanComparison;
    expect(json.same).toBe(false);
    expect(json.plan).toMatchObject({ name: 'sample.json', digest: samplePlan().digest, changeSet: { changes: 56 } });
    expect(json.other).toMatchObject({ name: 'other.json', changeSet: { changes: 55 } });
    expect(json.differences.map((d) => [d.address, d.in, d.fields.map((f) => f.field)])).toEqual([
      ['tenant/acme-corp', 'both', ['after', 'patch']],
      ['tenant/old-co', 'plan', []],
    ]);

    const digestOnly = await show('sample.json', '--compare-with', `sha256:${'0'.repeat(64)}`);
    expect(digestOnly.code).toBe(2);
  });

  it('refuses (exit 3) to compare with a plan file that is not sealed', async () => {
    const unsealed = join(dir, 'unsealed.json');
    await writeFile(unsealed, await readFile(join(dir, 'sample.json'), 'utf8'));
    await forge(unsealed, (p) => delete (p as Partial<Plan>).digest, 'none');
    expect((await show('sample.json', '--compare-with', 'unsealed.json')).code).toBe(3);
  });
});

describe('two plans of the same manifests and live state (a pull request, then the merge)', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it(
    'made at other times, from other folders: other plan digests, the same change set',
    { timeout: 60_000 },
    async () => {
      const pr = await mkdtemp(join(tmpdir(), 'sb-pr-'));
      const merged = await mkdtemp(join(tmpdir(), 'sb-merged-'));
      await cp(EXAMPLES, join(pr, 'manifests'), { recursive: true });
      await cp(EXAMPLES, join(merged, 'checkout', 'manifests'), { recursive: true });
      const reviewed = await runCli(['plan', 'manifests', '--out', join(dir, 'pr.json')], {
        env: simEnv(sim.url),
        cwd: pr,
      });
      expect(reviewed.code, reviewed.stderr).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // another createdAt
      const atMerge = await runCli(['plan', 'checkout/manifests', '--out', join(dir, 'merge.json')], {
        env: simEnv(sim.url),
        cwd: merged,
      });
      expect(atMerge.code, atMerge.stderr).toBe(0);
      const [a, b] = await Promise.all(
        ['pr.json', 'merge.json'].map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as Plan),
      );
      expect(a?.digest).not.toBe(b?.digest);
      expect(a?.changes.length).toBeGreaterThan(100);
      // The live ids of a request's path stand for the addresses of the objects they name.
      const entitlement = a?.changes.find((c) => c.address === 'tenant/acme-corp/subscription/main/entitlement/BE geo');
      expect(entitlement?.requests[0]?.pathTemplate).toBe(
        '/api/v01/draas/demo/tenants/{id:tenant/acme-corp}/subscriptions/{id:tenant/acme-corp/subscription/main}' +
          '/entitlements/{id:tenant/acme-corp/subscription/main/entitlement/BE geo}',
      );
      const compared = await show('merge.json', '--compare-with', 'pr.json');
      expect(compared.code, compared.stdout).toBe(0);
      expect(compared.stdout).toContain(`Same change set: ${a?.changeSet?.digest}`);
    },
  );
});
