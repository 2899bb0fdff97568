import type { Journal } from '../../apply/journal.js';
import type { ChangeResult } from '../../apply/types.js';
import type { Change } from '../../plan/types.js';
import { executeRoutingChanges, routingAddress, type RoutingClient, type RowDiff } from '../../routing/index.js';
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
    const report = await executeRoutingChanges(client, table.ref, diff, { keepGoing: !options.failFast });
    const ok = report.failures.length === 0;
    await options.journal?.append({
      type: 'outcome',
      seq,
      address: table.address,
      ok,
      ...(ok ? {} : { message: `${report.failures.length} row failure(s)` }),
      ms: Math.round(performance.now() - begin),
    });
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
