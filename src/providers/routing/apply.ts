import type { ChangeEntry, Journal, JournalEntry } from '../../apply/journal.js';
import type { ChangeResult } from '../../apply/types.js';
import { notStartedReason } from '../../apply/walk.js';
import type { Change } from '../../plan/types.js';
import {
  executeRoutingChanges,
  routingAddress,
  type RoutingClient,
  type RowDiff,
  type RowSettlement,
} from '../../routing/index.js';
import { ROUTING_ROW, type RoutingTablePlan } from './plan.js';

/** What the routing tables' part of a run did (rows are counted, failures and skipped rows listed). */
export interface RoutingApplyResult {
  applied: number;
  failed: number;
  skipped: number;
  /** The rows refused (or a refused chunk, once), and every skipped row: what the summary lists. */
  failures: ChangeResult[];
  /** Rows not sent because the engine was given up on (counted in `failed`), and why. */
  unsent: number;
  unsentReason?: string;
  /**
   * Rows sent whose outcome is unknown (counted in `failed`), and why: no answer came, or the
   * answer's count did not match what was sent. They may have been applied.
   */
  unknown: number;
  unknownReason?: string;
  /** One line per table that needed one: the `_bulk` fallback. */
  notes: string[];
}

export interface RoutingApplyOptions {
  failFast: boolean;
  journal?: Journal;
  /** Aborted (Ctrl-C): nothing more is started. */
  signal?: AbortSignal;
  /** Rows as they settle (the progress line). */
  onRows?: (status: 'applied' | 'failed' | 'skipped', count: number) => void;
  /** A line for stderr as soon as it is known (the `_bulk` fallback of a table). */
  onNote?: (note: string) => void;
}

/**
 * Applies the routing-engine rows of the plan with the routing executor (deletes, `_bulk`
 * creates, grouped PATCHes), table by table, keeping only the rows whose change is to be
 * applied (all of them, or a saved plan's). Failures name the row's address and source.
 * Once the engine is gone, the rows left (of this table and the next ones) are not sent
 * and are reported once.
 */
