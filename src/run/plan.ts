import * as path from 'node:path';
import type { ConcurrencySetting } from '../api/index.js';
import { DiagnosticsError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { VERSION } from '../core/package.js';
import { loadManifests, ManifestCache, type DesiredSet, type LoadResult } from '../manifest/index.js';
import { toDesiredNodes } from '../plan/desired.js';
import { assemblePlan } from '../plan/make-plan.js';
import { DEFAULT_MAX_UPDATE_PERCENT } from '../plan/safety.js';
import type { PlanPart } from '../plan/part.js';
import { sealPlan } from '../plan/plan-digest.js';
import { policyChanges } from '../plan/policy-changes.js';
import { assertPatternsMatch, matchesPattern, scopedNodes } from '../plan/targets.js';
import type { Plan, PlanOptions } from '../plan/types.js';
import { platformProvider, routingInScope, routingProvider, type Provider } from '../providers/index.js';
import { lastAppliedPath, readLastApplied } from '../state/last-applied.js';
import type { DesiredNode, LastAppliedEntry } from '../state/types.js';
import { ReadMeter } from '../core/read-meter.js';
import { yieldToEventLoop } from '../core/pacer.js';
import { askGit, changedScope, checkScopeFiles, closeGit, planScope } from './changed-since.js';
import { planChecks, readsUndeclaredTables, unknownOverrides } from './checks.js';
import { policiesAt, type PoliciesAt } from './policies-from.js';
import { planProvenance } from './provenance.js';
import { asInterrupted } from './interrupt.js';
import { withBaselines } from './plan-baselines.js';
import {
  coverageOf,
  needsCoverage,
  PLAN_COVERAGE_LIST_LIMIT,
  routingTestsOf,
  runClock,
  windowsOf,
  type RunClock,
  type WindowEnforcement,
} from './assurance.js';
import type { WindowCheck } from '../plan/windows.js';
import { ReadProgress } from './read-progress.js';
import { refuseManifestCredentials } from './manifest-credentials.js';
import { connectOptionsOf, openSession, type Session } from './session.js';
import { relativeLeadsInside } from '../core/path-inside.js';

/** The options of `plan` that `apply` and `demo` share (the command line's, flat). */
export interface PlanRunOptions extends PlanOptions {
  env?: string;
  config?: string;
  sim?: boolean;
  seed?: string;
  concurrency: ConcurrencySetting;
  stateDir: string;
  /** `plan --no-check-permissions`: the permission pre-flight is skipped (a warning says so). */
  checkPermissions?: boolean;
  /** `apply --plan`: the targets and excludes are the saved plan's (checked when it was made, not again). */
  scopeFromPlan?: boolean;
  /** `--changed-since REF`: only the documents changed since that git commit are read and compared. */
  changedSince?: string;
  /** `apply --plan` of a `--changed-since` plan: the address patterns it read (its `scope.targets`). */
  scopeTargets?: string[];
  /** `apply --plan` of a `--changed-since` plan: the files it read, which must still be the same. */
  scopeFiles?: Record<string, string>;
  /** `plan --policies-from REF`: the plan is judged by the Policy documents at that git commit. */
  policiesFrom?: string;
  /**
   * Load the manifests through the manifest cache in `<stateDir>/cache` (`plan`; `apply`
   * never does: what it sends comes from the manifest files alone).
   */
  manifestCache?: boolean;
  /**
   * Aborted (a signal, see watchInterrupts): the reads under way are cancelled and planRun
   * rejects with the signal's reason (`SB_INTERRUPTED`).
   */
  signal?: AbortSignal;
  /** Where the read progress goes (stderr), when it is shown: see ReadProgress. */
  progressOut?: NodeJS.WritableStream & { isTTY?: boolean };
  /** `plan --coverage`: the plan holds the Emergency coverage section (a coverage policy rule asks for it too). */
  coverage?: boolean;
  /** Items each coverage list holds at most (default 100); null: every one (`switchboard coverage`). */
  coverageListLimit?: number | null;
  /** `apply`: changes outside their change window are refused, or warned about under an emergency change. */
  enforceWindows?: WindowEnforcement;
  /** `apply --verify`: the run verifies the RoutingTest vectors live, so it connects the routing engine for them. */
  verify?: boolean;
  /**
   * Called once the plan's last request is answered, before the plan is assembled (never for a
   * session the caller gave): `plan` closes the session there, so that the logout's round trip
   * goes on while the plan is assembled, sealed and printed.
   */
  readsDone?: (session: Session) => void;
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
  /** What checking the manifests' policies cost (absent without policies). */
  policyCost?: { rules: number; cpuMs: number };
  /** The instant the change windows were read at, and its source. */
  clock: RunClock;
  /** The change windows over the plan's changes at that instant. */
  windows: WindowCheck;
  /** The manifests' RoutingTest vectors and routing tables (`apply --verify`: the tables type the lookups). */
  routingTests: LoadResult['routingTests'];
  routingTables: DesiredSet['routingTables'];
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
  const { signal } = options;
  const given = paths.length > 0 ? paths : ['.'];
  const changedSince = options.changedSince;
  // git's answers (a few processes) come while the manifests load; the manifests' mistakes are still reported first.
  const git = changedSince === undefined ? undefined : askGit(given, changedSince);
  git?.catch(() => undefined);
  let loaded: LoadResult;
  let base: PoliciesAt | undefined;
  let cache: ManifestCache | undefined;
  try {
    cache = options.manifestCache ? new ManifestCache(path.join(options.stateDir, 'cache')) : undefined;
    const cached = cache ? { cache, cacheInBackground: true } : {};
    loaded = await loadManifests(given, { documents: changedSince !== undefined, ...cached });
    if (!loaded.ok) throw new DiagnosticsError(loaded.diagnostics);
    if (options.scopeFiles) await checkScopeFiles(options.scopeFiles);
    if (options.policiesFrom !== undefined) base = await policiesAt(given, options.policiesFrom);
  } catch (error) {
    closeGit(git);
    throw error;
  }
  const scope = changedSince === undefined ? undefined : await changedScope(given, changedSince, loaded, { git });
  // The rules that judge the plan: the manifests' own, or those at --policies-from.
  const rules = base ? base.rules : loaded.policies;
  const allowPolicy = options.allowPolicy ?? [];
  const overrides = unknownOverrides(rules, allowPolicy);
  if (overrides.length > 0) throw new DiagnosticsError(overrides);
  const scopeTargets = scope?.targets ?? options.scopeTargets;
  // No document changed: nothing is read (no target at all would select everything).
  const nodes = scopeTargets === undefined ? toDesiredNodes(loaded.set) : scopedNodes(loaded.set, scopeTargets);
  const tableInScope = (table: string) => !scopeTargets || scopeTargets.some((p) => matchesPattern(p, table));
  const policyTables = readsUndeclaredTables(loaded.set, rules);
  const tables = loaded.set.routingTables.some((t) => tableInScope(t.table.address));
  const verifies = options.verify === true && loaded.routingTests.length > 0;
  const needs = { platform: nodes.length > 0, routing: tables || policyTables || verifies };
  if (signal?.aborted) throw asInterrupted(new Error('interrupted'), signal);
  const meter = new ReadMeter();
  const progress = options.progressOut && !existing ? new ReadProgress('plan', meter, options.progressOut) : undefined;
  progress?.start();
  const session =
    existing ??
    (await openSession({ ...connectOptionsOf(options, logger), meter }, needs).catch((error: unknown) => {
      progress?.stop();
      throw error;
    }));
  // Cancelling the clients ends the reads under way at once: a plan is never half used.
  const cancel = () => {
    session.client?.cancel();
    session.routing?.cancel('the run was interrupted');
  };
  if (signal?.aborted) cancel();
  else signal?.addEventListener('abort', cancel, { once: true });
  // Asked of git while the providers read (a few processes). It waits for the profile too: a run
  // that fails before the plan is made never awaits it, and its failure is then not an unhandled one.
  const provenance = planProvenance({ files: loaded.files, paths: given }, session);
  provenance.catch(() => undefined);
  try {
    refuseManifestCredentials(loaded.set);
    const clock = runClock(session);
    const lastAppliedFile = lastAppliedPath(options.stateDir, session.target.instance || 'routing');
    logger.info({ file: path.resolve(lastAppliedFile) }, 'last-applied record');
    const lastApplied = await readLastApplied(lastAppliedFile);
    const providers = providersFor(session, loaded, nodes, lastApplied, options, { policyTables, tableInScope });
    const planning = {
      prune: options.prune,
      keep: (address: string) => options.exclude.some((p) => matchesPattern(p, address)),
      allowAddressInUse: options.allowAddressInUse === true,
    };
    const parts: PlanPart[] = [];
    // The profile is read beside the first reads (ApiClient.connect): if it fails, the run ends with
    // its reason as soon as it is known, not after the reads.
    const profile = session.client?.profile();
    for (const provider of providers) {
      await (profile ? Promise.all([provider.read(), profile]) : provider.read());
      parts.push(await provider.plan(planning));
    }
    // Each --target and --exclude must match something; without them there is nothing to check (nor
    // 250,000 declared and live addresses to gather at national scale).
    if (!options.scopeFromPlan && (options.target.length > 0 || options.exclude.length > 0)) {
      const tables = loaded.set.routingTables.map((t) => t.table.address);
      // Declared as written and as planned (an entitlement declared by type id is planned under its type name).
      const declared = [...nodes.map((n) => n.address), ...parts.flatMap((p) => p.declaredAddresses)];
      const live = parts.flatMap((p) => [...p.liveAddresses()]);
      assertPatternsMatch({ targets: options.target, excludes: options.exclude, declared, tables, live });
    }
    // A plan that cannot be made (exit 1) is not checked further: nothing more is read for it.
    const impossible = parts.some((p) => p.problems.length > 0);
    const limit = options.coverageListLimit === undefined ? PLAN_COVERAGE_LIST_LIMIT : options.coverageListLimit;
    const coverage =
      !impossible && needsCoverage(options.coverage === true, rules) ? await coverageOf(providers, limit) : undefined;
    const found = impossible
      ? { errors: [], warnings: [], capacity: [], overrides: allowPolicy }
      : await planChecks({ set: loaded.set, rules, providers, parts, allowPolicy, ...(coverage ? { coverage } : {}) });
    if (!existing) options.readsDone?.(session);
    const windows = windowsOf(loaded, parts, clock.now, options.enforceWindows);
    const checks = {
      ...found,
      errors: [...found.errors, ...windows.errors],
      warnings: [...found.warnings, ...windows.warnings],
    };
    const routingTests = routingTestsOf(loaded, parts);
    const assurance = {
      ...(coverage ? { coverage } : {}),
      ...(routingTests ? { routingTests } : {}),
      ...(windows.check.notices.length > 0 ? { changeWindows: windows.check.notices } : {}),
    };
    const { target, exclude, prune, allowReplace, maxDeletePercent } = options;
    const maxUpdatePercent = options.maxUpdatePercent ?? DEFAULT_MAX_UPDATE_PERCENT;
    const header = {
      target: session.target,
      manifests: { digest: loaded.digest, files: loaded.files, paths: recordedPaths(given, process.cwd()) },
      recordedOptions: {
        target,
        exclude,
        prune,
        allowReplace,
        maxDeletePercent,
        maxUpdatePercent,
        allowPolicy,
        ...(options.allowAddressInUse ? { allowAddressInUse: true } : {}),
      },
      ...(scope ? { scope: planScope(scope) } : {}),
      provenance: await provenance,
      ...(base
        ? {
            policiesFrom: { ref: base.ref, commit: base.commit },
            policyChanges: policyChanges(base.rules, loaded.policies),
          }
        : {}),
      toolVersion: VERSION,
      now: new Date(clock.now),
      assurance,
    };
    const { plan, problems } = assemblePlan(parts, header, { ...options, maxUpdatePercent }, checks);
    if (problems.length > 0) {
      const diagnostics = problems.map((p) => ({
        severity: 'error' as const,
        code: p.code,
        message: p.message,
        ...(p.address ? { address: p.address } : {}),
      }));
      throw new DiagnosticsError(diagnostics);
    }
    // The last steps were CPU only: a signal that came during them is seen in this turn of the event loop.
    await yieldToEventLoop();
    if (signal?.aborted) throw asInterrupted(new Error('interrupted'), signal);
    const cost = checks.policyCost ? { policyCost: checks.policyCost } : {};
    // The digest the plan file, the printed plan and the journal show (plan-digest.ts).
    const sealed = sealPlan(withBaselines(plan, loaded, scope?.addresses));
    // The cache's new entries were written while the providers read (LoadOptions.cacheInBackground).
    await cache?.written();
    if (loaded.cache) logger.debug({ manifestCache: loaded.cache }, 'manifest cache');
    return {
      plan: sealed,
      providers,
      parts,
      session,
      lastApplied,
      lastAppliedFile,
      clock,
      windows: windows.check,
      routingTests: loaded.routingTests,
      routingTables: loaded.set.routingTables,
      ...cost,
    };
  } catch (error) {
    if (!existing) await session.close();
    throw asInterrupted(error, signal);
  } finally {
    progress?.stop();
    signal?.removeEventListener('abort', cancel);
  }
}

/**
 * The manifest paths as a plan file records them: relative to the folder the plan is made
 * in (a CI job's checkout is elsewhere on the next machine), with `/`; absolute when outside it.
 */
function recordedPaths(paths: readonly string[], cwd: string): string[] {
  return paths.map((p) => {
    const relative = path.relative(cwd, path.resolve(cwd, p));
    if (relative === '') return '.';
    if (!relativeLeadsInside(relative)) return path.resolve(cwd, p);
    return relative.split(path.sep).join('/');
  });
}

/** The providers of one run: the platform when connected, the routing engine when a declared table is in scope. */
function providersFor(
  session: Session,
  loaded: Pick<LoadResult, 'set' | 'routingTests'>,
  desired: DesiredNode[],
  lastApplied: Map<string, LastAppliedEntry>,
  targets: PlanOptions,
  routing: { policyTables: boolean; tableInScope: (table: string) => boolean },
): Provider[] {
  const providers: Provider[] = [];
  const { client } = session;
  const { set } = loaded;
  if (client) {
    const settings = session.settings ? { settings: session.settings } : {};
    const scope = { target: targets.target, exclude: targets.exclude };
    providers.push(platformProvider({ client, P: client.paths.P, desired, targets: scope, lastApplied, ...settings }));
  }
  // Also for a policy that reads a table no manifest declares (the provider then plans no row).
  const { policyTables, tableInScope } = routing;
  const planTables = routingInScope(set, targets) && set.routingTables.some((t) => tableInScope(t.table.address));
  if (session.routing && (planTables || policyTables))
    providers.push(
      routingProvider({ client: session.routing, set, planTables, tables: tableInScope, tests: loaded.routingTests }),
    );
  return providers;
}
