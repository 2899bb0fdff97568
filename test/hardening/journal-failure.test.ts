/**
 * A journal that stops taking lines while an apply runs (a full disk) stops the run as Ctrl-C
 * does: nothing more is started, the requests in flight finish, and the summary reports what
 * was applied as `incomplete`, with the SB_JOURNAL error, in text and in JSON (exit 1). The
 * disk is filled without root: the CLI runs under a file size limit (`ulimit -f`), which makes
 * the journal's writes fail with EFBIG once it has grown to that size.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { CLI, cliEnv, manifestDir, runCli, simEnv, type CliResult } from '../e2e/cli-helpers.js';

const TENANTS = 60;
/** KiB the journal may grow to: its start line and a dozen or so changes. */
const JOURNAL_LIMIT_KIB = 12;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => sim.close());

function tenants(prefix: string): Record<string, string> {
  const docs = Array.from(
    { length: TENANTS },
    (_, i) =>
      `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: ${prefix}-${i}, reseller: north }\nspec: { billingId: T-${prefix.toUpperCase()}-${i} }\n`,
  );
  return { 'tenants.yaml': docs.join('---\n') };
}

/** The CLI under a file size limit (bash counts it in KiB). */
async function runLimited(args: string[], cwd: string): Promise<CliResult> {
  const script = `ulimit -f ${JOURNAL_LIMIT_KIB} && exec "$0" "$@"`;
  try {
    const { stdout, stderr } = await promisify(execFile)('bash', ['-c', script, process.execPath, CLI, ...args], {
      cwd,
      env: cliEnv(simEnv(sim.url)),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

function count(pattern: RegExp, text: string): number {
  return Number(pattern.exec(text)?.[1] ?? Number.NaN);
}

describe('a journal that cannot be written while applying', () => {
  it('text: stops starting changes, reports what was applied as incomplete (exit 1); the next apply finishes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-journal-full-'));
    const manifests = await manifestDir(tenants('full'));
    const args = ['apply', manifests, '--yes', '--concurrency', '4', '--state-dir', join(dir, 'state')];
    const result = await runLimited([...args, '--journal', join(dir, 'journal.jsonl')], dir);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('Stopped:');
    expect(result.stdout).toMatch(/✗ cannot write the journal .*journal\.jsonl: .*EFBIG.* \(SB_JOURNAL\)/);
    expect(result.stdout).toContain('not started: the journal cannot be written');
    const applied = count(/Apply incomplete: (\d+) applied/, result.stdout);
    const skipped = count(/, (\d+) skipped/, result.stdout);
    expect(applied, result.stdout).toBeGreaterThan(0);
    expect(skipped, result.stdout).toBeGreaterThan(0);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // What the summary says was applied was: the next apply creates exactly the rest.
    const rest = await runCli(args, { env: simEnv(sim.url), cwd: dir });
    expect(rest.code, rest.stderr).toBe(0);
    expect(count(/Apply complete: (\d+) applied/, rest.stdout)).toBe(TENANTS - applied);
  }, 60_000);

  it('json: outcome incomplete with the counts and the SB_JOURNAL error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-journal-full-'));
    const manifests = await manifestDir(tenants('fulljson'));
    const result = await runLimited(
      [
        'apply',
        manifests,
        '--yes',
        '--concurrency',
        '4',
        '--format',
        'json',
        '--state-dir',
        join(dir, 'state'),
        '--journal',
        join(dir, 'journal.jsonl'),
      ],
      dir,
    );
    expect(result.code, result.stderr).toBe(1);
    const summary = JSON.parse(result.stdout) as {
      outcome: string;
      applied: number;
      skipped: number;
      requests: number;
      errors: { code: string; message: string }[];
    };
    expect(summary.outcome).toBe('incomplete');
    expect(summary.applied).toBeGreaterThan(0);
    expect(summary.skipped).toBeGreaterThan(0);
    expect(summary.requests).toBeGreaterThanOrEqual(summary.applied);
    expect(summary.errors).toEqual([
      { code: 'SB_JOURNAL', message: expect.stringMatching(/cannot write the journal .*EFBIG/) as string },
    ]);
  }, 60_000);
});
