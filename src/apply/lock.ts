import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SwitchboardError } from '../core/errors.js';

/**
 * One apply at a time per state directory: `<stateDir>/apply.lock`, created exclusively,
 * holding the owner's pid, host and start time. Two applies from one checkout (a developer's
 * second terminal, two jobs of one CI runner) would both create what the plan creates, and
 * objects the platform does not keep unique (locations, block lists…) would exist twice.
 * A lock left by a killed run (its pid no longer alive on this host) is taken over. Runs on
 * other machines do not share the file: CI serialises them (README "Reliability").
 */
export class ApplyLock {
  private constructor(readonly path: string) {}

  static async acquire(stateDir: string): Promise<{ lock: ApplyLock; tookOver?: string }> {
    await mkdir(stateDir, { recursive: true });
    const path = join(stateDir, 'apply.lock');
    const owner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(path, 'wx', 0o600);
        await handle.writeFile(`${JSON.stringify(owner)}\n`);
        await handle.close();
        return { lock: new ApplyLock(path) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new SwitchboardError('SB_APPLY_LOCK', `cannot create ${path}: ${(error as Error).message}`);
      }
      const held = await readOwner(path);
      if (held && held.host === owner.host && isAlive(held.pid)) {
        throw new SwitchboardError('SB_APPLY_LOCKED', `another apply is running from this state directory (pid ${held.pid} since ${held.since}, ${path}): wait for it to end; if it is gone, delete the file`);
      }
      if (held && held.host !== owner.host) {
        throw new SwitchboardError('SB_APPLY_LOCKED', `${path} is held by an apply on ${held.host} (pid ${held.pid} since ${held.since}): wait for it to end; if it is gone, delete the file`);
      }
      await rm(path, { force: true });
      if (attempt === 0 && held) return { ...(await ApplyLock.acquire(stateDir)), tookOver: `a lock left by pid ${held.pid} (${held.since}), which is no longer running, was taken over` };
    }
    throw new SwitchboardError('SB_APPLY_LOCKED', `cannot take ${path}: another apply took it first`);
  }

  async release(): Promise<void> {
    await rm(this.path, { force: true });
  }
}

async function readOwner(path: string): Promise<{ pid: number; host: string; since: string } | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as { pid?: unknown; host?: unknown; since?: unknown };
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    return { pid: parsed.pid, host: parsed.host, since: String(parsed.since) };
  } catch {
    return undefined; // torn or empty (killed while writing it): stale
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
