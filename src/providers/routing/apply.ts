import type { Journal, JournalEntry } from '../../apply/journal.js';
import type { ChangeResult } from '../../apply/types.js';
import type { Change } from '../../plan/types.js';
import {
  executeRoutingChanges,
  routingAddress,
  type RoutingClient,
  type RoutingFailure,
  type RowDiff,
} from '../../routing/index.js';
import { ROUTING_ROW, type RoutingTablePlan } from './plan.js';

/** What the routing tables' part of a run did (rows are counted, failures listed). */
export interface RoutingApplyResult {
  applied: number;
  failed: number;
  skipped: number;
  failures: ChangeResult[];
}

/**
 * Applies the routing-engine rows of the plan with the routing executor (deletes, `_bulk`
 * creates, grouped PATCHes), table by table, keeping only the rows whose change is to be
 * applied (all of them, or a saved plan's). Failures name the row's address and source.
 */
export async function applyRouting(
  tables: readonly RoutingTablePlan[],
  changes: readonly Change[],
  client: RoutingClient,
  options: { failFast: boolean; journal?: Journal },
): Promise<RoutingApplyResult> {
  const wanted = new Map(changes.map((c) => [c.address, c]));
  const out: RoutingApplyResult = { applied: 0, failed: 0, skipped: 0, failures: [] };
  for (const table of tables) {
    const address = (key: string) => routingAddress(table.ref, key);
    const diff = selectRows(table.diff, (key) => wanted.has(address(key)));
    const total = diff.creates.length + diff.deletes.length + diff.updateGroups.reduce((n, g) => n + g.rows.length, 0);
    if (total === 0) continue;
    if (options.failFast && out.failed > 0) {
      out.skipped += total;
      continue;
    }
    const seq = options.journal?.nextSeq() ?? 0;
    const begin = performance.now();
    await options.journal?.append({
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
      onApplied: (action, keys) => {
        for (const key of keys) applied.push({ action, key });
      },
    });
    const ok = report.failures.length === 0;
    await options.journal?.append({
      type: 'outcome',
      seq,
      address: table.address,
      ok,
      ...(ok ? {} : { message: `${report.failures.length} row failure(s)` }),
      ms: Math.round(performance.now() - begin),
    });
    options.journal?.appendAll(rowLines(diff, applied, report.failures, address, wanted));
    out.applied += report.created + report.updated + report.deleted;
    out.skipped += report.skipped;
    const failedRows = total - report.created - report.updated - report.deleted - report.skipped;
    out.failed += Math.max(failedRows, report.failures.length);
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
 * rows the engine applied, the rows that failed (with the engine's message and their
 * source), and the rest (not sent: an earlier failure stopped the table, or their `_bulk`
 * chunk failed as a whole).
 */
function rowLines(
  diff: RowDiff,
  applied: readonly { action: Change['action']; key: string }[],
  failures: readonly RoutingFailure[],
  address: (key: string) => string,
  wanted: ReadonlyMap<string, Change>,
): JournalEntry[] {
  const lines: JournalEntry[] = [];
  const settled = new Set<string>();
  for (const row of applied) {
    settled.add(row.key);
    lines.push({ type: 'change', address: address(row.key), action: row.action, outcome: 'applied' });
  }
  for (const failure of failures) {
    if (settled.has(failure.key)) continue;
    settled.add(failure.key);
    const source = failure.source ?? wanted.get(address(failure.key))?.source;
    const at = address(failure.key);
    lines.push({
      type: 'change',
      address: at,
      action: failure.action,
      outcome: 'failed',
      message: failure.message,
      ...(source ? { source } : {}),
    });
  }
  const rows: [Change['action'], string][] = [
    ...diff.deletes.map((d): [Change['action'], string] => ['delete', d.key]),
    ...diff.creates.map((c): [Change['action'], string] => ['create', c.key]),
    ...diff.updateGroups.flatMap((g) => g.rows.map((r): [Change['action'], string] => ['update', r.key])),
  ];
  for (const [action, key] of rows) {
    if (settled.has(key)) continue;
    const reason = 'not sent: an earlier failure stopped this table, or its _bulk chunk failed as a whole';
    lines.push({ type: 'change', address: address(key), action, outcome: 'skipped', message: reason });
  }
  return lines;
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