export async function applyRouting(
  tables: readonly RoutingTablePlan[],
  changes: readonly Change[],
  client: RoutingClient,
  options: RoutingApplyOptions,
): Promise<RoutingApplyResult> {
  const wanted = new Map(changes.map((c) => [c.address, c]));
  const out: RoutingApplyResult = { applied: 0, failed: 0, skipped: 0, failures: [], unsent: 0, unknown: 0, notes: [] };
  const count = (status: 'applied' | 'failed' | 'skipped', n: number) => {
    out[status] += n;
    options.onRows?.(status, n);
  };
  for (const table of tables) {
    const address = (key: string) => routingAddress(table.ref, key);
    const diff = selectRows(table.diff, (key) => wanted.has(address(key)));
    const total = diff.creates.length + diff.deletes.length + diff.updateGroups.reduce((n, g) => n + g.rows.length, 0);
    if (total === 0) continue;
    const skipAll = (reason: string) => {
      count('skipped', total);
      // Each row says so, in the journal and the summary, as a skipped change of the platform does.
      options.journal?.appendAll(notStartedLines(diff, address, wanted, 'skipped', reason));
      for (const row of rowsOf(diff)) out.failures.push(skippedResult(row, address, wanted, reason));
    };
    if ((options.failFast && out.failed > 0) || options.signal?.aborted) {
      skipAll(
        options.signal?.aborted
          ? notStartedReason(options.signal)
          : 'not started: --fail-fast after an earlier failure',
      );
      continue;
    }
    const gone = client.unreachable;
    if (gone !== undefined) {
      out.unsent += total;
      out.unsentReason ??= gone;
      count('failed', total);
      options.journal?.appendAll(notStartedLines(diff, address, wanted, 'failed', `not sent: ${gone}`));
      continue;
    }
    const seq = options.journal?.nextSeq() ?? 0;
    const begin = performance.now();
    try {
      options.journal?.append({
        type: 'intent',
        seq,
        address: table.address,
        method: 'ROUTING',
        path: table.address,
        purpose: `${total} row changes`,
      });
    } catch (error) {
      // The journal cannot be written (its failure stops the run): the table is not started,
      // and the run still ends with its summary, as when the failure comes between tables.
      if (!options.signal?.aborted) throw error;
      skipAll(notStartedReason(options.signal));
      continue;
    }
    const applied: TableRow[] = [];
    const report = await executeRoutingChanges(client, table.ref, diff, {
      keepGoing: !options.failFast,
      bulk: table.bulk !== false,
      ...(options.signal ? { signal: options.signal } : {}),
      onRows: count,
      onApplied: (action, keys) => {
        for (const key of keys) applied.push({ action, key });
      },
    });
    const rows = rowOutcomes(diff, applied, report.settled, address, wanted);
    // A row the executor neither applied nor settled was not sent: it counts, or the run could end as complete.
    if (rows.unsettled > 0) count('skipped', rows.unsettled);
    const problems = [
      ...(report.failures.length > 0 ? [`${report.failures.length} row failure(s)`] : []),
      ...(report.unknown > 0 ? [unknownProblem(report.unknown, report.settled)] : []),
      ...(report.unsent > 0 ? [`${report.unsent} row change(s) not sent: ${report.unsentReason ?? ''}`] : []),
      ...(rows.skipped.length > 0 ? [`${rows.skipped.length} row change(s) skipped`] : []),
    ];
    options.journal?.append({
      type: 'outcome',
      seq,
      address: table.address,
      ok: problems.length === 0,
      ...(problems.length > 0 ? { message: problems.join('; ') } : {}),
      ms: Math.round(performance.now() - begin),
    });
    options.journal?.appendAll(rows.lines);
    out.unsent += report.unsent;
    if (report.unsentReason !== undefined) out.unsentReason ??= report.unsentReason;
    out.unknown += report.unknown;
    if (report.unknownReason !== undefined) out.unknownReason ??= report.unknownReason;
    for (const note of report.warnings) {
      const line = `${table.address}: ${note}`;
      out.notes.push(line);
      options.onNote?.(line);
    }
    for (const failure of report.failures) {
      const change = wanted.get(address(failure.key)) ?? unplannedRow(address(failure.key), failure.action);
      const source = failure.source ?? change.source;
      out.failures.push({
        change: source ? { ...change, source } : change,
        outcome: { status: 'failed', code: failure.code, message: failure.message },
      });
    }
    // Rows of a started table that were not started (--fail-fast, an interrupt) are listed, as a skipped change is.
    for (const { row, reason } of rows.skipped) out.failures.push(skippedResult(row, address, wanted, reason));
  }
  return out;
}

/**
 * The journal's problem line for the table's rows of unknown outcome: why (no answer came, or
 * the answer's count did not match what was sent), the first reason when they differ.
 */
function unknownProblem(unknown: number, settled: ReadonlyMap<string, RowSettlement>): string {
  const reasons = new Set([...settled.values()].filter((s) => s.outcome === 'unknown').map((s) => s.message));
  const [first = ''] = reasons;
  const more = reasons.size > 1 ? ` (and ${reasons.size - 1} other reason(s): each row's line says its own)` : '';
  return `${unknown} row change(s) of unknown outcome: ${first}${more}`;
}

/** A row not started, as the summary lists it: its planned change (with the row's source) skipped. */
function skippedResult(
  row: TableRow,
  address: (key: string) => string,
  wanted: ReadonlyMap<string, Change>,
  reason: string,
): ChangeResult {
  const change = wanted.get(address(row.key)) ?? unplannedRow(address(row.key), row.action);
  const source = row.source ?? change.source;
  return { change: source ? { ...change, source } : change, outcome: { status: 'skipped', reason } };
}

