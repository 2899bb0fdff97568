import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { link, lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SwitchboardError } from '../core/errors.js';

interface Owner {
  pid: number;
  host: string;
  since: string;
}

/** What is found at the lock's path when it cannot be created. */
type Found =
  | { type: 'gone' }
  | { type: 'owner'; owner: Owner; text: string }
  | { type: 'unreadable'; text: string }
  | { type: 'not-a-file'; what: string };

/**
 * One apply at a time per state directory: `<stateDir>/apply.lock`, holding the owner's
 * pid, host and start time. Two applies from one checkout (a developer's second terminal,
 * two jobs of one CI runner) would both create what the plan creates, and objects the
 * platform does not keep unique (locations, block lists…) would exist twice.
 *
 * Taking the lock is atomic: the owner is written to a temporary file, which is then linked
 * into place (link fails when the lock exists), so the lock is never seen empty or half
 * written. A lock whose owner is not running on this host any more is taken over: it is
 * renamed away, checked to be the very lock judged stale, and only then removed, so two
 * runs taking over one stale lock cannot both win. A lock that names no owner is never
 * taken over. Runs on other machines do not share the file: CI serialises them (docs/reliability.md).
 */
export class ApplyLock {
  private constructor(
    readonly path: string,
    private readonly text: string,
  ) {}

  static async acquire(stateDir: string): Promise<{ lock: ApplyLock; tookOver?: string }> {
    try {
      await mkdir(stateDir, { recursive: true });
    } catch (error) {
      throw new SwitchboardError('SB_APPLY_LOCK', `cannot create the state directory ${stateDir}: ${reason(error)}`);
    }
    const path = join(stateDir, 'apply.lock');
    const owner: Owner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    // The nonce makes this run's lock text unique, so a takeover recognises the lock it judged.
    const text = `${JSON.stringify({ ...owner, nonce: randomBytes(8).toString('hex') })}\n`;
    let tookOver: string | undefined;
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await place(path, text)) return { lock: new ApplyLock(path, text), ...(tookOver ? { tookOver } : {}) };
        const found = await inspect(path);
        if (found.type === 'gone') continue;
        if (found.type === 'not-a-file') {
          throw new SwitchboardError(
            'SB_APPLY_LOCK',
            `${path} is ${found.what}, not a lock file: switchboard keeps nothing else there; remove it, then run again`,
          );
        }
        if (found.type === 'unreadable') {
          throw new SwitchboardError(
            'SB_APPLY_LOCKED',
            `${path} exists but does not name its owner: if no other apply is running from this state directory, delete the file`,
          );
        }
        const held = found.owner;
        if (held.host === owner.host && isAlive(held.pid)) {
          throw new SwitchboardError(
            'SB_APPLY_LOCKED',
            `another apply is running from this state directory (pid ${held.pid} since ${held.since}, ${path}): wait for it to end; if it is gone, delete the file`,
          );
        }
        if (held.host !== owner.host) {
          throw new SwitchboardError(
            'SB_APPLY_LOCKED',
            `${path} is held by an apply on ${held.host} (pid ${held.pid} since ${held.since}): wait for it to end; if it is gone, delete the file`,
          );
        }
        if (await removeIfUnchanged(path, found.text)) {
          tookOver = `a lock left by pid ${held.pid} (${held.since}), which is no longer running, was taken over`;
        }
      }
      throw new SwitchboardError('SB_APPLY_LOCKED', `cannot take ${path}: another apply took it first`);
    } catch (error) {
      // A run that removed a stale lock and then lost the race for the new one says so:
      // the winner found no lock and cannot know that a stale one was there.
      if (!(error instanceof SwitchboardError) || tookOver === undefined) throw error;
      throw new SwitchboardError(error.code, `${error.message}; before that, this run found that ${tookOver}`);
    }
  }

  /**
   * As `release`, synchronously: for a process ending at once (`process.on('exit')`, a
   * second Ctrl-C), where nothing asynchronous runs any more.
   */
  releaseSync(): void {
    try {
      if (readFileSync(this.path, 'utf8') === this.text) rmSync(this.path, { force: true });
    } catch {
      // gone already, or unreadable: the next run judges what is there
    }
  }

  /** Removes the lock if it is still this run's (failures are left for the next run to judge). */
  async release(): Promise<void> {
    const text = await readFile(this.path, 'utf8').catch(() => undefined);
    if (text === this.text) await rm(this.path, { force: true }).catch(() => undefined);
  }
}

/** Links a complete lock file into place: true when placed, false when something is there. */
async function place(path: string, text: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { flag: 'wx', mode: 0o600 });
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new SwitchboardError('SB_APPLY_LOCK', `cannot create ${path}: ${reason(error)}`);
  } finally {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

async function inspect(path: string): Promise<Found> {
  try {
    const stat = await lstat(path);
    if (stat.isDirectory()) return { type: 'not-a-file', what: 'a directory' };
    if (!stat.isFile() && !stat.isSymbolicLink()) return { type: 'not-a-file', what: 'not a regular file' };
    const text = await readFile(path, 'utf8');
    const owner = parseOwner(text);
    return owner ? { type: 'owner', owner, text } : { type: 'unreadable', text };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { type: 'gone' };
    throw new SwitchboardError('SB_APPLY_LOCK', `cannot read ${path}: ${reason(error)}`);
  }
}

/**
 * Removes a stale lock only if it is still the one judged stale: renamed away first (one
 * atomic step), compared, and put back if another run had replaced it meanwhile.
 */
async function removeIfUnchanged(path: string, judged: string): Promise<boolean> {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new SwitchboardError('SB_APPLY_LOCK', `cannot take over ${path}: ${reason(error)}`);
  }
  try {
    if ((await readFile(aside, 'utf8')) === judged) return true;
    await link(aside, path).catch(() => undefined); // a live run's lock: back where it was
    return false;
  } finally {
    await rm(aside, { force: true }).catch(() => undefined);
  }
}

function parseOwner(text: string): Owner | undefined {
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; host?: unknown; since?: unknown };
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return undefined;
    return { pid: parsed.pid, host: parsed.host, since: String(parsed.since) };
  } catch {
    return undefined;
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

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
