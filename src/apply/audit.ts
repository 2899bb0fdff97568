/**
 * `switchboard audit`: journals merged into one table, a row per change a run applied (or
 * failed, or skipped), each with what the run's record says about it: who, from which plan
 * (its digest), at which commit, in which CI run. A line that is not JSON (torn: the run
 * was killed while writing it) or not a journal line (foreign) is reported with its
 * file:line and skipped; nothing in a journal makes the audit fail.
 */
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { SwitchboardError } from '../core/errors.js';
import { assertRegularFile } from '../core/safe-write.js';
import { isPlainObject } from '../core/values.js';
import type { RunRecord } from './journal.js';

/** One change of one run, as the audit lists it. */
export interface AuditRow {
  time: string;
  /** The platform profile's username (the routing engine's user for a routing-only run); '' when not recorded. */
  actor: string;
  /** How the actor logged in: password, totp or token. */
  login: string;
  address: string;
  action: string;
  outcome: string;
  /** The status of the change's last request, when it had one of its own. */
  httpStatus: number | null;
  planDigest: string;
  /** `file <path>` for a saved plan, `planned in this run`, or '' when not recorded. */
  plan: string;
  /** The manifests repository's commit. */
  commit: string;
  /** Whether the manifests differed from the commit; null when not recorded. */
  dirty: boolean | null;
  /** The CI run's address (or its system and id). */
  ciRun: string;
  runId: string;
  /** What the change line says besides (a failure's message, a skip's reason). */
  message: string;
  /** Where the line is: `journal.jsonl:42`. */
  journal: string;
}

/** A line the audit could not use. */
export interface AuditProblem {
  file: string;
  line: number;
  reason: string;
}

export interface AuditFilter {
  /** Changes at or after this time. */
  since?: Date;
  /** Addresses matching any of these globs (`*` any characters, `?` one). */
  addresses?: readonly string[];
}

export interface AuditResult {
  rows: AuditRow[];
  problems: AuditProblem[];
}

interface RunContext {
  runId: string;
  record: Partial<RunRecord>;
  statuses: Map<string, number>;
}

/** Reads every journal (in the order given), keeps the rows the filter lets through, oldest first. */
export async function auditJournals(files: readonly string[], filter: AuditFilter = {}): Promise<AuditResult> {
  const rows: AuditRow[] = [];
  const problems: AuditProblem[] = [];
  for (const file of files) {
    try {
      await access(file);
      await assertRegularFile(file); // a FIFO would hang the read, a folder fail inside it
    } catch (error) {
      throw new SwitchboardError('SB_AUDIT', `cannot read the journal ${file}: ${(error as Error).message}`);
    }
    await readJournal(file, rows, problems);
  }
  const globs = (filter.addresses ?? []).map(globPattern);
  const since = filter.since?.getTime();
  const kept = rows.filter(
    (row) =>
      (since === undefined || Date.parse(row.time) >= since) &&
      (globs.length === 0 || globs.some((g) => g.test(row.address))),
  );
  // Stable: rows of the same instant stay in journal order.
  kept.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  return { rows: kept, problems };
}

/** `*` any run of characters (slashes too: `tenant/acme*` takes its subtree), `?` one. */
export function globPattern(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 's');
}

async function readJournal(file: string, rows: AuditRow[], problems: AuditProblem[]): Promise<void> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let context: RunContext = { runId: '', record: {}, statuses: new Map() };
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
    if (line['type'] === 'run' && line['event'] === 'start') {
      context = { runId: String(line['runId'] ?? ''), record: line as Partial<RunRecord>, statuses: new Map() };
    } else if (line['type'] === 'outcome' && typeof line['status'] === 'number') {
      context.statuses.set(String(line['address']), line['status']);
    } else if (line['type'] === 'change') {
      rows.push(rowOf(line, context, `${file}:${number}`));
    }
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
      return ['address', 'action', 'outcome'].every((k) => typeof entry[k] === 'string')
        ? ''
        : 'a change without address, action and outcome';
    default:
      return `unknown type ${JSON.stringify(entry['type'])}`;
  }
}

function rowOf(line: Record<string, unknown>, context: RunContext, where: string): AuditRow {
  const record = context.record;
  const address = String(line['address']);
  const actor =
    record.actor ??
    (record.routingActor
      ? { username: record.routingActor.username ?? '', login: record.routingActor.login }
      : undefined);
  const plan = record.plan;
  const ci = record.ci;
  return {
    time: String(line['at']),
    actor: actor?.username ?? '',
    login: actor?.login ?? '',
    address,
    action: String(line['action']),
    outcome: String(line['outcome']),
    httpStatus: context.statuses.get(address) ?? null,
    planDigest: plan?.digest ?? '',
    plan: plan ? (plan.source === 'file' ? `file ${plan.file}` : plan.source) : '',
    commit: record.git?.commit ?? '',
    dirty: record.git ? record.git.dirty : null,
    ciRun: ci ? (ci.url ?? `${ci.system} ${Object.values(ci.vars).join(' ')}`) : '',
    runId: context.runId,
    message: typeof line['message'] === 'string' ? line['message'] : '',
    journal: where,
  };
}