/**
 * One journal change line per row of the table, as the platform writes one per object: the
 * rows the engine applied, and for every other row what became of it (`failed`: refused, or
 * not sent because the engine was given up on; `unknown`: sent, and no answer came or the
 * answer's count did not match; `skipped`: not started), with the executor's message and the
 * row's source. The counts agree with the summary's: its failed are these failed and unknown
 * lines. `unsettled`: rows the executor said nothing of (written as skipped, not reached).
 */
function rowOutcomes(
  diff: RowDiff,
  applied: readonly TableRow[],
  settled: ReadonlyMap<string, RowSettlement>,
  address: (key: string) => string,
  wanted: ReadonlyMap<string, Change>,
): { lines: ChangeEntry[]; skipped: { row: TableRow; reason: string }[]; unsettled: number } {
  const lines: ChangeEntry[] = [];
  const skipped: { row: TableRow; reason: string }[] = [];
  const done = new Set<string>();
  let unsettled = 0;
  for (const row of applied) {
    done.add(row.key);
    lines.push({ type: 'change', address: address(row.key), action: row.action, outcome: 'applied' });
  }
  for (const tableRow of rowsOf(diff)) {
    const { action, key } = tableRow;
    if (done.has(key)) continue;
    done.add(key);
    let row = settled.get(key);
    if (!row) {
      unsettled++;
      row = { action, outcome: 'skipped', message: 'not sent: not reached' };
    }
    const source = row.source ?? tableRow.source ?? wanted.get(address(key))?.source;
    lines.push({
      type: 'change',
      address: address(key),
      action: row.action,
      outcome: row.outcome,
      message: row.message,
      ...(source ? { source } : {}),
    });
    if (row.outcome === 'skipped')
      skipped.push({ row: { action: row.action, key, ...(source ? { source } : {}) }, reason: row.message });
  }
  return { lines, skipped, unsettled };
}

/** Every row of a table not started: failed (the engine was given up on), or skipped (fail-fast, an interrupt). */
function notStartedLines(
  diff: RowDiff,
  address: (key: string) => string,
  wanted: ReadonlyMap<string, Change>,
  outcome: 'failed' | 'skipped',
  message: string,
): JournalEntry[] {
  return rowsOf(diff).map(({ action, key, source = wanted.get(address(key))?.source }) => ({
    type: 'change',
    address: address(key),
    action,
    outcome,
    message,
    ...(source ? { source } : {}),
  }));
}

/** A row of a table's diff: what is done to it, its key, and the manifest position it comes from. */
interface TableRow {
  action: RowSettlement['action'];
  key: string;
  source?: string;
}

function rowsOf(diff: RowDiff): TableRow[] {
  const row = (action: TableRow['action'], key: string, source: string | undefined): TableRow =>
    source === undefined ? { action, key } : { action, key, source };
  return [
    ...diff.deletes.map((d) => row('delete', d.key, undefined)),
    ...diff.creates.map((c) => row('create', c.key, c.source)),
    ...diff.updateGroups.flatMap((g) => g.rows.map((r) => row('update', r.key, r.source))),
  ];
}

/** A failed row the plan has no change for (a chunk's summary key): reported under its address. */
function unplannedRow(address: string, action: Change['action']): Change {
  return {
    address,
    kind: ROUTING_ROW,
    provider: 'routing',
    action,
    before: null,
    after: null,
    patch: [],
    reason: '',
    dependsOn: [],
    requests: [],
  };
}

function selectRows(diff: RowDiff, keep: (key: string) => boolean): RowDiff {
  return {
    ...diff,
    creates: diff.creates.filter((c) => keep(c.key)),
    deletes: diff.deletes.filter((d) => keep(d.key)),
    updateGroups: diff.updateGroups
      .map((g) => ({ ...g, rows: g.rows.filter((r) => keep(r.key)) }))
      .filter((g) => g.rows.length > 0),
  };
}
