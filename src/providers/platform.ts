import { atOrBelowAny } from '../core/address-prefix.js';
import { applyChanges } from '../apply/executor.js';
import type { ApplyClient } from '../apply/types.js';
import { hasKind, kinds } from '../kinds/index.js';
import type { KindContext, KindSettings, LiveObject } from '../kinds/types.js';
import { capacityPreflight } from '../plan/capacity.js';
import { canonicalize } from '../plan/canonicalize.js';
import { addressesInUse } from '../plan/coverage/rail.js';
import { linkKinds, readCoverage } from '../plan/coverage/read.js';
import { kindRails } from '../plan/kind-rails.js';
import { valueText } from '../plan/policy/facts.js';
import { matchesPattern, selectTargets } from '../plan/targets.js';
import { computeChanges, type PlannerOutput } from '../plan/planner.js';
import type { PermissionCheck } from '../plan/safety.js';
import type { PlanMessage } from '../plan/types.js';
import { capacityReads, misreadReport, unreadableOn } from '../state/capacity-reads.js';
import { fetchListItems } from '../state/list-items.js';
import { LiveReader } from '../state/read.js';
import { unverifiableDigestWarnings } from '../state/last-applied.js';
import { createReferenceData, type RefsClient } from '../state/refs.js';
import type { DesiredNode, LastApplied, ListingClient, LiveState } from '../state/types.js';
import { stage } from './stage.js';
import type { Provider, ProviderPlanOptions } from './types.js';

/** What the platform provider needs of the API client (ApiClient satisfies it). */
export type PlatformClient = ListingClient &
  RefsClient &
  ApplyClient & {
    permissions?: PermissionCheck;
    /** The caller's profile, read beside the first reads: `permissions` may be used once it has answered. */
    profile?(): Promise<unknown>;
  };

export interface PlatformInput {
  client: PlatformClient;
  /** `P` of the instance in use (`/api/v01/draas/{instance}`). */
  P: string;
  /** Every declared object of the manifests. */
  desired: readonly DesiredNode[];
  /**
   * `--target` / `--exclude`: applied once the objects are canonical, so that a pattern may
   * name either address of an object (as planned, as written).
   */
  targets?: { target: readonly string[]; exclude: readonly string[] };
  /** The last-applied record the plan compares write-only fields with. */
  lastApplied: LastApplied;
  /** Connection settings the kinds need (the branding read path). */
  settings?: KindSettings;
}

/**
 * The platform API as a provider: the kind table's objects, read through list endpoints
 * (src/state), diffed by the planner (src/plan) and applied by the executor (src/apply)
 * with the requests the planner built.
 */
