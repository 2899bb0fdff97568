import { kindOf, kinds } from '../kinds/index.js';
import type { KindContext } from '../kinds/types.js';
import type { DesiredSet } from '../manifest/index.js';
import type { RoutingClient } from '../routing/index.js';
import { LiveReader } from '../state/read.js';
import { createReferenceData, type RefsClient } from '../state/refs.js';
import type { DesiredNode, LastApplied, ListingClient, LiveState } from '../state/types.js';
import { computeChanges, type PlannerOutput } from './planner.js';
import { ROUTING_ROW, planRoutingTables, type RoutingPlanOutput } from './routing-plan.js';
import { checkSafety, type PermissionCheck, type SafetyOptions } from './safety.js';
import { summarize } from './summary.js';
import { partialPlanWarning } from './targets.js';
import { PLAN_FORMAT_VERSION, type Plan, type PlanMessage, type PlanOptions } from './types.js';

/** The platform API side of a plan: the client and `P` of the instance in use. */
export interface PlatformInput {
  client: ListingClient & RefsClient & { permissions?: PermissionCheck };
  P: string;
}

/** Everything `plan` needs once the manifests are loaded and the endpoints are reachable. */
export interface MakePlanInput {
  desired: readonly DesiredNode[];
  manifests: { digest: string; files: string[] };
  /** Absent when the manifests hold only RoutingTable documents. */
  platform?: PlatformInput;
  /** Present when the manifests hold RoutingTable documents. */
  routing?: { set: DesiredSet; client: RoutingClient };
  target: Plan['target'];
  lastApplied: LastApplied;
  options: SafetyOptions & { prune: boolean; keep?: (address: string) => boolean };
  /** Recorded in the plan as `options` (what the command line asked). */
  recordedOptions?: PlanOptions;
  toolVersion: string;
  now?: Date;
}

export interface MadePlan {
  plan: Plan;
  /** Mistakes that make the plan impossible (exit 1), besides the plan's refusals (exit 3). */
  problems: PlanMessage[];
  /** The desired nodes as planned (after canonicalisation). */
  desired: readonly DesiredNode[];
  live: LiveState;
  /** The kind context the plan was computed with (apply rebuilds requests with it). */
  ctx?: KindContext;
  routing?: RoutingPlanOutput;
}

const EMPTY: PlannerOutput = { changes: [], noop: 0, unmanaged: [], refusals: [], warnings: [], problems: [] };

/** Reads the live scope, diffs, and runs every safety rail: nothing is written. */
export async function makePlan(input: MakePlanInput): Promise<MadePlan> {
  let live: LiveState = { byAddress: new Map(), collections: [], problems: [] };
  let out = EMPTY;
  let ctx: KindContext | undefined;
  const problems: PlanMessage[] = [];
  let desired = input.desired;
  if (input.platform) {
    ctx = { P: input.platform.P, refs: createReferenceData(input.platform.client, input.platform.P) };
    desired = await canonicalize(input.desired, ctx, problems);
    live = await new LiveReader(input.platform.client, ctx, input.lastApplied).read(desired, kinds.map((k) => k.kind));
    out = await computeChanges({ desired, live, lastApplied: input.lastApplied, ctx, options: input.options });
  }
  const routing = input.routing ? await planRoutingTables(input.routing.set, input.routing.client, { prune: input.options.prune }) : undefined;
  const changes = [...out.changes, ...(routing?.changes ?? [])];
  const routingLive = new Map<string, number>([[ROUTING_ROW, [...(routing?.liveCounts.values() ?? [])].reduce((a, b) => a + b, 0)]]);
  const refusals = [...out.refusals, ...checkSafety(changes, desired, live, input.options, input.platform?.client.permissions, routingLive)];
  const unmanagedCount = out.unmanaged.length + (routing?.unmanaged ?? 0);
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: (input.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    tool: { name: 'switchboard', version: input.toolVersion },
    target: input.target,
    manifests: input.manifests,
    ...(input.recordedOptions ? { options: input.recordedOptions } : {}),
    summary: summarize(changes, out.noop + (routing?.noop ?? 0), unmanagedCount),
    changes,
    unmanaged: out.unmanaged,
    warnings: [...partialPlanWarning(input.recordedOptions), ...out.warnings],
    errors: refusals,
  };
  return { plan, problems: [...problems, ...out.problems, ...(routing?.problems ?? [])], desired, live, ...(ctx ? { ctx } : {}), ...(routing ? { routing } : {}) };
}

/** Applies the kinds' canonicalize hooks (e.g. entitlement type id → name) before reading. */
async function canonicalize(nodes: readonly DesiredNode[], ctx: KindContext, problems: PlanMessage[]): Promise<DesiredNode[]> {
  const seen = new Set<string>();
  const result: DesiredNode[] = [];
  for (const node of nodes) {
    const hook = kindOf(node.kind).canonicalize;
    let next = node;
    if (hook) {
      try {
        const { address, fields } = await hook(node, ctx);
        if (address !== node.address) next = { ...node, address, fields };
      } catch (error) {
        problems.push({ code: 'SB_UNKNOWN_REFERENCE', address: node.address, message: error instanceof Error ? error.message : String(error) });
        continue;
      }
    }
    if (seen.has(next.address)) {
      problems.push({ code: 'SB_DUPLICATE_ADDRESS', address: next.address, message: `declared twice (once by type id): ${node.source ?? node.address}` });
      continue;
    }
    seen.add(next.address);
    result.push(next);
  }
  return result;
}
