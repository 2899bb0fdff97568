/**
 * Progress while reading (docs/plans.md "What you see while it reads"): plan and export
 * show what they have read so far on stderr, redrawn on a terminal and as a line every few
 * seconds without one; stdout stays the plan.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { CLI, EXAMPLES, cliEnv, runCli, scratchDir, simEnv } from '../e2e/cli-helpers.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, latencyMs: 60 });
});
afterAll(async () => {
  await sim.close();
});

const env = () => ({ ...simEnv(sim.url), SWITCHBOARD_PROGRESS_INTERVAL_MS: '150' });
const counts = (stderr: string, verb: string): [number, number][] =>
  [...stderr.matchAll(new RegExp(`${verb}: read (\\d+) objects in (\\d+) pages?, [\\d.]+/s, \\d+ s`, 'g'))].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);

describe('without a terminal: a line every few seconds on stderr', () => {
  it('plan: objects and pages read so far, growing; stdout is the plan alone', async () => {
    const result = await runCli(['plan', EXAMPLES, '--format', 'json', '--concurrency', '2'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(() => JSON.parse(result.stdout)).not.toThrow();
    const seen = counts(result.stderr, 'plan');
    expect(seen.length, result.stderr).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![1]).toBeGreaterThanOrEqual(seen[i - 1]![1]);
    expect(seen.at(-1)![1]).toBeGreaterThan(seen[0]![1]);
    expect(result.stderr).not.toContain('\r');
  }, 60_000);

  it('export: the same', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'switchboard-progress-')), 'manifests');
    const result = await runCli(['export', '--out', out, '--concurrency', '2'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Exported /);
    expect(counts(result.stderr, 'export').length, result.stderr).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('a read shorter than the interval prints no line', async () => {
    const result = await runCli(['plan', EXAMPLES, '--sim'], {});
    expect(result.stderr).toBe('');
  }, 60_000);
});

/** Runs the CLI with stderr on a pseudo-terminal (Python's pty module), stdout on a pipe. */
const PTY_RUNNER = `
import json, os, pty, subprocess, sys, threading
master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
os.close(slave)
out = []
reader = threading.Thread(target=lambda: out.append(child.stdout.read()))
reader.start()
err = b''
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    err += chunk
reader.join()
print(json.dumps({'code': child.wait(), 'stdout': out[0].decode(), 'stderr': err.decode()}))
`;

describe('on a terminal', () => {
  it('one line redrawn in place, cleared before the plan is printed', async () => {
    const { stdout } = await promisify(execFile)(
      'python3',
      ['-c', PTY_RUNNER, process.execPath, CLI, 'plan', EXAMPLES, '--format', 'json', '--concurrency', '2'],
      { cwd: await scratchDir(), env: cliEnv(simEnv(sim.url)), maxBuffer: 64 * 1024 * 1024 },
    );
    const run = JSON.parse(stdout) as { code: number; stdout: string; stderr: string };
    expect(run.code, run.stderr).toBe(0);
    expect(() => JSON.parse(run.stdout)).not.toThrow();
    const redraws = run.stderr.split('\r\x1b[2K').filter((s) => s.startsWith('plan: read'));
    expect(redraws.length, JSON.stringify(run.stderr)).toBeGreaterThanOrEqual(2);
    expect(run.stderr.endsWith('\r\x1b[2K'), 'the line is cleared at the end').toBe(true);
    expect(run.stderr).not.toContain('\n');
  }, 60_000);
});
