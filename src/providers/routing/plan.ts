import type { DesiredRoutingTable, DesiredSet } from '../../manifest/index.js';
import { digestOf } from '../../core/canonical-json.js';
import { routingTableKind } from '../../kinds/routing-table.js';
import { lookalikeWarnings } from './lookalikes.js';
import { liveRowDigest, shownRow, type ShownRow } from './sensitive.js';
import type { Change, PlanMessage, ReasonCode } from '../../plan/types.js';
import {
  basePath,
  diffRows,
  routingAddress,
  type RoutingClient,
  type RoutingRecord,
  type RowDiff,
  type RoutingTableRef,
} from '../../routing/index.js';

/**
 * The kind routing rows carry in plans (docs/plans.md `routing/…` addresses): the routing
 * provider's only kind, named once, by the kind table (src/kinds/routing-table.ts).
 */
export const ROUTING_ROW = routingTableKind.rowKind;

/** One table's diff, kept for apply (which sends it through `_bulk`, grouped PATCHes, deletes). */
export interface RoutingTablePlan {
  ref: RoutingTableRef;
  address: string;
  diff: RowDiff;
  liveRows: number;
  /** False when the engine was found to have no `_bulk` for it: creates go out one POST per record. */
  bulk?: boolean;
}

export interface RoutingPlanOutput {
  tables: RoutingTablePlan[];
  changes: Change[];
  noop: number;
  unmanaged: number;
  /** Live rows per table address, for the delete threshold. */
  liveCounts: Map<string, number>;
  problems: PlanMessage[];
  warnings: PlanMessage[];
}

/** One declared table and its live rows, as read. */
export interface LiveTable {
  table: DesiredRoutingTable;
  ref: RoutingTableRef;
  rows: RoutingRecord[];
  /** Pages the read took: more than one, and the table could shift between two of them. */
  pages: number;
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
    const { rows, pages } = await client.readAll(ref);
    live.push({ table, ref, rows, pages });
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
    warnings: [],
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
      // A CSV line's cells are text; an inline record's are typed by YAML.
      isText: (row) => table.inlinePaths[row] === undefined,
      sensitiveOf: (row) => table.sensitiveCells.get(row),
    },
    rows,
    {
      key: table.key,
      fieldTypes: table.fieldTypes,
      prune,
      refuseUntypedText: true,
    },
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
  lookalikeWarnings(diff, address, out.warnings);
  for (const create of diff.creates) {
    const at = address(create.key);
    out.changes.push(
      change(
        at,
        'create',
        shownRow(at, null, create.values, create.sensitive),
        `declared in ${create.source ?? table.table.address}, not found live`,
        [{ method: 'POST', path: `${base}/_bulk` }],
        create.source,
      ),
    );
  }
  for (const group of diff.updateGroups) {
    // A field named `q` goes in a PATCH of the row itself: a collection PATCH's `q` is its filter.
    const one = 'q' in group.changes;
    for (const row of group.rows) {
      const at = address(row.key);
      const c = change(
        at,
        'update',
        shownRow(at, row.before, group.changes, row.sensitive),
        `declared ${Object.keys(group.changes).join(', ')} ${Object.keys(group.changes).length === 1 ? 'differs' : 'differ'} from live`,
        [{ method: 'PATCH', path: one ? `${base}/${row.id}` : base }],
        row.source,
      );
      c.id = String(row.id);
      c.liveDigest = liveRowDigest(at, diff.updatedLive.get(row.id) ?? null, row.sensitive);
      out.changes.push(c);
    }
  }
  for (const remove of diff.deletes) {
    const c = change(
      address(remove.key),
      'delete',
      { before: withoutId(remove.row), after: null },
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

/**
 * Asks the engine, for each table with rows to create, whether it serves `_bulk`; where it
 * does not, the plan shows the requests that will really be sent (one `POST <base>` per
 * record) and says so in a warning, and apply sends them from the start.
 */
export async function probeBulk(planned: RoutingPlanOutput, client: RoutingClient): Promise<void> {
  if (planned.problems.length > 0) return; // no plan is made: nothing to ask
  for (const table of planned.tables) {
    if (table.diff.creates.length === 0 || (await client.bulkSupport(table.ref)) !== false) continue;
    table.bulk = false;
    const base = basePath(table.ref);
    const prefix = `${table.address}/`;
    for (const c of planned.changes)
      if (c.action === 'create' && c.address.startsWith(prefix)) c.requests = [{ method: 'POST', path: base }];
    const n = table.diff.creates.length;
    planned.warnings.push({
      code: 'SB_ROUTING_NO_BULK',
      address: table.address,
      message: `the routing engine has no bulk create for this table (OPTIONS ${base}/_bulk allows no POST): its ${n} row(s) to create go out as ${n} POST(s) of one record each`,
    });
  }
}

/** Why a row changes, by action: a row diff creates, updates and prunes, nothing else. */
const ROW_REASONS = {
  create: 'not-found-live',
  update: 'field-differs',
  delete: 'not-declared-prune',
} as const satisfies Record<'create' | 'update' | 'delete', ReasonCode>;

function change(
  address: string,
  action: 'create' | 'update' | 'delete',
  { before, after, sensitiveDigests }: ShownRow,
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
    reasonCode: ROW_REASONS[action],
    dependsOn: [],
    requests,
  };
  if (sensitiveDigests) c.sensitiveDigests = sensitiveDigests;
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
