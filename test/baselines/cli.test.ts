/**
 * Adoption through the real CLI, against a simulator holding a generated estate with random
 * exceptions: export (No changes.), `baseline suggest`, `--write`, and the plan is still
 * `No changes.`; `export --baselines` writes the differences only, and planning them with
 * the baselines is `No changes.` too; `explain` reads the result.
 */
import { readFile, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { runCli, simEnv } from '../e2e/cli-helpers.js';
import { generateEstate } from './estate.js';
import { scratch } from './helpers.js';

const estate = generateEstate({ resellers: 3, tenantsPerReseller: 15, exceptions: 0.15, beGeo: 10, random: 11 });
let sim: RunningSimulator;
let root: string;
let done: () => Promise<void>;
const cli = (...args: string[]) => runCli(args, { env: simEnv(sim.url), cwd: root });

beforeAll(async () => {
  ({ dir: root, done } = await scratch('baseline-cli'));
  sim = await startSimulator({ port: 0, seed: estate.seed });
}, 60_000);
afterAll(async () => {
  await sim?.close();
  await done();
});

describe('from an export to baselines, through the CLI', () => {
  it('export, suggest, --write: the plan is No changes. before and after', async () => {
    expect((await cli('export', '--out', 'adopted', '--scope', 'reseller/std-r01')).code).toBe(0);
    const before = await cli('plan', 'adopted', '--detailed-exitcode');
    expect(before.stdout).toContain('No changes.');
    expect(before.code).toBe(0);

    const proposed = await cli(
      'baseline',
      'suggest',
      'adopted',
      '--select',
      'reseller=std-r01',
      '--by',
      'subscriptions.uc',
    );
    expect(proposed.code).toBe(0);
    expect(proposed.stdout).toContain('kind: Baseline');
    expect(proposed.stdout).toContain('- select: { uc: uc_alpha }');
    expect(proposed.stderr).toMatch(
      /^Proposed baseline reseller-std-r01 \(15 documents, \d+ overrides\); --write writes it to adopted\/baselines\/reseller-std-r01\.yaml\.\n$/,
    );

    const written = await cli(
      'baseline',
      'suggest',
      'adopted',
      '--select',
      'reseller=std-r01',
      '--by',
      'subscriptions.uc',
      '--name',
      'north-office',
      '--reason',
      'found at adoption',
      '--write',
    );
    expect(written.stderr).toBe('');
    expect(written.stdout).toMatch(
      /^Wrote baseline north-office to adopted\/baselines\/north-office\.yaml and rewrote 15 files \(15 documents, \d+ overrides\); plan shows what it showed before\.\n$/,
    );
    // No stale override either: plan shows them as warnings.
    const after = await cli('plan', 'adopted', '--detailed-exitcode');
    expect(after.stdout).toContain('No changes.');
    expect(after.stdout).not.toContain('Warnings:');
    expect(after.code).toBe(0);

    // A tenant with an exception keeps it, with its reason; the rest comes from the baseline.
    const own = [...estate.ownBeGeo.keys()].find((t) => Number(t.slice(-4)) >= 15 && Number(t.slice(-4)) < 30);
    expect(own).toBeDefined();
    const explained = JSON.parse(
      (await cli('explain', `${own}/subscription/main`, 'adopted', '--format', 'json')).stdout,
    );
    const beGeo = explained.objects.find((o: { address: string }) => o.address.endsWith('/entitlement/BE geo'));
    expect(beGeo.fields.entitlement).toMatchObject({
      from: 'override',
      baseline: 'north-office',
      reason: 'found at adoption',
    });
    const tollfree = explained.objects.find((o: { address: string }) => o.address.endsWith('/entitlement/BE tollfree'));
    expect(tollfree).toMatchObject({ baseline: 'north-office' });
    const text = await readFile(path.join(root, 'adopted', 'tenants', `${own?.slice('tenant/'.length)}.yaml`), 'utf8');
    expect(text).toContain('# Exported by `switchboard export`'); // comments kept
    // The editor checks it against the partial schema: an item may hold only what it overrides.
    expect(text).toMatch(/^# yaml-language-server: \$schema=tenant\.partial\.schema\.json\n/);
    const baseline = await readFile(path.join(root, 'adopted', 'baselines', 'north-office.yaml'), 'utf8');
    expect(baseline).toMatch(/^# yaml-language-server: \$schema=baseline\.schema\.json\n/);
    expect(text).not.toContain('BE tollfree');
  }, 120_000);

  it('export --baselines writes the differences only, and plans No changes. with the baselines', async () => {
    await rm(path.join(root, 'again'), { recursive: true, force: true });
    const exported = await cli(
      'export',
      '--out',
      'again',
      '--scope',
      'reseller/std-r01',
      '--baselines',
      'adopted/baselines',
    );
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(
      /\n15 files hold only what differs from the baselines of adopted\/baselines \(\d+ overrides\)\.\n$/,
    );
    const plan = await cli('plan', 'again', 'adopted/baselines', '--detailed-exitcode');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  }, 120_000);

  it('refuses to write over baselines already there, and says why', async () => {
    const again = await cli('baseline', 'suggest', 'adopted', '--select', 'reseller=std-r01', '--write');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Error: adopted holds baselines already/);
  });
});
