import type { DesiredSet } from '../../manifest/index.js';
import { basePath, MAX_TABLE_READS, RoutingApiError, type RoutingClient } from '../../routing/index.js';
import { planRoutingTables, type LiveTable, type RoutingPlanOutput } from './plan.js';

/**
 * Plans the tables, and makes sure that no row it creates exists. A table read page by page
 * is checked for its count (RoutingClient.readAll), but a writer that deletes one row and
 * creates another between two pages keeps the count: a row slides from page 2 onto page 1
 * unseen, and the plan would create it again. So for each table read in more than one page
 * with rows to create, the engine is asked for those keys (`q` filters, a hundred keys a
 * request, Doc3 §4.1). None found: the plan stands. Some found: the table is read again and
 * planned again, checked the same way, at most {@link MAX_TABLE_READS} reads of it; then the
 * plan fails with `SB_ROUTING_LIST_CHANGED`. A one-page table, or one with nothing to
 * create, costs nothing more (docs/reliability.md).
 */
export async function planConfirmed(
  set: DesiredSet,
  tables: LiveTable[],
  client: RoutingClient,
  options: { prune: boolean },
): Promise<RoutingPlanOutput> {
  const reads = tables.map(() => 1);
  for (;;) {
    const planned = planRoutingTables(set, tables, options);
    if (planned.problems.length > 0) return planned; // no plan is made: nothing to confirm
    const shifted: number[] = [];
    for (const [i, table] of planned.tables.entries()) {
      const live = tables[i] as LiveTable;
      if (live.pages <= 1 || table.diff.creates.length === 0) continue;
      const found = await client.findByKeys(
        live.ref,
        live.table.key,
        table.diff.creates.map((c) => c.values),
      );
      if (found.length === 0) continue;
      if (reads[i] === MAX_TABLE_READS) throw unsettled(live, found.length, reads[i] as number);
      shifted.push(i);
      client.logger.warn(
        { table: basePath(live.ref), rows: found.length },
        'routing table shifted while it was read (rows to create exist); reading it again',
      );
    }
    if (shifted.length === 0) return planned;
    for (const i of shifted) {
      const live = tables[i] as LiveTable;
      const { rows, pages } = await client.readAll(live.ref);
      tables[i] = { ...live, rows, pages };
      reads[i] = (reads[i] as number) + 1;
    }
  }
}

function unsettled(live: LiveTable, found: number, reads: number): RoutingApiError {
  return new RoutingApiError('SB_ROUTING_LIST_CHANGED', {
    method: 'GET',
    path: basePath(live.ref),
    status: 200,
    serverMessage:
      `the table changed while it was read (${found} row(s) the plan would create exist, though the count ` +
      `stayed), ${reads} reads in a row: something is writing to it; no row is created from a table read that ` +
      'may miss it. Run again when it is quiet',
    retryable: false,
  });
}
