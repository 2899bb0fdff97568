/**
 * The manifest cache through the real CLI: `plan` and `validate` keep it in
 * `<state-dir>/cache` and print the same with and without it; `--no-cache` leaves it alone;
 * `apply` never reads or writes it; git never sees it.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, runCli, simEnv } from './cli-helpers.js';

let sim: RunningSimulator;
let repo: string;

const entries = (stateDir: string): Promise<string[]> =>
  readdir(join(repo, stateDir, 'cache', 'manifests')).catch(() => [] as string[]);

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  repo = await mkdtemp(join(tmpdir(), 'switchboard-cache-e2e-'));
  await cp(EXAMPLES, join(repo, 'manifests'), { recursive: true, filter: (s) => !s.includes('.github') });
  execFileSync('git', ['init', '-q'], { cwd: repo });
});

afterAll(async () => {
  await sim?.close();
  await rm(repo, { recursive: true, force: true });
});

describe('the manifest cache (end to end)', () => {
  it('plan keeps it in <state-dir>/cache and prints the same plan from it; --no-cache neither reads nor writes it', async () => {
    const plan = (...args: string[]) =>
      runCli(['plan', 'manifests', '--detailed-exitcode', ...args], { env: simEnv(sim.url), cwd: repo, cache: true });
    // The plan digest covers the plan's time; the change set and everything else must be the same.
    const printed = (stdout: string) => stdout.replace(/^Plan digest: .*$/m, 'Plan digest: (of its time)');
    const uncached = await plan('--state-dir', 'uncached', '--no-cache');
    expect(uncached.code).toBe(2);
    expect(await entries('uncached')).toEqual([]);
    const cold = await plan('--state-dir', 'cached');
    expect(printed(cold.stdout)).toBe(printed(uncached.stdout));
    expect((await entries('cached')).length).toBeGreaterThan(0);
    const warm = await plan('--state-dir', 'cached', '--log-level', 'debug');
    expect(printed(warm.stdout)).toBe(printed(uncached.stdout));
    const line = warm.stderr.split('\n').find((l) => l.includes('"manifestCache"'));
    const report = (JSON.parse(line ?? '{}') as { manifestCache?: { hits: number; missing: number } }).manifestCache;
    expect(report?.hits).toBe((await entries('cached')).length);
    expect(report?.missing).toBe(0);
    // The folder ignores itself: git never lists it, whatever .gitignore the repository has.
    expect(execFileSync('git', ['status', '--porcelain', '--ignored=no'], { cwd: repo, encoding: 'utf8' })).not.toMatch(
      /cached\//,
    );
  }, 60_000);

  it('apply never reads nor writes it', async () => {
    const applied = await runCli(['apply', 'manifests', '--yes', '--state-dir', 'applied'], {
      env: simEnv(sim.url),
      cwd: repo,
      cache: true,
    });
    expect(applied.code).toBe(0);
    expect(await readdir(join(repo, 'applied'))).not.toContain('cache');
  }, 60_000);

  it('validate keeps it in .switchboard/cache (--state-dir elsewhere), and --no-cache leaves it alone', async () => {
    const first = await runCli(['validate', 'manifests', '--state-dir', 'validated', '--no-cache'], {
      cwd: repo,
      cache: true,
    });
    expect(first.code).toBe(0);
    expect(await entries('validated')).toEqual([]);
    const cold = await runCli(['validate', 'manifests'], { cwd: repo, cache: true });
    expect(cold.stdout).toBe(first.stdout);
    expect((await entries('.switchboard')).length).toBeGreaterThan(0);
    expect((await runCli(['validate', 'manifests'], { cwd: repo, cache: true })).stdout).toBe(first.stdout);
    // SWITCHBOARD_NO_CACHE (what runCli sets unless told otherwise) is --no-cache.
    const off = await runCli(['validate', 'manifests', '--state-dir', 'off'], { cwd: repo });
    expect(off.stdout).toBe(first.stdout);
    expect(await entries('off')).toEqual([]);
  }, 60_000);
});
