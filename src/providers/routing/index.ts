import type { DesiredSet, RoutingTestSet } from '../../manifest/index.js';
import { matchesPattern } from '../../plan/targets.js';
import { valueText } from '../../plan/policy/facts.js';
import { routingAddress, type RoutingClient, type RoutingTableRef } from '../../routing/index.js';
import { stage } from '../stage.js';
import type { Outcome } from '../../apply/walk.js';
import type { Provider, ProviderApplyEnv } from '../types.js';
import { applyRouting } from './apply.js';
import { planConfirmed } from './confirm.js';
import { probeBulk, readRoutingTables, ROUTING_ROW, type LiveTable, type RoutingPlanOutput } from './plan.js';
import { vectorChanges } from './vectors.js';

export { ROUTING_ROW } from './plan.js';

export interface RoutingInput {
  client: RoutingClient;
  /** The manifests: their RoutingTable documents and rows. */
  set: DesiredSet;
  /** False when no declared table is in the plan's scope: the provider then only reads for the policies. */
  planTables?: boolean;
  /** The tables in scope (`--changed-since`), by address: all when not given. */
  tables?: (address: string) => boolean;
  /** The RoutingTest vectors: the plan lists those whose answer it changes (docs/assurance.md). */
  tests?: readonly RoutingTestSet[];
}

/**
 * The routing engine as a provider: each declared table read whole, diffed row by row
 * (src/routing), and applied by the routing executor (deletes, `_bulk` creates, grouped
 * PATCHes). Its changes are rows (kind {@link ROUTING_ROW}); they need no permission
 * pre-flight (the engine has its own credentials) and hold no data a replace could lose.
 */
export function routingProvider(input: RoutingInput): Provider {
  let live: LiveTable[] | undefined;
  let planned: RoutingPlanOutput | undefined;
  const tableValues = new Map<string, Promise<Set<string>>>();
  return {
    name: 'routing',
    async read() {
      live = input.planTables === false ? [] : await readRoutingTables(input.set, input.client, input.tables);
    },
    async plan(options) {
      // The tables as the plan read them (planConfirmed reads a shifted one again, in place).
      const read = stage(live, 'plan', 'read');
      planned = await planConfirmed(input.set, read, input.client, { prune: options.prune });
      const tables = planned.tables.map((t) => t.address);
      const vectors =
        input.tests && input.tests.length > 0
          ? vectorChanges(input.tests, read, (t) => options.prune || t.table.prune)
          : undefined;
      live = undefined; // the diff keeps what apply needs: a million live rows need not stay
      await probeBulk(planned, input.client);
      const liveRows = [...planned.liveCounts.values()].reduce((a, b) => a + b, 0);
      return {
        provider: 'routing',
        changes: planned.changes,
        noop: planned.noop,
        unmanaged: [],
        unmanagedCount: planned.unmanaged,
        warnings: [...planned.warnings, ...(vectors?.warnings ?? [])],
        refusals: [],
        problems: planned.problems,
        liveCounts: new Map([[ROUTING_ROW, liveRows]]),
        liveCountsIn: planned.liveCounts,
        // A protected table's rows are never deleted (metadata.protect): its prune deletes are refused.
        protectedAddresses: protectedRows(planned, input.set),
        declaredAddresses: tables,
        liveAddresses: () => [],
        holdsData: () => false,
        preflight: () => [],
        ...(vectors
          ? {
              vectorChanges: {
                changed: vectors.changed,
                count: vectors.count,
                failing: vectors.failing,
                failingCount: vectors.failingCount,
              },
            }
          : {}),
      };
    },
    // A policy reference to a table no manifest declares reads its rows live, once.
    async liveValues(ref) {
      const address = ref.table;
      if (address === undefined || input.set.routingTables.some((t) => t.table.address === address)) return undefined;
      const [, service = '', version = '', table = ''] = address.split('/');
      let rows = tableValues.get(`${address}\u0000${ref.field}`);
      if (!rows) {
        const field = ref.field;
        const read = input.client.readAll({ service, version: version as RoutingTableRef['version'], table });
        rows = read.then(
          ({ rows: records }) => new Set(records.flatMap((r) => (r[field] == null ? [] : [valueText(r[field])]))),
        );
        tableValues.set(`${address}\u0000${ref.field}`, rows);
      }
      return rows;
    },
    async apply(changes, env) {
      const { tables } = stage(planned, 'apply', 'plan');
      const begin = performance.now();
      const sentBefore = requestsSent(input.client);
      const out = await applyRouting(tables, changes, input.client, {
        failFast: env.failFast,
        journal: env.journal,
        ...(env.signal ? { signal: env.signal } : {}),
        onRows: (status, n) => settleRows(env, status, n),
        ...(env.onNote ? { onNote: env.onNote } : {}),
      });
      return {
        results: out.failures,
        applied: out.applied,
        failed: out.failed,
        skipped: out.skipped,
        requests: requestsSent(input.client) - sentBefore,
        elapsedMs: performance.now() - begin,
        ...(out.unsent > 0
          ? { unsent: [{ count: out.unsent, what: 'routing row changes', reason: out.unsentReason ?? '' }] }
          : {}),
        ...(out.unknown > 0
          ? {
              unknown: out.unknown,
              unknownGroups: [{ count: out.unknown, what: 'routing row changes', reason: out.unknownReason ?? '' }],
            }
          : {}),
        ...(out.notes.length > 0 ? { notes: out.notes } : {}),
      };
    },
  };
}

/** The progress line counts rows, as they settle (a `_bulk` chunk settles its rows at once). */
function settleRows(env: ProviderApplyEnv, status: 'applied' | 'failed' | 'skipped', n: number): void {
  const outcome: Outcome =
    status === 'applied'
      ? { status }
      : status === 'failed'
        ? { status, message: 'routing row failed' }
        : { status, reason: 'not started' };
  for (let i = 0; i < n; i++) env.onSettle(outcome);
}

function requestsSent(client: RoutingClient): number {
  return Object.values(client.stats).reduce((a, b) => a + b, 0);
}

/**
 * Routing tables are targeted as a whole: a table is in scope when a target names it, a
 * row of it, or an ancestor of it (`routing/*`), and no exclude names it. With any table in
 * scope the routing engine is planned.
 */
export function routingInScope(
  set: DesiredSet,
  targets: { target: readonly string[]; exclude: readonly string[] },
): boolean {
  const inScope = (table: string) =>
    (targets.target.length === 0 || targets.target.some((p) => matchesPattern(p, table) || matchesPattern(table, p))) &&
    !targets.exclude.some((p) => matchesPattern(p, table));
  return set.routingTables.some((t) => inScope(t.table.address));
}

/** The rows a plan deletes from tables whose document says `protect: true`. */
function protectedRows(planned: RoutingPlanOutput, set: DesiredSet): Set<string> {
  const protectedTables = new Set(set.routingTables.filter((t) => t.table.protect).map((t) => t.table.address));
  const rows = new Set<string>();
  for (const table of planned.tables)
    if (protectedTables.has(table.address))
      for (const row of table.diff.deletes) rows.add(routingAddress(table.ref, row.key));
  return rows;
}
