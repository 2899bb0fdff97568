import type { DesiredRoutingTable, DesiredSet } from '../../manifest/index.js';
import { digestOf } from '../../plan/digest.js';
import type { Change, PlanMessage } from '../../plan/types.js';
import {
  basePath,
  diffRows,
  routingAddress,
  type RoutingClient,
  type RoutingRecord,
  type RowDiff,
  type RoutingTableRef,
} from '../../routing/index.js';

/** The kind routing rows carry in plans (CONTRACT §3.1 `routing/…` addresses): the routing provider's only kind. */
export const ROUTING_ROW = 'RoutingRow';

/** One table's diff, kept for apply (which sends it through `_bulk`, grouped PATCHes, deletes). */
export interface RoutingTablePlan {
  ref: RoutingTableRef;
  address: string;
  diff: RowDiff;
  liveRows: number;
}

export interface RoutingPlanOutput {
  tables: RoutingTablePlan[];
  changes: Change[];
  noop: number;
  unmanaged: number;
  /** Live rows per table address, for the delete threshold. */
  liveCounts: Map<string, number>;
  problems: PlanMessage[];
}

/** One declared table and its live rows, as read. */
export interface LiveTable {
  table: DesiredRoutingTable;
  ref: RoutingTableRef;
  rows: RoutingRecord[];
}

/** Reads every declared table in scope whole, with the server's largest page, one table after the other. */
export async function readRoutingTables(
  set: DesiredSet,
  client: RoutingClient,
  inScope: (address: string) => boolean = () => true,
): Promise<LiveTable[]> {
  const live: LiveTable[] = [];
  for (const table of set.routingTables) {
    if (!inScope(table.table.address)) continue;
    const ref: RoutingTableRef = {
      service: table.service,
      version: table.version as RoutingTableRef['version'],
      table: table.name,
    };
    live.push({ table, ref, rows: (await client.readAll(ref)).rows });
  }
  return live;
}

/**
 * Routing-engine tables are planned by the row diff of src/routing (a million rows do not
 * go through one object per row): each table is diffed by its key fields and turned into
 * plan changes.
 */
export function planRoutingTables(
  set: DesiredSet,
  tables: readonly LiveTable[],
  options: { prune: boolean },
): RoutingPlanOutput {
  const out: RoutingPlanOutput = {
    tables: [],
    changes: [],
    noop: 0,
    unmanaged: 0,
    liveCounts: new Map(),
    problems: [],
  };
  for (const live of tables) planTable(live, set, options, out);
  return out;
}

function planTable(
  { table, ref, rows }: LiveTable,
  set: DesiredSet,
  options: { prune: boolean },
  out: RoutingPlanOutput,
): void {
  const prune = options.prune || table.table.prune;
  const diff = diffRows(
    {
      columns: table.columns,
      rows: table.rows,
      sourceOf: (row) => {
        const at = set.sourceOf(set.row(table, row));
        return at ? `${at.file}:${at.line}` : undefined;
      },
    },
    rows,
    { key: table.key, fieldTypes: table.fieldTypes, prune },
  );
  for (const problem of diff.problems) {
    out.problems.push({
      code: problem.code,
      message: problem.source ? `${problem.source}: ${problem.message}` : problem.message,
      address: table.table.address,
    });
  }
  const base = basePath(ref);
  const address = (key: string) => routingAddress(ref, key);
  const liveById = new Map(rows.map((r) => [r.id, r]));
  for (const create of diff.creates) {
    out.changes.push(
      change(
        address(create.key),
        'create',
        null,
        create.values,
        `declared in ${create.source ?? table.table.address}, not found live`,
        [{ method: 'POST', path: `${base}/_bulk` }],
        create.source,
      ),
    );
  }
  for (const group of diff.updateGroups) {
    for (const row of group.rows) {
      const c = change(
        address(row.key),
        'update',
        row.before,
        group.changes,
        `declared ${Object.keys(group.changes).join(', ')} ${Object.keys(group.changes).length === 1 ? 'differs' : 'differ'} from live`,
        [{ method: 'PATCH', path: base }],
        row.source,
      );
      c.id = String(row.id);
      c.liveDigest = digestOf(liveById.get(row.id) ?? null);
      out.changes.push(c);
    }
  }
  for (const remove of diff.deletes) {
    const c = change(
      address(remove.key),
      'delete',
      withoutId(remove.row),
      null,
      `not declared in ${table.table.address}, which prunes its records`,
      [{ method: 'DELETE', path: `${base}/${remove.id}` }],
    );
    c.id = String(remove.id);
    c.liveDigest = digestOf(remove.row);
    out.changes.push(c);
  }
  out.noop += diff.noops;
  out.unmanaged += diff.unmanaged;
  out.liveCounts.set(table.table.address, rows.length);
  out.tables.push({ ref, address: table.table.address, diff, liveRows: rows.length });
}

function change(
  address: string,
  action: 'create' | 'update' | 'delete',
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  reason: string,
  requests: Change['requests'],
  source?: string,
): Change {
  const c: Change = {
    address,
    kind: ROUTING_ROW,
    provider: 'routing',
    action,
    before,
    after,
    patch: patchOf(before, after),
    reason,
    dependsOn: [],
    requests,
  };
  if (source) c.source = source;
  return c;
}

/** A flat, field-level patch (rows are flat records): cheaper than a generic diff at a million rows. */
function patchOf(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Change['patch'] {
  if (!after) return [];
  return Object.entries(after).map(([field, value]) => ({
    op: before && field in before ? 'replace' : 'add',
    path: `/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    value,
  }));
}

function withoutId(row: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = row;
  return rest;
}
