import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { link, lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
 * written. A lock whose owner is not running on this host any more is taken over. A lock
 * naming this very process's pid is such a lock unless this process holds it: in a container,
 * pids and the host name repeat from one run to the next, and a process always answers for
 * its own pid. A lock that names no owner is never taken over. Runs on other machines do not
 * share the file: CI serialises them (docs/reliability.md).
 *
 * A takeover removes the lock only while holding `<lock>.takeover` (created as the lock is),
 * and only if the lock is still the one judged stale. Nothing else removes a lock but its
 * owner, and nothing places one where one is, so between that check and the removal the
 * lock cannot change: two runs taking over one stale lock cannot both win, and a run that
 * judged a lock stale after another run replaced it never moves or removes the new one.
 */
/** The lock texts this process holds: its own pid in a lock is a live run only when it is one of these. */
const heldHere = new Set<string>();

/** How often, and how long apart, a run waits for another run's takeover to end. */
const TAKEOVER_WAITS = 40;
const TAKEOVER_WAIT_MS = 25;
/** Bounds the loop when locks keep appearing and going (runs ending as this one starts). */
const MAX_ATTEMPTS = 100;

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
      for (let attempt = 0, waits = 0; attempt < MAX_ATTEMPTS; attempt++) {
        if (await place(path, text)) {
          heldHere.add(text);
          return { lock: new ApplyLock(path, text), ...(tookOver ? { tookOver } : {}) };
        }
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
        if (held.host !== owner.host) {
          throw new SwitchboardError(
            'SB_APPLY_LOCKED',
            `${path} is held by an apply on ${held.host} (pid ${held.pid} since ${held.since}): wait for it to end; if it is gone, delete the file`,
          );
        }
        if (held.pid === process.pid ? heldHere.has(found.text) : isAlive(held.pid)) {
          throw new SwitchboardError(
            'SB_APPLY_LOCKED',
            `another apply is running from this state directory (pid ${held.pid} since ${held.since}, ${path}): wait for it to end; if it is gone, delete the file`,
          );
        }
        const removed = await removeStale(path, found.text);
        if (removed === 'removed')
          tookOver = `a lock left by pid ${held.pid} (${held.since}), which is no longer running, was taken over`;
        if (removed !== 'busy') continue;
        if (++waits > TAKEOVER_WAITS) {
          throw new SwitchboardError(
            'SB_APPLY_LOCKED',
            `${path}.takeover is left by a run that stopped while taking over a stale lock: if no other apply is running from this state directory, delete ${path}.takeover`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, TAKEOVER_WAIT_MS));
      }
      throw new SwitchboardError('SB_APPLY_LOCKED', `cannot take ${path}: other applies kept taking it`);
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
    heldHere.delete(this.text);
    try {
      if (readFileSync(this.path, 'utf8') === this.text) rmSync(this.path, { force: true });
    } catch {
      // gone already, or unreadable: the next run judges what is there
    }
  }

  /** Removes the lock if it is still this run's (failures are left for the next run to judge). */
  async release(): Promise<void> {
    heldHere.delete(this.text);
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
 * Removes a stale lock only if it is still the one judged stale, holding `<lock>.takeover`
 * meanwhile: `busy` when another run holds it (its takeover takes a few file operations).
 */
async function removeStale(path: string, judged: string): Promise<'removed' | 'changed' | 'busy'> {
  const mutex = `${path}.takeover`;
  const mine = `${JSON.stringify({ pid: process.pid, host: hostname(), nonce: randomBytes(8).toString('hex') })}\n`;
  if (!(await place(mutex, mine))) return 'busy';
  try {
    const now = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new SwitchboardError('SB_APPLY_LOCK', `cannot read ${path}: ${reason(error)}`);
    });
    if (now !== judged) return 'changed';
    try {
      await rm(path);
    } catch (error) {
      throw new SwitchboardError('SB_APPLY_LOCK', `cannot take over ${path}: ${reason(error)}`);
    }
    return 'removed';
  } finally {
    await rm(mutex, { force: true }).catch(() => undefined);
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
