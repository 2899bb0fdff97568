/**
 * `switchboard audit`: journals merged into one table, a row per change a run applied (or
 * failed, or skipped), each with what the run's record says about it: who (the platform
 * user, the CI actors, the approvers), from which review and plan (the pull request, the
 * plan's and the change set's digests), at which commit, in which CI run, and which fields
 * it set, before → after. A line that is not JSON (torn: the run was killed while writing
 * it) or not a journal line (foreign) is reported with its file:line and skipped; nothing
 * in a journal makes the audit fail.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SwitchboardError } from '../core/errors.js';
import { assertRegularFile } from '../core/safe-write.js';
import { isPlainObject } from '../core/values.js';
import { matchesPattern } from '../plan/targets.js';
import type { FieldChange, RunRecord } from './journal.js';

/** One change of one run, as the audit lists it. */
export interface AuditRow {
  time: string;
  /** The platform profile's username (the routing engine's user for a routing-only run); '' when not recorded. */
  actor: string;
  /** How the actor logged in: password, totp or token. */
  login: string;
  /** Who started the CI run (GITHUB_ACTOR, GITLAB_USER_LOGIN): from the environment, not authenticated. */
  ciActor: string;
  /** Who triggered this attempt of the run (GITHUB_TRIGGERING_ACTOR, a re-run): from the environment. */
  triggeringActor: string;
  /** Who approved the apply (the deployment environment's reviewers), as the workflow passed it. */
  approvedBy: string[];
  /** The pull request the applied commit was merged from, as the workflow passed it; null when none. */
  pullRequest: number | null;
  /** Its address, when the CI run's variables give the repository's. */
  pullRequestUrl: string;
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
  planDigest: string;
  /** The applied plan's change-set digest. */
  changeSetDigest: string;
  /** The change-set digest reviewed on the pull request, as the workflow passed it. */
  reviewedChangeSet: string;
  /** `file <path>` for a saved plan, `planned in this run`, or '' when not recorded. */
  plan: string;
  /** The manifests repository's commit. */
  commit: string;
  /** Whether the manifests differed from the commit; null when not recorded. */
  dirty: boolean | null;
  /** The CI run's address (or its system and id). */
  ciRun: string;
  runId: string;
  /** `apply --emergency-change TICKET`: the run's ticket (it applied changes outside their change window); '' when none. */
  emergencyChange: string;
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

interface RunContext {
  runId: string;
  record: Partial<RunRecord>;
  statuses: Map<string, number>;
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

/**
 * The journal files `paths` name: a file as given (whatever its name), a folder's `*.jsonl`
 * files at any depth. Symbolic links inside a folder are not followed (a committed history
 * folder is data from the repository; a link could point anywhere): each is reported.
 */
async function journalFiles(paths: readonly string[], problems: AuditProblem[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      throw new SwitchboardError('SB_AUDIT', `cannot read the journal ${path}: ${(error as Error).message}`);
    }
    if (info.isFile()) files.push(path);
    else if (info.isDirectory()) {
      const found = await walk(path, problems);
      if (found.length === 0)
        throw new SwitchboardError('SB_AUDIT', `no journal (*.jsonl) in the folder ${path} or below it`);
      files.push(...found);
    } else throw new SwitchboardError('SB_AUDIT', `${path} is neither a journal file nor a folder of journals`);
  }
  return [...new Set(files)];
}

async function walk(dir: string, problems: AuditProblem[]): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new SwitchboardError('SB_AUDIT', `cannot read the folder ${dir}: ${(error as Error).message}`);
  }
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) problems.push({ file: path, line: 0, reason: 'a symbolic link: not followed' });
    else if (entry.isDirectory()) found.push(...(await walk(path, problems)));
    else if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push(path);
  }
  return found;
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
      const fields = fieldsOf(line['fields']);
      if (fields === undefined) problems.push({ file, line: number, reason: 'its fields are not readable: left out' });
      rows.push(rowOf(line, fields ?? null, context, `${file}:${number}`));
    } else if (line['type'] === 'verify') {
      // A RoutingTest verified live (apply --verify, verify): a row with the action `verify`.
      rows.push(rowOf({ ...line, action: 'verify' }, null, context, `${file}:${number}`));
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

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function rowOf(line: Record<string, unknown>, fields: FieldChange[] | null, context: RunContext, where: string) {
  const record = context.record;
  const address = String(line['address']);
  const actor =
    record.actor ??
    (record.routingActor
      ? { username: record.routingActor.username ?? '', login: record.routingActor.login }
      : undefined);
  const plan = record.plan;
  const ci = record.ci;
  const vars: Record<string, unknown> = isPlainObject(ci?.vars) ? ci.vars : {};
  const review = isPlainObject(record.review) ? record.review : {};
  const pullRequest = Number.isSafeInteger(review.pullRequest) ? (review.pullRequest as number) : null;
  const repository = text(vars['GITHUB_SERVER_URL']) && text(vars['GITHUB_REPOSITORY']);
  const row: AuditRow = {
    time: String(line['at']),
    actor: actor?.username ?? '',
    login: actor?.login ?? '',
    ciActor: text(vars['GITHUB_ACTOR']) || text(vars['GITLAB_USER_LOGIN']),
    triggeringActor: text(vars['GITHUB_TRIGGERING_ACTOR']),
    approvedBy: Array.isArray(review.approvedBy) ? review.approvedBy.filter((l) => typeof l === 'string') : [],
    pullRequest,
    pullRequestUrl:
      pullRequest !== null && repository
        ? `${text(vars['GITHUB_SERVER_URL'])}/${text(vars['GITHUB_REPOSITORY'])}/pull/${pullRequest}`
        : '',
    address,
    previousAddress: text(line['previousAddress']),
    kind: text(line['kind']),
    action: String(line['action']),
    outcome: String(line['outcome']),
    fields,
    httpStatus: context.statuses.get(address) ?? null,
    planDigest: plan?.digest ?? '',
    changeSetDigest: text((plan as Record<string, unknown> | undefined)?.['changeSetDigest']),
    reviewedChangeSet: text(review.reviewedChangeSet),
    plan: plan ? (plan.source === 'file' ? `file ${plan.file}` : plan.source) : '',
    commit: record.git?.commit ?? '',
    dirty: record.git ? record.git.dirty : null,
    ciRun: ci ? (ci.url ?? `${ci.system} ${Object.values(ci.vars).join(' ')}`) : '',
    runId: context.runId,
    emergencyChange: isPlainObject(record.emergencyChange) ? text(record.emergencyChange.ticket) : '',
    message: text(line['message']),
    journal: where,
  };
  return row;
}
