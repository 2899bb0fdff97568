/**
 * `ApplyLock` in one process: a lock naming this process's own pid that this process does not
 * hold is stale (a container's run before a restart had the same pid and host name), and a
 * takeover that judged a lock stale after another run replaced it never displaces the new one,
 * even when a third run tries to take the lock meanwhile. Reads of the lock file are hooked
 * (below) to run the other runs at exactly those points.
 */
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

/** Runs once, at the next read of a file by the lock, after the read itself. */
let atNextRead: (() => Promise<void>) | undefined;
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const readFile = async (...args: Parameters<typeof fs.readFile>): Promise<string | Buffer> => {
    const result = await fs.readFile(...args);
    const hook = atNextRead;
    atNextRead = undefined;
    await hook?.();
    return result;
  };
  return { ...fs, readFile, default: { ...fs, readFile } };
});

// The unit tier shares a worker's modules between files (vitest.config.ts): a file run before
// this one may have imported the lock with the real fs, so it is imported afresh under the mock,
// and none of the modules is left behind for the next file.
vi.resetModules();
const { ApplyLock } = await import('../../src/apply/lock.js');
type Lock = import('../../src/apply/lock.js').ApplyLock;
afterEach(() => {
  atNextRead = undefined;
});
afterAll(() => {
  vi.resetModules();
});

async function stateDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'switchboard-lock-unit-'));
}

function lockText(pid: number, nonce: string): string {
  return `${JSON.stringify({ pid, host: hostname(), since: '2020-01-01T00:00:00.000Z', nonce })}\n`;
}

/** A pid above any pid_max: no process has it, on any host. */
const GONE_PID = 2_147_483_646;

async function attempt(dir: string): Promise<Lock | Error> {
  return ApplyLock.acquire(dir).then(
    (taken) => taken.lock,
    (error: Error) => error,
  );
}

describe('a lock naming this process pid', () => {
  it('is stale when this process does not hold it: taken over, with the note', async () => {
    const dir = await stateDir();
    await writeFile(join(dir, 'apply.lock'), lockText(process.pid, 'a-run-before-the-restart'));
    const { lock, tookOver } = await ApplyLock.acquire(dir);
    expect(tookOver).toMatch(new RegExp(`a lock left by pid ${process.pid} .* was taken over`));
    expect(await readFile(join(dir, 'apply.lock'), 'utf8')).toContain(`"pid":${process.pid}`);
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('is a running apply when this process holds it', async () => {
    const dir = await stateDir();
    const { lock } = await ApplyLock.acquire(dir);
    await expect(ApplyLock.acquire(dir)).rejects.toThrow(/another apply is running from this state directory/);
    await lock.release();
    const again = await ApplyLock.acquire(dir);
    expect(again.tookOver).toBeUndefined();
    await again.lock.release();
  });
});

describe('taking over a stale lock', () => {
  it('a run that judged it stale after another run replaced it never displaces the new lock', async () => {
    const dir = await stateDir();
    await writeFile(join(dir, 'apply.lock'), lockText(GONE_PID, 'stale'));
    const runs: Record<string, Lock | Error> = {};
    // Run B reads the stale lock; before it acts on that, run A takes the lock over. At B's
    // next read, run C tries to take the lock.
    atNextRead = async () => {
      runs['A'] = await attempt(dir);
      atNextRead = async () => {
        runs['C'] = await attempt(dir);
      };
    };
    runs['B'] = await attempt(dir);
    const holders = Object.entries(runs).filter(([, run]) => run instanceof ApplyLock);
    expect(
      holders.map(([name]) => name),
      Object.values(runs).map(String).join('\n'),
    ).toEqual(['A']);
    expect(runs['C']).toBeInstanceOf(Error);
    const a = runs['A'] as Lock;
    // A's lock is still in place: A's release removes it, and nothing else is left.
    await a.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('a takeover left unfinished (its marker file) is reported with the file to delete', async () => {
    const dir = await stateDir();
    await writeFile(join(dir, 'apply.lock'), lockText(GONE_PID, 'stale'));
    await writeFile(join(dir, 'apply.lock.takeover'), lockText(GONE_PID, 'killed-while-taking-over'));
    await expect(ApplyLock.acquire(dir)).rejects.toThrow(
      /apply\.lock\.takeover is left by a run that stopped while taking over a stale lock: .*delete .*apply\.lock\.takeover/,
    );
  });
});
