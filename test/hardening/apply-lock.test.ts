/**
 * `<state-dir>/apply.lock`: taken atomically (never seen empty or half written, so never
 * taken over while its owner writes it), one winner when several runs take over one stale
 * lock, and odd things at its path (a directory) reported as a diagnostic, not a crash.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';
import { startHookProxy, type HookProxy } from './support/hook-proxy.js';

const TENANT = `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: lock-co, reseller: north }
spec: { billingId: T-LOCK-CO }
`;

let sim: RunningSimulator;
let slow: HookProxy;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  // Every platform request takes 400 ms: the run holding the lock holds it for seconds.
  slow = await startHookProxy(sim.url, async () => {
    await new Promise((r) => setTimeout(r, 400));
    return undefined;
  });
});
afterAll(async () => {
  await slow.close();
  await sim.close();
});

async function stateDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-lock-'));
  await mkdir(join(dir, '.switchboard'));
  return dir;
}

/** A pid that ran on this host and is gone. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('apply.lock (docs/reliability.md)', () => {
  it('a lock that does not name its owner yet (being written) is not taken over: the second apply is refused', async () => {
    const dir = await stateDir();
    const manifests = await manifestDir({ 't.yaml': TENANT });
    await writeFile(join(dir, '.switchboard', 'apply.lock'), '');
    const result = await runCli(['apply', manifests, '--yes', '--state-dir', join(dir, '.switchboard')], {
      env: simEnv(sim.url),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('apply.lock exists but does not name its owner');
    expect(result.stdout).toBe('');
  });

  it('several applies taking over one stale lock at once: exactly one wins, the others are refused', async () => {
    const dir = await stateDir();
    const manifests = await manifestDir({
      't.yaml': TENANT.replaceAll('lock-co', 'lock-race').replace('T-LOCK-CO', 'T-LOCK-RACE'),
    });
    const lockFile = join(dir, '.switchboard', 'apply.lock');
    await writeFile(
      lockFile,
      `${JSON.stringify({ pid: deadPid(), host: hostname(), since: '2020-01-01T00:00:00.000Z' })}\n`,
    );
    const runs = await Promise.all(
      Array.from({ length: 5 }, () =>
        runCli(['apply', manifests, '--yes', '--state-dir', join(dir, '.switchboard')], { env: simEnv(slow.url) }),
      ),
    );
    const winners = runs.filter((r) => !/SB_APPLY_LOCKED|another apply/.test(r.stderr));
    expect(
      winners.map((r) => r.stderr),
      runs.map((r) => r.stderr).join('\n---\n'),
    ).toHaveLength(1);
    expect(winners[0]!.code, winners[0]!.stderr).toBe(0);
    // The run that removed the stale lock says so, whether it then won or lost the race for the
    // new one (a winner that found no lock cannot know a stale one was there).
    expect(runs.filter((r) => r.stderr.includes('was taken over'))).toHaveLength(1);
    for (const loser of runs.filter((r) => r !== winners[0])) expect(loser.code).toBe(1);
    expect(
      (await readdir(join(dir, '.switchboard'))).filter((f) => f.includes('apply.lock')),
      'no lock and no temporary file left',
    ).toEqual([]);
  }, 60_000);

  it('a directory where the lock goes is a diagnostic (exit 1, no "Internal error", no stack)', async () => {
    const dir = await stateDir();
    await mkdir(join(dir, '.switchboard', 'apply.lock'));
    for (const level of ['warn', 'info']) {
      const result = await runCli(
        ['apply', '--sim', '--yes', '--state-dir', join(dir, '.switchboard'), '--log-level', level],
        { cwd: dir },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('apply.lock is a directory, not a lock file');
      expect(result.stderr).not.toContain('Internal error');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('a state directory that is a file is a diagnostic too', async () => {
    const dir = await stateDir();
    await writeFile(join(dir, 'state-file'), 'not a directory');
    const result = await runCli(['apply', '--sim', '--yes', '--state-dir', join(dir, 'state-file')], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: cannot create the state directory .*state-file/);
    expect(result.stderr).not.toContain('Internal error');
  });
});
