import type { DesiredRoutingTable, DesiredSet } from '../manifest/index.js';
import { basePath, diffRows, routingAddress, type RoutingClient, type RowDiff, type RoutingTableRef } from '../routing/index.js';
import { digestOf } from './digest.js';
import type { Change, PlanMessage } from './types.js';

/** The kind name routing rows carry in plans (CONTRACT §3.1 `routing/…` addresses). */
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

/**
 * Routing-engine tables are planned by the row diff of src/routing (a million rows do not
 * go through one object per row): each table is read whole with the server's largest page,
 * diffed by its key fields, and turned into plan changes.
 */
export async function planRoutingTables(set: DesiredSet, client: RoutingClient, options: { prune: boolean }): Promise<RoutingPlanOutput> {
  const out: RoutingPlanOutput = { tables: [], changes: [], noop: 0, unmanaged: 0, liveCounts: new Map(), problems: [] };
  for (const table of set.routingTables) await planTable(table, set, client, options, out);
  return out;
}

async function planTable(table: DesiredRoutingTable, set: DesiredSet, client: RoutingClient, options: { prune: boolean }, out: RoutingPlanOutput): Promise<void> {
  const ref: RoutingTableRef = { service: table.service, version: table.version as RoutingTableRef['version'], table: table.name };
  const live = await client.readAll(ref);
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
    live.rows,
    { key: table.key, fieldTypes: table.fieldTypes, prune },
  );
  for (const problem of diff.problems) {
    out.problems.push({ code: problem.code, message: problem.source ? `${problem.source}: ${problem.message}` : problem.message, address: table.table.address });
  }
  const base = basePath(ref);
  const address = (key: string) => routingAddress(ref, key);
  const liveById = new Map(live.rows.map((r) => [r.id, r]));
  for (const create of diff.creates) {
    out.changes.push(change(address(create.key), 'create', null, create.values, `declared in ${create.source ?? table.table.address}, not found live`, [{ method: 'POST', path: `${base}/_bulk` }], create.source));
  }
  for (const group of diff.updateGroups) {
    for (const row of group.rows) {
      const c = change(address(row.key), 'update', row.before, group.changes, `declared ${Object.keys(group.changes).join(', ')} ${Object.keys(group.changes).length === 1 ? 'differs' : 'differ'} from live`, [{ method: 'PATCH', path: base }], row.source);
      c.id = String(row.id);
      c.liveDigest = digestOf(liveById.get(row.id) ?? null);
      out.changes.push(c);
    }
  }
  for (const remove of diff.deletes) {
    const c = change(address(remove.key), 'delete', withoutId(remove.row), null, `not declared in ${table.table.address}, which prunes its records`, [{ method: 'DELETE', path: `${base}/${remove.id}` }]);
    c.id = String(remove.id);
    c.liveDigest = digestOf(remove.row);
    out.changes.push(c);
  }
  out.noop += diff.noops;
  out.unmanaged += diff.unmanaged;
  out.liveCounts.set(table.table.address, live.rows.length);
  out.tables.push({ ref, address: table.table.address, diff, liveRows: live.rows.length });
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
  const c: Change = { address, kind: ROUTING_ROW, action, before, after, patch: patchOf(before, after), reason, dependsOn: [], requests };
  if (source) c.source = source;
  return c;
}

/** A flat, field-level patch (rows are flat records): cheaper than a generic diff at a million rows. */
function patchOf(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Change['patch'] {
  if (!after) return [];
  return Object.entries(after).map(([field, value]) => ({ op: before && field in before ? 'replace' : 'add', path: `/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`, value }));
}

function withoutId(row: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = row;
  return rest;
}
