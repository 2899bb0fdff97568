/**
 * `switchboard audit`: journals merged into one table, a row per change a run applied (or
 * failed, or skipped), each with what the run's record says about it: who (the platform
 * user, the CI actors, the approvers), from which review and plan (the pull request, the
 * plan's and the change set's digests), at which commit, in which CI run, and which fields
 * it set, before → after. A line that is not JSON (torn: the run was killed while writing
 * it) or not a journal line (foreign) is reported with its file:line and skipped; a run
 * record member of the wrong type is reported and left out (audit-record.ts); a run without
 * an end line is reported, and the changes it had sent a request for without an outcome
 * are rows of outcome `unknown`. Nothing in a journal makes the audit fail.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { SwitchboardError } from '../core/errors.js';
import { assertRegularFile } from '../core/safe-write.js';
import { isPlainObject } from '../core/values.js';
import { matchesPattern } from '../plan/targets.js';
import { globPattern, journalFiles } from './audit-files.js';
import { NO_RECORD, runFacts, type RunFacts } from './audit-record.js';
import type { FieldChange } from './journal.js';

export { globPattern } from './audit-files.js';

/** One change of one run, as the audit lists it: the run's facts, and the change's own columns. */
export interface AuditRow extends RunFacts {
  time: string;
  address: string;
  /** The address the object had before a rename, when the change renamed it. */
  previousAddress: string;
  kind: string;
  action: string;
  outcome: string;
  /** The fields the change set, before → after (masked as in the plan); null when the journal did not record them. */
  fields: FieldChange[] | null;
  /** The status of the change's last request, when it had one of its own. */
  httpStatus: number | null;
  /** What the change line says besides (a failure's message, a skip's reason). */
  message: string;
  /** Where the line is: `journal.jsonl:42`. */
  journal: string;
}

/** A line (or a file) the audit could not use. */
export interface AuditProblem {
  file: string;
  /** 0 for the file as a whole. */
  line: number;
  reason: string;
  /** The line was read, and this is said about it (a member left out, a run that did not finish); else it was skipped. */
  note?: boolean;
}

export interface AuditFilter {
  /** Changes at or after this time. */
  since?: Date;
  /** Changes before this time (so that `--since` and `--until` of consecutive periods never overlap). */
  until?: Date;
  /** Addresses matching any of these globs (`*` any characters, `?` one). */
  addresses?: readonly string[];
  /** Addresses matching any of these patterns, as `plan --target` matches them (an address, its subtree, `prefix*`). */
  targets?: readonly string[];
}

export interface AuditResult {
  rows: AuditRow[];
  problems: AuditProblem[];
  /** The journal files read, in order. */
  files: string[];
}

/** What `audit` knows of the run a line belongs to (the last start line before it). */
interface RunContext {
  facts: RunFacts;
  /** Where its start line is; '' before any. */
  start: { file: string; line: number } | undefined;
  ended: boolean;
  statuses: Map<string, number>;
  /** The last write each address was sent (or about to be), until a change line says what became of it. */
  pending: Map<string, PendingWrite>;
}

interface PendingWrite {
  time: string;
  method: string;
  path: string;
  purpose: string;
  where: string;
}

/**
 * Reads every journal (files in the order given; a folder's `*.jsonl` files, at any depth,
 * in path order) and keeps the rows the filter lets through, oldest first.
 */
export async function auditJournals(paths: readonly string[], filter: AuditFilter = {}): Promise<AuditResult> {
  const rows: AuditRow[] = [];
  const problems: AuditProblem[] = [];
  const files = await journalFiles(paths, problems);
  for (const file of files) {
    try {
      await assertRegularFile(file); // a FIFO would hang the read, a folder fail inside it
      await readJournal(file, rows, problems);
    } catch (error) {
      throw new SwitchboardError('SB_AUDIT', `cannot read the journal ${file}: ${(error as Error).message}`);
    }
  }
  const globs = (filter.addresses ?? []).map(globPattern);
  const targets = filter.targets ?? [];
  const since = filter.since?.getTime();
  const until = filter.until?.getTime();
  const named = (row: AuditRow, matches: (address: string) => boolean) =>
    matches(row.address) || (row.previousAddress !== '' && matches(row.previousAddress));
  const kept = rows.filter((row) => {
    const time = Date.parse(row.time);
    return (
      (since === undefined || time >= since) &&
      (until === undefined || time < until) &&
      (globs.length === 0 || named(row, (a) => globs.some((g) => g.test(a)))) &&
      (targets.length === 0 || named(row, (a) => targets.some((t) => matchesPattern(t, a))))
    );
  });
  // Stable: rows of the same instant stay in journal order.
  kept.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  return { rows: kept, problems, files };
}

