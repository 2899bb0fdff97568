import type { Journal, JournalEntry } from '../../apply/journal.js';
import type { ChangeResult } from '../../apply/types.js';
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
  failures: ChangeResult[];
  /** Rows not sent because the engine stopped answering (counted in `failed`), and why. */
  unsent: number;
  unsentReason?: string;
  /** Rows sent without an answer: they may have been applied (counted in `failed`), and why. */
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
    if ((options.failFast && out.failed > 0) || options.signal?.aborted) {
      const reason = options.signal?.aborted
        ? 'not started: the run was interrupted'
        : 'not started: --fail-fast after an earlier failure';
      count('skipped', total);
      // Each row says so, in the journal and the summary, as a skipped change of the platform does.
      options.journal?.appendAll(notStartedLines(diff, address, 'skipped', reason));
      for (const [, key] of rowsOf(diff)) {
        const change = wanted.get(address(key));
        if (change) out.failures.push({ change, outcome: { status: 'skipped', reason } });
      }
      continue;
    }
    const gone = client.unreachable;
    if (gone !== undefined) {
      out.unsent += total;
      out.unsentReason ??= gone;
      count('failed', total);
      options.journal?.appendAll(notStartedLines(diff, address, 'failed', `not sent: ${gone}`));
      continue;
    }
    const seq = options.journal?.nextSeq() ?? 0;
    const begin = performance.now();
    options.journal?.append({
      type: 'intent',
      seq,
      address: table.address,
      method: 'ROUTING',
      path: table.address,
      purpose: `${total} row changes`,
    });
    const applied: { action: Change['action']; key: string }[] = [];
    const report = await executeRoutingChanges(client, table.ref, diff, {
      keepGoing: !options.failFast,
      bulk: table.bulk !== false,
      ...(options.signal ? { signal: options.signal } : {}),
      onRows: count,
      onApplied: (action, keys) => {
        for (const key of keys) applied.push({ action, key });
      },
    });
    const problems = [
      ...(report.failures.length > 0 ? [`${report.failures.length} row failure(s)`] : []),
      ...(report.unknown > 0 ? [`${report.unknown} row change(s) of unknown outcome (sent, no answer)`] : []),
      ...(report.unsent > 0 ? [`${report.unsent} row change(s) not sent: ${report.unsentReason ?? ''}`] : []),
    ];
    options.journal?.append({
      type: 'outcome',
      seq,
      address: table.address,
      ok: problems.length === 0,
      ...(problems.length > 0 ? { message: problems.join('; ') } : {}),
      ms: Math.round(performance.now() - begin),
    });
    options.journal?.appendAll(rowLines(diff, applied, report.settled, address, wanted));
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
  }
  return out;
}

/**
 * One journal change line per row of the table, as the platform writes one per object: the
 * rows the engine applied, and for every other row what became of it (`failed`: refused, or
 * not sent because the engine was gone; `unknown`: sent, and no answer came; `skipped`: not
 * started), with the engine's message and the row's source. The counts agree with the
 * summary's: its failed are these failed and unknown lines.
 */
function rowLines(
  diff: RowDiff,
  applied: readonly { action: Change['action']; key: string }[],
  settled: ReadonlyMap<string, RowSettlement>,
  address: (key: string) => string,
  wanted: ReadonlyMap<string, Change>,
): JournalEntry[] {
  const lines: JournalEntry[] = [];
  const done = new Set<string>();
  for (const row of applied) {
    done.add(row.key);
    lines.push({ type: 'change', address: address(row.key), action: row.action, outcome: 'applied' });
  }
  for (const [action, key] of rowsOf(diff)) {
    if (done.has(key)) continue;
    done.add(key);
    const row: RowSettlement = settled.get(key) ?? { action, outcome: 'skipped', message: 'not sent: not reached' };
    const source = row.source ?? wanted.get(address(key))?.source;
    lines.push({
      type: 'change',
      address: address(key),
      action: row.action,
      outcome: row.outcome,
      message: row.message,
      ...(source ? { source } : {}),
    });
  }
  return lines;
}

/** Every row of a table not started: failed (the engine was gone), or skipped (fail-fast, an interrupt). */
function notStartedLines(
  diff: RowDiff,
  address: (key: string) => string,
  outcome: 'failed' | 'skipped',
  message: string,
): JournalEntry[] {
  return rowsOf(diff).map(([action, key]) => ({
    type: 'change',
    address: address(key),
    action,
    outcome,
    message,
  }));
}

type RowAction = RowSettlement['action'];

function rowsOf(diff: RowDiff): [RowAction, string][] {
  return [
    ...diff.deletes.map((d): [RowAction, string] => ['delete', d.key]),
    ...diff.creates.map((c): [RowAction, string] => ['create', c.key]),
    ...diff.updateGroups.flatMap((g) => g.rows.map((r): [RowAction, string] => ['update', r.key])),
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
