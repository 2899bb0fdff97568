import { writeSync } from 'node:fs';
import { mkdir, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SwitchboardError } from '../core/errors.js';
import { openForAppend } from '../core/safe-write.js';
import { maskSecrets } from '../core/secrets.js';

/**
 * Who applied what from where, in a run's start line: the actor (the platform profile's
 * username and how it logged in; the routing engine's user when it has one), the plan's
 * digest and where the plan came from, the manifests' digest, switchboard's version, the
 * manifests repository's commit (when there is one) and the CI run (when there is one).
 */
export interface RunRecord {
  actor?: { username: string; login: 'password' | 'totp' | 'token' };
  routingActor?: { username?: string; login: 'password' | 'token' };
  /** `digest` is null for a plan file made before plans carried one. */
  plan:
    { digest: string | null; source: 'file'; file: string } | { digest: string | null; source: 'planned in this run' };
  manifests: { digest: string; files: number };
  tool: { name: 'switchboard'; version: string };
  /** `dirty`: the manifests differed from the commit (uncommitted or untracked files). */
  git?: { commit: string; dirty: boolean };
  /** The identifying variables of the CI run (GITHUB_*, CI_*), and its address. */
  ci?: { system: string; url?: string; vars: Record<string, string> };
}

/**
 * One line of the journal. Never a body, a token or a secret: the method, the path (ids
 * only), the change it belongs to, and what came back (status, created id, error code and
 * the platform's message).
 */
export type JournalEntry =
  | ({
      type: 'run';
      event: 'start';
      runId: string;
      target?: { baseUrl: string; instance: string };
      changes?: number;
    } & Partial<RunRecord>)
  | {
      type: 'run';
      event: 'end';
      runId: string;
      summary?: Record<string, number>;
    }
  | { type: 'intent'; seq: number; address: string; method: string; path: string; purpose: string }
  | {
      type: 'outcome';
      seq: number;
      address: string;
      ok: boolean;
      status?: number;
      id?: string;
      code?: string;
      message?: string;
      ms: number;
    }
  | {
      type: 'change';
      address: string;
      action: string;
      /** `unknown`: its request was sent and no answer came; it may have been applied (a failure, counted apart). */
      outcome: 'applied' | 'failed' | 'unknown' | 'skipped';
      message?: string;
      source?: string;
    };

/** The default journal file: `<stateDir>/journal-<timestamp>.jsonl`. */
export function defaultJournalPath(stateDir: string, now: Date = new Date()): string {
  return join(stateDir, `journal-${now.toISOString().replace(/[:.]/g, '-')}.jsonl`);
}

/** How long a written line may wait for its fsync (the window a machine crash could lose). */
export const JOURNAL_SYNC_INTERVAL_MS = 50;

/**
 * An append-only JSON-lines file. `append` writes the line at once, synchronously: when it
 * returns, the operating system has the line, and a killed process can no longer lose it.
 * Lines reach the disk (fsync) within {@link JOURNAL_SYNC_INTERVAL_MS}, one fsync for all
 * the lines written meanwhile, and at `sync` and `close`. Nobody waits for the disk before
 * sending a request: see README "Design decisions", journal durability.
 */
export class Journal {
  private seq = 0;
  private unsynced = false;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private syncError: SwitchboardError | undefined;

  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
  ) {}

  static async open(path: string): Promise<Journal> {
    try {
      await mkdir(dirname(path), { recursive: true });
      return new Journal(await openForAppend(path, 0o600), path);
    } catch (error) {
      throw new SwitchboardError('SB_JOURNAL', `cannot open the journal ${path}: ${(error as Error).message}`);
    }
  }

  /** A sequence number pairing a request's intent with its outcome. */
  nextSeq(): number {
    return ++this.seq;
  }

  /** Writes the line now; throws SB_JOURNAL when it cannot be written. */
  append(entry: JournalEntry): void {
    this.appendAll([entry]);
  }

  /** Writes the lines now, in one write (the rows of a routing table); throws SB_JOURNAL when they cannot be written. */
  appendAll(entries: readonly JournalEntry[]): void {
    if (entries.length === 0) return;
    const at = new Date().toISOString();
    // A platform message may quote a header or a body: known secrets are masked here.
    const text = entries.map((entry) => `${JSON.stringify({ at, ...entry })}\n`).join('');
    const bytes = Buffer.from(maskSecrets(text));
    try {
      // A write to a regular file is normally whole; a short one (disk full) is continued or fails.
      for (let offset = 0; offset < bytes.length;) offset += writeSync(this.handle.fd, bytes, offset);
    } catch (error) {
      throw new SwitchboardError('SB_JOURNAL', `cannot write the journal ${this.path}: ${(error as Error).message}`);
    }
    this.unsynced = true;
    this.timer ??= setTimeout(() => void this.syncOnce(), JOURNAL_SYNC_INTERVAL_MS);
  }

  /** Every line written so far is on disk when this resolves; rejects if any sync failed. */
  async sync(): Promise<void> {
    while (this.syncing || this.unsynced) await (this.syncing ?? this.syncOnce());
    if (this.syncError) throw this.syncError;
  }

  async close(): Promise<void> {
    try {
      await this.sync();
    } finally {
      await this.handle.close();
    }
  }

  private syncOnce(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.syncing ??= this.fsync().finally(() => {
      this.syncing = undefined;
      if (this.unsynced) this.timer ??= setTimeout(() => void this.syncOnce(), JOURNAL_SYNC_INTERVAL_MS);
    });
    return this.syncing;
  }

  private async fsync(): Promise<void> {
    this.unsynced = false;
    try {
      await this.handle.sync();
    } catch (error) {
      this.syncError ??= new SwitchboardError(
        'SB_JOURNAL',
        `cannot sync the journal ${this.path}: ${(error as Error).message}`,
      );
    }
  }
}
