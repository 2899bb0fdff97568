import { DiagnosticsError, SwitchboardError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { loadManifests, type DesiredSet } from '../manifest/index.js';
import { toDesiredNodes } from '../plan/desired.js';
import { makePlan, type MadePlan } from '../plan/make-plan.js';
import { assertPatternsMatch, matchesPattern, selectTargets } from '../plan/targets.js';
import { lastAppliedPath, readLastApplied } from '../state/last-applied.js';
import type { LastAppliedEntry } from '../state/types.js';
import { VERSION } from './version.js';
import { openSession, type ConnectOptions, type PlatformSession } from './session.js';

/** The options of `plan` that `apply` and `demo` share. */
export interface PlanCommandOptions {
  env?: string;
  config?: string;
  sim?: boolean;
  seed?: string;
  target: string[];
  exclude: string[];
  prune: boolean;
  concurrency: number;
  maxDeletePercent: number;
  allowReplace: boolean;
  stateDir: string;
  /** Targets made by `apply --plan` from the saved changes (checked when the plan was made). */
  scopeFromPlan?: boolean;
}

export interface PlanRun extends MadePlan {
  session: PlatformSession;
  lastApplied: Map<string, LastAppliedEntry>;
  lastAppliedFile: string;
}

/**
 * Loads the manifests (every mistake reported before anything is sent), connects, reads
 * the live scope and plans. The caller owns `session` and must close it.
 */
export async function planPipeline(paths: string[], options: PlanCommandOptions, logger: Logger, existing?: PlatformSession): Promise<PlanRun> {
  const loaded = await loadManifests(paths.length > 0 ? paths : ['.']);
  if (!loaded.ok) throw new DiagnosticsError(loaded.diagnostics);
  const connect: ConnectOptions = { concurrency: options.concurrency, logger, ...pick(options) };
  const nodes = toDesiredNodes(loaded.set);
  const needs = { platform: nodes.length > 0, routing: loaded.set.routingTables.length > 0 };
  const session = existing ?? (await openSession(connect, needs));
  try {
    const desired = selectTargets(nodes, options.target, options.exclude);
    const lastAppliedFile = lastAppliedPath(options.stateDir, session.target.instance || 'routing');
    const lastApplied = await readLastApplied(lastAppliedFile);
    const routingSet = session.routing && wantsRouting(loaded.set, options) ? { set: loaded.set, client: session.routing } : undefined;
    const made = await makePlan({
      desired,
      manifests: { digest: loaded.digest, files: loaded.files },
      ...(session.client ? { platform: { client: session.client, P: session.client.paths.P } } : {}),
      ...(routingSet ? { routing: routingSet } : {}),
      target: session.target,
      lastApplied,
      options: {
        prune: options.prune,
        maxDeletePercent: options.maxDeletePercent,
        allowReplace: options.allowReplace,
        keep: (address) => options.exclude.some((p) => matchesPattern(p, address)),
      },
      recordedOptions: { target: options.target, exclude: options.exclude, prune: options.prune, allowReplace: options.allowReplace, maxDeletePercent: options.maxDeletePercent },
      toolVersion: VERSION,
    });
    const tables = loaded.set.routingTables.map((t) => t.table.address);
    // Declared as written and as planned (an entitlement declared by type id is planned under its type name).
    const declared = [...nodes.map((n) => n.address), ...made.desired.map((n) => n.address), ...tables];
    if (!options.scopeFromPlan) assertPatternsMatch({ targets: options.target, excludes: options.exclude, declared, tables, live: made.live.byAddress.keys() });
    if (made.problems.length > 0) {
      throw new DiagnosticsError(made.problems.map((p) => ({ severity: 'error', code: p.code, message: p.message, ...(p.address ? { address: p.address } : {}) })));
    }
    return { ...made, session, lastApplied, lastAppliedFile };
  } catch (error) {
    if (!existing) await session.close();
    throw error;
  }
}

/**
 * Routing tables are targeted as a whole: a table is in scope when a target names it, a
 * row of it, or an ancestor of it (`routing/*`), and no exclude names it.
 */
function wantsRouting(set: DesiredSet, options: PlanCommandOptions): boolean {
  const inScope = (table: string) =>
    (options.target.length === 0 || options.target.some((p) => matchesPattern(p, table) || matchesPattern(table, p))) &&
    !options.exclude.some((p) => matchesPattern(p, table));
  return set.routingTables.some((t) => inScope(t.table.address));
}

function pick(options: PlanCommandOptions): Partial<ConnectOptions> {
  const out: Partial<ConnectOptions> = {};
  if (options.env) out.env = options.env;
  if (options.config) out.config = options.config;
  if (options.sim) out.sim = true;
  if (options.seed) {
    if (!options.sim) throw new SwitchboardError('SB_USAGE', '--seed is for the embedded simulator: add --sim');
    out.seed = options.seed;
  }
  return out;
}
