import type { DesiredSet } from '../../manifest/index.js';
import { matchesPattern } from '../../plan/targets.js';
import type { RoutingClient } from '../../routing/index.js';
import { stage } from '../stage.js';
import type { Provider } from '../types.js';
import { applyRouting } from './apply.js';
import { planRoutingTables, readRoutingTables, ROUTING_ROW, type LiveTable, type RoutingPlanOutput } from './plan.js';

export { ROUTING_ROW } from './plan.js';

export interface RoutingInput {
  client: RoutingClient;
  /** The manifests: their RoutingTable documents and rows. */
  set: DesiredSet;
  /** The tables in scope (`--changed-since`), by address: all when not given. */
  tables?: (address: string) => boolean;
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
  return {
    name: 'routing',
    async read() {
      live = await readRoutingTables(input.set, input.client, input.tables);
    },
    async plan(options) {
      planned = planRoutingTables(input.set, stage(live, 'plan', 'read'), { prune: options.prune });
      live = undefined; // the diff keeps what apply needs: a million live rows need not stay
      const liveRows = [...planned.liveCounts.values()].reduce((a, b) => a + b, 0);
      return {
        provider: 'routing',
        changes: planned.changes,
        noop: planned.noop,
        unmanaged: [],
        unmanagedCount: planned.unmanaged,
        warnings: [],
        refusals: [],
        problems: planned.problems,
        liveCounts: new Map([[ROUTING_ROW, liveRows]]),
        protectedAddresses: new Set(),
        declaredAddresses: input.set.routingTables.map((t) => t.table.address).filter((a) => input.tables?.(a) ?? true),
        liveAddresses: () => [],
        holdsData: () => false,
        preflight: () => [],
      };
    },
    async apply(changes, env) {
      const { tables } = stage(planned, 'apply', 'plan');
      const begin = performance.now();
      const sentBefore = requestsSent(input.client);
      const out = env.signal?.aborted
        ? { applied: 0, failed: 0, skipped: changes.length, failures: [] }
        : await applyRouting(tables, changes, input.client, { failFast: env.failFast, journal: env.journal });
      // The routing executor reports per table, not per row: its rows settle in one go.
      for (let i = 0; i < out.applied; i++) env.onSettle({ status: 'applied' });
      for (const f of out.failures) env.onSettle(f.outcome);
      return {
        results: out.failures,
        applied: out.applied,
        failed: out.failed,
        skipped: out.skipped,
        requests: requestsSent(input.client) - sentBefore,
        elapsedMs: performance.now() - begin,
      };
    },
  };
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