async function readJournal(file: string, rows: AuditRow[], problems: AuditProblem[]): Promise<void> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let context = newContext(NO_RECORD);
  let number = 0;
  for await (const text of lines) {
    number += 1;
    if (text.trim() === '') continue;
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      problems.push({ file, line: number, reason: 'torn line (not JSON): the run was stopped while writing it?' });
      continue;
    }
    const why = foreign(entry);
    if (why) {
      problems.push({ file, line: number, reason: `not a switchboard journal line (${why})` });
      continue;
    }
    const line = entry as Record<string, unknown>;
    const where = `${file}:${number}`;
    if (line['type'] === 'run' && line['event'] === 'start') {
      unfinished(context, rows, problems);
      const at = number;
      const report = (reason: string) => problems.push({ file, line: at, reason, note: true });
      context = newContext(runFacts(line, report), { file, line: number });
    } else if (line['type'] === 'run') {
      context.ended = true;
    } else if (line['type'] === 'intent') {
      const method = textOf(line['method']);
      if (method !== 'GET' && method !== 'HEAD')
        context.pending.set(String(line['address']), {
          time: String(line['at']),
          method,
          path: textOf(line['path']),
          purpose: textOf(line['purpose']),
          where,
        });
    } else if (line['type'] === 'outcome' && typeof line['status'] === 'number') {
      context.statuses.set(String(line['address']), line['status']);
    } else if (line['type'] === 'change') {
      const fields = fieldsOf(line['fields']);
      if (fields === undefined) problems.push({ file, line: number, reason: 'its fields are not readable: left out' });
      settle(context.pending, String(line['address']));
      rows.push(rowOf(line, fields ?? null, context, where));
    } else if (line['type'] === 'verify') {
      // A RoutingTest verified live (apply --verify, verify): a row with the action `verify`.
      rows.push(rowOf({ ...line, action: 'verify' }, null, context, where));
    }
  }
  unfinished(context, rows, problems);
}

function newContext(facts: RunFacts, start?: { file: string; line: number }): RunContext {
  return { facts, start, ended: false, statuses: new Map(), pending: new Map() };
}

/**
 * A change line settles the writes of its address and, for a routing table's one write of
 * its rows (`ROUTING`, under the table's address), those of the table: its rows' lines are
 * written together once the table is done.
 */
function settle(pending: Map<string, PendingWrite>, address: string): void {
  pending.delete(address);
  for (const [at, write] of pending) if (write.method === 'ROUTING' && address.startsWith(`${at}/`)) pending.delete(at);
}

/**
 * A run with a start line and no end line did not finish (it was killed, or the machine
 * stopped): it is reported, and each address it had sent a write for without writing what
 * became of the change is a row with the outcome `unknown`, as a change sent and never
 * answered is: it may have been applied.
 */
function unfinished(context: RunContext, rows: AuditRow[], problems: AuditProblem[]): void {
  const { start } = context;
  if (!start || context.ended) return;
  const open = context.pending.size;
  problems.push({
    ...start,
    note: true,
    reason: `run ${context.facts.runId || '(no id)'} has no end line: it did not finish (killed?)${
      open > 0 ? `; ${open} change(s) it had sent a request for are listed with the outcome unknown` : ''
    }`,
  });
  for (const [address, write] of context.pending) {
    const status = context.statuses.get(address);
    const answer = status === undefined ? 'no answer recorded' : `answered ${status}`;
    const word = write.purpose.split(' ')[0] ?? '';
    const line = {
      at: write.time,
      address,
      action: /^[a-z]+$/.test(word) ? word : write.method.toLowerCase(),
      outcome: 'unknown',
      message: `the run did not finish: its last request for this change (${write.purpose}: ${write.method} ${write.path}) was sent, ${answer}, and no outcome was written; it may have been applied`,
    };
    rows.push(rowOf(line, null, context, write.where));
  }
}

/** Why a parsed line is not one of the journal's, or '' when it is. */
function foreign(entry: unknown): string {
  if (!isPlainObject(entry)) return 'not an object';
  if (typeof entry['at'] !== 'string' || Number.isNaN(Date.parse(entry['at']))) return 'no time';
  switch (entry['type']) {
    case 'run':
      return entry['event'] === 'start' || entry['event'] === 'end' ? '' : 'a run line without start or end';
    case 'intent':
    case 'outcome':
      return typeof entry['address'] === 'string' ? '' : `an ${entry['type']} without an address`;
    case 'change':
      // Any outcome word: a newer switchboard may record outcomes this one does not know.
      return ['address', 'action', 'outcome'].every((k) => typeof entry[k] === 'string')
        ? ''
        : 'a change without address, action and outcome';
    case 'verify':
      return ['address', 'outcome'].every((k) => typeof entry[k] === 'string')
        ? ''
        : 'a verify line without address and outcome';
    default:
      return `unknown type ${JSON.stringify(entry['type'])}`;
  }
}

/** A change line's fields: null when it has none (a journal written before they were), undefined when malformed. */
function fieldsOf(value: unknown): FieldChange[] | null | undefined {
  if (value === undefined) return null;
  if (!Array.isArray(value)) return undefined;
  const ok = value.every((f) => isPlainObject(f) && typeof f['field'] === 'string');
  return ok ? (value as FieldChange[]) : undefined;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function rowOf(line: Record<string, unknown>, fields: FieldChange[] | null, context: RunContext, where: string) {
  const address = String(line['address']);
  const facts = context.facts;
  // Members in the order `--format json` has always printed them.
  const row: AuditRow = {
    time: String(line['at']),
    actor: facts.actor,
    login: facts.login,
    ciActor: facts.ciActor,
    triggeringActor: facts.triggeringActor,
    approvedBy: [...facts.approvedBy],
    pullRequest: facts.pullRequest,
    pullRequestUrl: facts.pullRequestUrl,
    address,
    previousAddress: textOf(line['previousAddress']),
    kind: textOf(line['kind']),
    action: String(line['action']),
    outcome: String(line['outcome']),
    fields,
    httpStatus: context.statuses.get(address) ?? null,
    planDigest: facts.planDigest,
    changeSetDigest: facts.changeSetDigest,
    reviewedChangeSet: facts.reviewedChangeSet,
    plan: facts.plan,
    commit: facts.commit,
    dirty: facts.dirty,
    ciRun: facts.ciRun,
    runId: facts.runId,
    emergencyChange: facts.emergencyChange,
    message: textOf(line['message']),
    journal: where,
  };
  return row;
}
