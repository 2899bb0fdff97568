import { writeSync } from 'node:fs';
import { mkdir, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SwitchboardError } from '../core/errors.js';
import { openForAppend } from '../core/safe-write.js';
import { maskCredentials, maskSecrets } from '../core/secrets.js';
import { canonicalJson } from '../core/canonical-json.js';
import { fieldOrder, redactChange, topField } from '../plan/render-common.js';
import type { Change } from '../plan/types.js';

/**
 * Who applied what from where, in a run's start line: the actor (the platform profile's
 * username and how it logged in; the routing engine's user when it has one), the plan's
 * digest and where the plan came from, the manifests' digest, switchboard's version, the
 * manifests repository's commit (when there is one), the CI run (when there is one) and
 * what the CI says about the review. `sources` says which of these members prove what.
 */
export interface RunRecord {
  actor?: { username: string; login: 'password' | 'totp' | 'token' };
  routingActor?: { username?: string; login: 'password' | 'token' };
  /**
   * The plan's digest (null for a plan file made before plans carried one) and its change
   * set's (what it does: the same on the pull request and after the merge when nothing else
   * changed; absent for plans made before it existed).
   */
  plan: ({ source: 'file'; file: string } | { source: 'planned in this run' }) & {
    digest: string | null;
    changeSetDigest?: string;
  };
  manifests: { digest: string; files: number };
  tool: { name: 'switchboard'; version: string };
  /** `dirty`: the manifests differed from the commit (uncommitted or untracked files). */
  git?: { commit: string; dirty: boolean };
  /** The identifying variables of the CI run (GITHUB_*, CI_*), and its address. */
  ci?: { system: string; url?: string; vars: Record<string, string> };
  /** The review the CI workflow says this apply comes from (review.ts: environment variables). */
  review?: ReviewRecord;
  /**
   * `apply --emergency-change TICKET` (docs/assurance.md): the ticket, and the change windows
   * the run applied changes outside of (none when every change was inside its window).
   */
  emergencyChange?: { ticket: string; windows: string[]; changes: number };
  /** The clock the change windows were read with, when it was not the system's. */
  clock?: { source: string; at: string };
  /** Where each member above comes from (see {@link RecordSource}); members absent from the record are absent here. */
  sources?: Partial<Record<RecordMember, RecordSource>>;
}

/**
 * What the workflow found about the review, passed in environment variables: the pull
 * request the applied commit was merged from, the change-set digest reviewed on it, and
 * who approved the apply (the deployment environment's reviewers).
 */
export interface ReviewRecord {
  pullRequest?: number;
  reviewedChangeSet?: string;
  approvedBy?: string[];
}

export type RecordMember = Exclude<keyof RunRecord, 'sources'>;

/**
 * - `authenticated`: the user the platform (or the routing engine) accepted the login of
 *   and served its profile to: proven by the login itself.
 * - `computed`: computed by switchboard from what it read on this machine (the plan file,
 *   the manifests, the git repository, its own version): proves what this process saw.
 * - `environment`: copied from environment variables, which whoever starts switchboard can
 *   set to anything: a claim, not a proof.
 */
export type RecordSource = 'authenticated' | 'computed' | 'environment';

const MEMBER_SOURCES: Record<RecordMember, RecordSource> = {
  actor: 'authenticated',
  routingActor: 'authenticated',
  plan: 'computed',
  manifests: 'computed',
  tool: 'computed',
  git: 'computed',
  ci: 'environment',
  review: 'environment',
  // Given on the command line (or SWITCHBOARD_NOW) by whoever starts switchboard: claims.
  emergencyChange: 'environment',
  clock: 'environment',
};

/** The record with `sources` naming the source of each member it holds. */
export function withSources(record: RunRecord): RunRecord {
  const sources: Partial<Record<RecordMember, RecordSource>> = {};
  for (const [member, source] of Object.entries(MEMBER_SOURCES) as [RecordMember, RecordSource][])
    if (record[member] !== undefined) sources[member] = source;
  return { ...record, sources };
}

