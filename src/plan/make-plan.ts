import { kinds } from '../kinds/index.js';
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
import { PLAN_FORMAT_VERSION, type Plan, type PlanMessage } from './types.js';

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
  toolVersion: string;
  now?: Date;
}

export interface MadePlan {
  plan: Plan;
  /** Mistakes that make the plan impossible (exit 1), besides the plan's refusals (exit 3). */
  problems: PlanMessage[];
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
  if (input.platform) {
    ctx = { P: input.platform.P, refs: createReferenceData(input.platform.client, input.platform.P) };
    live = await new LiveReader(input.platform.client, ctx, input.lastApplied).read(input.desired, kinds.map((k) => k.kind));
    out = await computeChanges({ desired: input.desired, live, lastApplied: input.lastApplied, ctx, options: input.options });
  }
  const routing = input.routing ? await planRoutingTables(input.routing.set, input.routing.client, { prune: input.options.prune }) : undefined;
  const changes = [...out.changes, ...(routing?.changes ?? [])];
  const routingLive = new Map<string, number>([[ROUTING_ROW, [...(routing?.liveCounts.values() ?? [])].reduce((a, b) => a + b, 0)]]);
  const refusals = [...out.refusals, ...checkSafety(changes, input.desired, live, input.options, input.platform?.client.permissions, routingLive)];
  const unmanagedCount = out.unmanaged.length + (routing?.unmanaged ?? 0);
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: (input.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    tool: { name: 'switchboard', version: input.toolVersion },
    target: input.target,
    manifests: input.manifests,
    summary: summarize(changes, out.noop + (routing?.noop ?? 0), unmanagedCount),
    changes,
    unmanaged: out.unmanaged,
    warnings: out.warnings,
    errors: refusals,
  };
  return { plan, problems: [...out.problems, ...(routing?.problems ?? [])], live, ...(ctx ? { ctx } : {}), ...(routing ? { routing } : {}) };
}
