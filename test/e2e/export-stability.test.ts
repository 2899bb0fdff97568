/**
 * Byte-stable exports (docs/export.md "Stability"): two exports of the same live state are
 * the same bytes, however the platform spelled its loosely typed fields and at any
 * concurrency; a re-export of what `apply` made leaves an empty `git diff`. Answers in
 * another order: test/export/stability.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator, type Seed } from '../../src/sim/index.js';
import { createEveryKind } from '../export/every-kind.js';
import { estateSeed } from '../export/estate-seed.js';
import { differingFiles, treeFiles } from '../export/tree-files.js';
import { EXAMPLES, runCli, simEnv } from './cli-helpers.js';

const git = promisify(execFile);
let sims: RunningSimulator[] = [];

afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

async function sim(options: Parameters<typeof startSimulator>[0] = {}): Promise<RunningSimulator> {
  const s = await startSimulator({ port: 0, ...options });
  sims.push(s);
  return s;
}

/** Sibling output folders of one temporary folder: their schema modelines are the same relative path. */
async function outDirs(): Promise<(name: string) => string> {
  const base = await mkdtemp(join(tmpdir(), 'switchboard-stable-'));
  return (name) => join(base, name);
}

async function exportTo(s: RunningSimulator, out: string, extra: string[] = []): Promise<Map<string, string>> {
  // No progress line: stderr must stay empty.
  const env = { ...simEnv(s.url), SWITCHBOARD_PROGRESS_INTERVAL_MS: '3600000' };
  const result = await runCli(['export', '--out', out, ...extra], { env });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return treeFiles(out);
}

/** The whole state of a simulator, as a seed another simulator starts from (same ids, same order). */
async function snapshotOf(s: RunningSimulator): Promise<Seed> {
  return (await (await fetch(`${s.url}/_sim/state`)).json()) as Seed;
}

describe('export is byte-stable', () => {
  it('the same state served with every documented spelling (variant seeds 1, 2, 3) exports the same bytes', async () => {
    const plain = await sim();
    await createEveryKind(plain.url);
    const state = await snapshotOf(plain);
    const out = await outDirs();
    const expected = await exportTo(plain, out('plain'));
    expect(expected.size).toBeGreaterThanOrEqual(7);
    for (const variants of [1, 2, 3]) {
      const varied = await sim({ seed: state, variants });
      const files = await exportTo(varied, out(`variants-${variants}`));
      expect(differingFiles(expected, files), `variant seed ${variants}`).toEqual([]);
    }
  });

  it('an export of what `apply examples/` made, exported again with --force, leaves an empty git diff', async () => {
    const s = await sim();
    const state = join(await mkdtemp(join(tmpdir(), 'switchboard-stable-state-')), 'state');
    const applied = await runCli(['apply', EXAMPLES, '--yes', '--state-dir', state], { env: simEnv(s.url) });
    expect(applied.code).toBe(0);
    const repo = await mkdtemp(join(tmpdir(), 'switchboard-stable-git-'));
    const first = await exportTo(s, join(repo, 'manifests'));
    const run = (...args: string[]) => git('git', args, { cwd: repo });
    await run('init', '-q');
    await run('add', '.');
    await run('-c', 'user.name=test', '-c', 'user.email=test@example.invalid', 'commit', '-qm', 'export');
    const second = await exportTo(s, join(repo, 'manifests'), ['--force']);
    expect((await run('status', '--porcelain', '--untracked-files=all')).stdout).toBe('');
    expect(differingFiles(first, second)).toEqual([]);
    expect([...first.keys()]).toContain('tenants/hooli-be.yaml');
  });

  it('a generated estate of 2,000 tenants exports the same bytes at concurrency 2 and 32 (files completed in another order)', async () => {
    const s = await sim({
      seed: estateSeed({ tenants: 2000, subscriptionsPerTenant: 1, entitlementsPerSubscription: 3 }),
    });
    const out = await outDirs();
    const [slow, fast] = await Promise.all([
      exportTo(s, out('two'), ['--concurrency', '2']),
      exportTo(s, out('thirty-two'), ['--concurrency', '32']),
    ]);
    expect(slow.size).toBe(2000 + 3 + 3); // the estate, the default data set's tenants, the group and two resellers
    expect(differingFiles(slow, fast)).toEqual([]);
  }, 300_000);
});