/**
 * One field a change sets, as the plan shows it: `before` absent for a field the object
 * gains, `after` absent for one it loses. Values are the plan's (manifest spelling), with
 * sensitive values as the plan's markers, never in clear.
 */
export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

/**
 * The fields `change` sets, before → after, in the order the plan renders them: a field
 * only one side has, and a field whose values differ or that the patch touches (a
 * sensitive field reads the same marker on both sides; only the patch says it changes).
 * Written for every change of an apply: values are compared without being rendered.
 */
export function fieldChanges(change: Change): FieldChange[] {
  const shown = redactChange(change);
  const before = shown.before ?? {};
  const after = shown.after ?? {};
  const touched = new Set<string>();
  for (const op of shown.patch) {
    const field = topField(op.path);
    if (field !== undefined) touched.add(field);
  }
  const names =
    shown.before === null
      ? Object.keys(after)
      : shown.after === null
        ? Object.keys(before)
        : [...new Set([...Object.keys(after), ...Object.keys(before)])];
  const fields: FieldChange[] = [];
  for (const field of names.sort(fieldOrder(change.kind))) {
    const inBefore = shown.before !== null && Object.hasOwn(before, field);
    const inAfter = shown.after !== null && Object.hasOwn(after, field);
    if (!inBefore) fields.push({ field, after: after[field] ?? null });
    else if (!inAfter) fields.push({ field, before: before[field] ?? null });
    else if (touched.has(field) || !sameValue(before[field], after[field]))
      fields.push({ field, before: before[field] ?? null, after: after[field] ?? null });
  }
  return fields;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonicalJson(a) === canonicalJson(b);
}

/** A change's outcome line: what became of it, and (from the plan) what it sets. */
export interface ChangeEntry {
  type: 'change';
  address: string;
  action: string;
  /** `unknown`: its request was sent and no answer came; it may have been applied (a failure, counted apart). */
  outcome: 'applied' | 'failed' | 'unknown' | 'skipped';
  message?: string;
  source?: string;
  /** Added by the journal from the plan's change (see {@link Journal.open}). */
  kind?: string;
  previousAddress?: string;
  fields?: FieldChange[];
}

/**
 * One line of the journal. Never a body, a token or a secret: the method, the path (ids
 * only), the change it belongs to, what came back (status, created id, error code and the
 * platform's message), and each change's fields as the plan shows them (sensitive values
 * masked).
 */
