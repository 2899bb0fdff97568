import { kinds } from '../kinds/index.js';
import type { KindContext } from '../kinds/types.js';
import { LiveReader } from '../state/read.js';
import { createReferenceData, type RefsClient } from '../state/refs.js';
import type { DesiredNode, LastApplied, ListingClient, LiveState } from '../state/types.js';
import { computeChanges } from './planner.js';
import { checkSafety, type PermissionCheck, type SafetyOptions } from './safety.js';
import { summarize } from './summary.js';
import { PLAN_FORMAT_VERSION, type Plan, type PlanMessage } from './types.js';

/** Everything `plan` needs once the manifests are loaded and the platform is reachable. */
export interface MakePlanInput {
  desired: readonly DesiredNode[];
  manifests: { digest: string; files: string[] };
  client: ListingClient & RefsClient & { permissions?: PermissionCheck };
  /** `P` of the spec for the instance in use. */
  P: string;
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
}

/** Reads the live scope, diffs, and runs every safety rail: nothing is written. */
export async function makePlan(input: MakePlanInput): Promise<MadePlan> {
  const ctx: KindContext = { P: input.P, refs: createReferenceData(input.client, input.P) };
  const reader = new LiveReader(input.client, ctx, input.lastApplied);
  const live = await reader.read(input.desired, kinds.map((k) => k.kind));
  const out = await computeChanges({ desired: input.desired, live, lastApplied: input.lastApplied, ctx, options: input.options });
  const refusals = [...out.refusals, ...checkSafety(out.changes, input.desired, live, input.options, input.client.permissions)];
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: (input.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    tool: { name: 'switchboard', version: input.toolVersion },
    target: input.target,
    manifests: input.manifests,
    summary: summarize(out.changes, out.noop, out.unmanaged.length),
    changes: out.changes,
    unmanaged: out.unmanaged,
    warnings: out.warnings,
    errors: refusals,
  };
  return { plan, problems: out.problems, live };
}
