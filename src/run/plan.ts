import { DiagnosticsError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { VERSION } from '../core/package.js';
import { loadManifests, type DesiredSet } from '../manifest/index.js';
import { toDesiredNodes } from '../plan/desired.js';
import { assemblePlan } from '../plan/make-plan.js';
import type { PlanPart } from '../plan/part.js';
import { assertPatternsMatch, matchesPattern, selectTargets } from '../plan/targets.js';
import type { Plan, PlanOptions } from '../plan/types.js';
import { platformProvider, routingInScope, routingProvider, type Provider } from '../providers/index.js';
import { lastAppliedPath, readLastApplied } from '../state/last-applied.js';
import type { DesiredNode, LastAppliedEntry } from '../state/types.js';
import { changedScope, checkScopeFiles, planScope } from './changed-since.js';
import { connectOptionsOf, openSession, type Session } from './session.js';

/** The options of `plan` that `apply` and `demo` share (the command line's, flat). */
export interface PlanRunOptions extends PlanOptions {
  env?: string;
  config?: string;
  sim?: boolean;
  seed?: string;
  concurrency: number;
  stateDir: string;
  /** `plan --no-check-permissions`: the permission pre-flight is skipped (a warning says so). */
  checkPermissions?: boolean;
  /** Targets made by `apply --plan` from the saved changes (checked when the plan was made). */
  scopeFromPlan?: boolean;
  /** `--changed-since REF`: only the documents changed since that git commit are read and compared. */
  changedSince?: string;
  /** `apply --plan` of a `--changed-since` plan: the files it read, which must still be the same. */
  scopeFiles?: Record<string, string>;
}

/** A plan made in this process: the plan, and the providers that made it (and apply it). */
export interface PlanRun {
  plan: Plan;
  /** Each provider of the run, in plan order, after `read` and `plan`: `applyRun` hands each its changes. */
  providers: Provider[];
  /** Each provider's part of the plan, in the same order. */
  parts: PlanPart[];
  session: Session;
  lastApplied: Map<string, LastAppliedEntry>;
  lastAppliedFile: string;
}

/**
 * Loads the manifests (every mistake reported before anything is sent), connects (unless
 * given a session), makes the providers the manifests need, and has each read and plan; the
 * rails check the assembled plan. A plan problem (exit 1) is a DiagnosticsError. The caller
 * owns `session` and must close it.
 */
export async function planRun(
  paths: string[],
  options: PlanRunOptions,
  logger: Logger,
  existing?: Session,
): Promise<PlanRun> {
  const changedSince = options.changedSince;
  const loaded = await loadManifests(paths.length > 0 ? paths : ['.'], { documents: changedSince !== undefined });
  if (!loaded.ok) throw new DiagnosticsError(loaded.diagnostics);
  if (options.scopeFiles) await checkScopeFiles(options.scopeFiles);
  const scope = changedSince === undefined ? undefined : await changedScope(paths, changedSince, loaded);
  const nodes = toDesiredNodes(loaded.set);
  // No document changed: nothing is read (no target at all would select everything).
  const inScope = !scope ? nodes : scope.targets.length === 0 ? [] : selectTargets(nodes, scope.targets, []);
  const selected = selectTargets(inScope, options.target, options.exclude);
  const tableInScope = (table: string) => !scope || scope.targets.some((p) => matchesPattern(p, table));
  const needs = {
    platform: selected.length > 0,
    routing: loaded.set.routingTables.some((t) => tableInScope(t.table.address)),
  };
  const session = existing ?? (await openSession(connectOptionsOf(options, logger), needs));
  try {
    const lastAppliedFile = lastAppliedPath(options.stateDir, session.target.instance || 'routing');
    const lastApplied = await readLastApplied(lastAppliedFile);
    const providers = providersFor(session, loaded.set, selected, lastApplied, options, tableInScope);
    const planning = {
      prune: options.prune,
      keep: (address: string) => options.exclude.some((p) => matchesPattern(p, address)),
    };
    const parts: PlanPart[] = [];
    for (const provider of providers) {
      await provider.read();
      parts.push(await provider.plan(planning));
    }
    if (!options.scopeFromPlan) {
      const tables = loaded.set.routingTables.map((t) => t.table.address);
      // Declared as written and as planned (an entitlement declared by type id is planned under its type name).
      const declared = [...nodes.map((n) => n.address), ...parts.flatMap((p) => p.declaredAddresses)];
      const live = parts.flatMap((p) => [...p.liveAddresses()]);
      assertPatternsMatch({ targets: options.target, excludes: options.exclude, declared, tables, live });
    }
    const { target, exclude, prune, allowReplace, maxDeletePercent } = options;
    const header = {
      target: session.target,
      manifests: { digest: loaded.digest, files: loaded.files },
      recordedOptions: { target, exclude, prune, allowReplace, maxDeletePercent },
      ...(scope ? { scope: planScope(scope) } : {}),
      toolVersion: VERSION,
    };
    const { plan, problems } = assemblePlan(parts, header, options);
    if (problems.length > 0) {
      const diagnostics = problems.map((p) => ({
        severity: 'error' as const,
        code: p.code,
        message: p.message,
        ...(p.address ? { address: p.address } : {}),
      }));
      throw new DiagnosticsError(diagnostics);
    }
    return { plan, providers, parts, session, lastApplied, lastAppliedFile };
  } catch (error) {
    if (!existing) await session.close();
    throw error;
  }
}

/** The providers of one run: the platform when connected, the routing engine when a declared table is in scope. */
function providersFor(
  session: Session,
  set: DesiredSet,
  desired: DesiredNode[],
  lastApplied: Map<string, LastAppliedEntry>,
  targets: PlanOptions,
  tableInScope: (table: string) => boolean,
): Provider[] {
  const providers: Provider[] = [];
  const { client } = session;
  if (client) {
    const settings = session.settings ? { settings: session.settings } : {};
    providers.push(platformProvider({ client, P: client.paths.P, desired, lastApplied, ...settings }));
  }
  if (session.routing && routingInScope(set, targets) && set.routingTables.some((t) => tableInScope(t.table.address)))
    providers.push(routingProvider({ client: session.routing, set, tables: tableInScope }));
  return providers;
}