export function platformProvider(input: PlatformInput): Provider {
  const ctx: KindContext = {
    P: input.P,
    refs: createReferenceData(input.client, input.P),
    ...(input.settings ? { settings: input.settings } : {}),
  };
  let read:
    | { desired: DesiredNode[]; live: LiveState; problems: PlanMessage[]; reader: LiveReader; excluded: string[] }
    | undefined;
  let planned: PlannerOutput | undefined;
  const listedForValues = new Map<string, Promise<readonly LiveObject[] | undefined>>();
  return {
    name: 'platform',
    async read() {
      const found: PlanMessage[] = [];
      const canonical = await canonicalize(input.desired, ctx, found);
      const { desired, problems } = inScope(canonical, found, input);
      const reader = new LiveReader(input.client, ctx, input.lastApplied);
      const live = await reader.read(
        desired,
        kinds.map((k) => k.kind),
      );
      read = { desired, live, problems, reader, excluded: excludedAsWritten(canonical, input) };
    },
    async plan(options) {
      const state = stage(read, 'plan', 'read');
      await input.client.profile?.();
      planned = await computeChanges({
        desired: state.desired,
        live: state.live,
        // After a rename, what was recorded under the old address answers for the new one.
        lastApplied: state.live.lastApplied ?? input.lastApplied,
        ctx,
        options: keepingExcluded(options, state.excluded),
      });
      const inUse = await addressesInUse({
        changes: planned.changes,
        live: state.live,
        fetch: (spec) => fetchListItems(input.client, spec),
        ctx,
        allow: options.allowAddressInUse === true,
      });
      return {
        provider: 'platform',
        changes: planned.changes,
        noop: planned.noop,
        unmanaged: planned.unmanaged,
        unmanagedCount: 0,
        warnings: [
          ...(state.live.warnings ?? []),
          ...planned.warnings,
          ...inUse.warnings,
          ...unverifiableDigestWarnings(input.lastApplied),
        ],
        refusals: [...planned.refusals, ...inUse.refusals],
        problems: [...state.problems, ...planned.problems],
        declaredAddresses: state.desired.map((d) => d.address),
        declaredObjects: state.desired,
        liveAddresses: () => state.live.byAddress.keys(),
        renames: () => renamesIn(state.live),
        liveIdOf: (address) => state.live.byAddress.get(address)?.id,
        ...kindRails(state.desired, state.live, input.client.permissions),
      };
    },
    async capacity() {
      const state = stage(read, 'capacity', 'read');
      const out = stage(planned, 'capacity', 'plan');
      const { misread, ...result } = await capacityPreflight({
        changes: out.changes,
        desired: state.desired,
        live: state.live,
        ctx,
        reads: capacityReads(state.reader, input.client),
      });
      if (misread) throw misreadReport(misread.request, misread.problem);
      return result;
    },
    // The parents of numbers that the plan's scope declares and that exist live.
    async coverage(listLimit) {
      const state = stage(read, 'coverage', 'read');
      const out = stage(planned, 'coverage', 'plan');
      const parents = new Set(linkKinds().flatMap((k) => k.parentKinds));
      const scopes = state.desired.flatMap((d) => {
        const live = parents.has(d.kind) ? state.live.byAddress.get(d.address) : undefined;
        return live ? [live] : [];
      });
      return readCoverage({
        scopes,
        changes: out.changes,
        list: (kind, parent) => state.reader.listUnderParent(kind, parent),
        listLimit,
      });
    },
    // A policy reference to a kind: every live object of it the caller can list (refused: unchecked).
    async liveValues(ref) {
      if (ref.kind === undefined || !hasKind(ref.kind)) return undefined;
      const { reader } = stage(read, 'liveValues', 'read');
      const { kind, field, gone } = ref;
      let listed = listedForValues.get(kind);
      if (!listed) {
        listed = unreadableOn(() => reader.listAll(kind)).then((answer) => ('ok' in answer ? answer.ok : undefined));
        listedForValues.set(kind, listed);
      }
      const objects = await listed;
      if (!objects) return undefined;
      const values = new Set<string>();
      for (const o of objects)
        if (o.fields[field] != null && gone?.(o.address) !== true) values.add(valueText(o.fields[field]));
      return values;
    },
    async apply(changes, env) {
      const state = stage(read, 'apply', 'read');
      const out = stage(planned, 'apply', 'plan');
      return applyChanges({
        changes,
        desired: state.desired,
        live: state.live,
        client: input.client,
        ctx,
        requests: out.requests,
        options: { concurrency: env.concurrency, failFast: env.failFast, runId: env.runId },
        record: env.record,
        journal: env.journal,
        ...(env.signal ? { signal: env.signal } : {}),
        onSettle: (_address, outcome) => env.onSettle(outcome),
      });
    },
  };
}

/**
 * The planned addresses of the declared objects an `--exclude` names as they are written, where
 * the plan writes them otherwise (an entitlement declared by type id is planned under its
 * type's name): excluded, they are not declared in this plan, and their live objects must be
 * kept from pruning under the planned address too (docs/plans.md: "matches under either
 * address"), with everything below them.
 */
function excludedAsWritten(canonical: readonly DesiredNode[], input: PlatformInput): string[] {
  const exclude = input.targets?.exclude ?? [];
  if (exclude.length === 0) return [];
  return canonical
    .filter((d) => d.declaredAs !== undefined && exclude.some((p) => matchesPattern(p, d.declaredAs as string)))
    .map((d) => d.address);
}

/** The planning options with the live objects of those addresses (and below them) kept. */
function keepingExcluded(options: ProviderPlanOptions, excluded: readonly string[]): ProviderPlanOptions {
  if (excluded.length === 0) return options;
  const set = new Set(excluded);
  const kept = (address: string) => atOrBelowAny(address, set);
  return { ...options, keep: (address) => kept(address) || options.keep?.(address) === true };
}

/**
 * The declared objects the targets select, and the canonicalisation problems of those
 * (an unknown type id outside `--target` is not this plan's problem).
 */
function inScope(
  canonical: DesiredNode[],
  problems: PlanMessage[],
  input: PlatformInput,
): { desired: DesiredNode[]; problems: PlanMessage[] } {
  if (!input.targets) return { desired: canonical, problems };
  const { target, exclude } = input.targets;
  const desired = selectTargets(canonical, target, exclude);
  if (problems.length === 0) return { desired, problems };
  const addresses = new Set(selectTargets(input.desired, target, exclude).map((d) => d.address));
  for (const d of desired) addresses.add(d.address);
  return { desired, problems: problems.filter((p) => p.address === undefined || addresses.has(p.address)) };
}

/** The live objects the reader found under a former name, by the address they now go by. */
function* renamesIn(live: LiveState): Iterable<readonly [string, string]> {
  for (const [address, object] of live.byAddress)
    if (object.previousAddress !== undefined) yield [address, object.previousAddress];
}