export type JournalEntry =
  | ({
      type: 'run';
      event: 'start';
      runId: string;
      /** The platform, and the routing engine when the run reads it (its rows are changed there). */
      target?: { baseUrl: string; instance: string; routingEngine?: string };
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
      /** A RoutingTest verified against the live engine (one line per test), or one of its vectors that did not pass. */
      type: 'verify';
      address: string;
      outcome: 'passed' | 'failed' | 'error';
      message?: string;
      source?: string;
    }
  | ChangeEntry;

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
 * sending a request: see docs/design-decisions.md "Apply", journal durability.
 *
 * Opened with the plan's changes, it completes each `change` line with the change's kind,
 * former address and fields before → after: the executors report outcomes, the journal
 * says what they were outcomes of.
 *
 * A line that cannot be written (a full disk) or synced fails the journal: {@link failed}
 * is aborted with the SB_JOURNAL error, and nothing more is written. The failed write itself
 * may leave a torn last line (a short write, then the error): audit lists it as torn and
 * reads the rest. A line that must be on record before something is done (a request's
 * intent, the run's start) then throws, and what it announced is not done; a line that says
 * what was done (an outcome, a change, the run's end) does not, since it cannot undo it.
 * An apply watches {@link failed} to start nothing more, as on Ctrl-C.
 */
export class Journal {
  private seq = 0;
  private unsynced = false;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private failure: SwitchboardError | undefined;
  private readonly failures = new AbortController();

  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
    private readonly changes: ReadonlyMap<string, Change>,
  ) {}

  /** `changes`: the plan's changes this run applies, whose fields each `change` line records. */
  static async open(path: string, options: { changes?: readonly Change[] } = {}): Promise<Journal> {
    const changes = new Map((options.changes ?? []).map((c) => [c.address, c]));
    try {
      await mkdir(dirname(path), { recursive: true });
      return new Journal(await openForAppend(path, 0o600), path, changes);
    } catch (error) {
      throw new SwitchboardError('SB_JOURNAL', `cannot open the journal ${path}: ${(error as Error).message}`);
    }
  }

  /** A sequence number pairing a request's intent with its outcome. */
  nextSeq(): number {
    return ++this.seq;
  }

  /** Aborted, with the SB_JOURNAL error as its reason, once a line could not be written or synced. */
  get failed(): AbortSignal {
    return this.failures.signal;
  }

  /** The first write or sync failure, if there was one. */
  get error(): SwitchboardError | undefined {
    return this.failure;
  }

  /** Writes the line now; throws SB_JOURNAL when it cannot be written and must come first (see the class). */
  append(entry: JournalEntry): void {
    this.appendAll([entry]);
  }

  /** Writes the lines now, in one write (the rows of a routing table); throws as {@link append}. */
  appendAll(entries: readonly JournalEntry[]): void {
    if (entries.length === 0) return;
    const first = entries.some(mustComeFirst);
    if (this.failure) {
      if (first) throw this.failure;
      return;
    }
    const at = new Date().toISOString();
    // A platform message may quote a header or a body: known secrets are masked here. The run
    // lines are switchboard's own record (commit, CI run, actor, digests), nothing of which
    // comes from a manifest: only credentials are masked there, so that a manifest naming a
    // value the record holds (`${GITHUB_SHA}`) cannot erase it (secrets.ts, maskCredentials).
    const text = entries
      .map((entry) => {
        const line = `${JSON.stringify({ at, ...this.complete(entry) })}\n`;
        return entry.type === 'run' ? maskCredentials(line) : maskSecrets(line);
      })
      .join('');
    const bytes = Buffer.from(text);
    try {
      // A write to a regular file is normally whole; a short one (disk full) is continued or fails.
      for (let offset = 0; offset < bytes.length;) offset += writeSync(this.handle.fd, bytes, offset);
    } catch (error) {
      this.fail(`cannot write the journal ${this.path}: ${(error as Error).message}`);
      if (first) throw this.failure;
      return;
    }
    this.unsynced = true;
    this.timer ??= setTimeout(() => void this.syncOnce(), JOURNAL_SYNC_INTERVAL_MS);
  }

  private fail(message: string): void {
    if (this.failure) return;
    this.failure = new SwitchboardError('SB_JOURNAL', message);
    this.failures.abort(this.failure);
  }

  /** A change line with what the plan says about its change (a change the plan lacks stays as it is). */
  private complete(entry: JournalEntry): JournalEntry {
    if (entry.type !== 'change' || entry.fields) return entry;
    const change = this.changes.get(entry.address);
    if (!change) return entry;
    return {
      ...entry,
      kind: change.kind,
      ...(change.previousAddress === undefined ? {} : { previousAddress: change.previousAddress }),
      fields: fieldChanges(change),
    };
  }

  /** Every line written so far is on disk when this resolves; rejects if a line could not be written or synced. */
  async sync(): Promise<void> {
    while (this.syncing || this.unsynced) await (this.syncing ?? this.syncOnce());
    if (this.failure) throw this.failure;
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
      this.fail(`cannot sync the journal ${this.path}: ${(error as Error).message}`);
    }
  }
}

/** A line that must be on record before what it announces is done: a request's intent, the run's start. */
function mustComeFirst(entry: JournalEntry): boolean {
  return entry.type === 'intent' || (entry.type === 'run' && entry.event === 'start');
}
