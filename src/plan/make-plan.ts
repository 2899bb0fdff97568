import { parentAddressOf } from '../kinds/address-path.js';
import { templatePath } from './change-set.js';
import { lookalikeWarnings } from './lookalikes.js';
import type { PlanPart } from './part.js';
import { allowedReplaceWarnings, checkSafety, type SafetyOptions } from './safety.js';
import { summarize } from './summary.js';
import { partialPlanWarning } from './targets.js';
import {
  PLAN_FORMAT_VERSION,
  type CapacityRow,
  type Change,
  type Plan,
  type PlanMessage,
  type PlanOptions,
  type PlanScope,
} from './types.js';

/** What a plan says besides its providers' parts. */
export interface PlanHeader {
  target: Plan['target'];
  manifests: Plan['manifests'];
  /** Recorded in the plan as `options` (what the command line asked). */
  recordedOptions?: PlanOptions;
  /** `--changed-since`: what the plan was scoped to. */
  scope?: PlanScope;
  /** Who made the plan, where (src/run/provenance.ts). */
  provenance?: Plan['provenance'];
  /** `--policies-from`: the ref whose Policy documents judged the plan, and how the manifests' differ. */
  policiesFrom?: Plan['policiesFrom'];
  policyChanges?: Plan['policyChanges'];
  /** docs/assurance.md: the Emergency coverage section, the routing vectors, the change windows. */
  assurance?: Pick<Plan, 'coverage' | 'routingTests' | 'changeWindows'>;
  toolVersion: string;
  now?: Date;
}

const PERMISSIONS_NOT_CHECKED: PlanMessage = {
  code: 'SB_PERMISSIONS_NOT_CHECKED',
  message:
    "planned with --no-check-permissions: the planning user's api_rules were not checked; " +
    'apply checks those of the user that applies',
};

/** What the checks made after the providers planned add to the plan (capacity pre-flight, policies). */
export interface PlanChecks {
  /** Refusals (exit 3): a subscription's UC platform not enabled, error rules violated. */
  errors: readonly PlanMessage[];
  warnings: readonly PlanMessage[];
  /** The Capacity section (absent from the plan when empty). */
  capacity: readonly CapacityRow[];
  /** The policy rules overridden with --allow-policy (absent from the plan when none). */
  overrides: readonly string[];
  /** What checking the policies cost: rules checked, CPU milliseconds (for `--stats` and the benchmark). */
  policyCost?: { rules: number; cpuMs: number };
}

export interface AssembledPlan {
  plan: Plan;
  /** Mistakes that make the plan impossible (exit 1), besides the plan's refusals (exit 3). */
  problems: PlanMessage[];
}

/**
 * The plan from its providers' parts, in provider order: their changes, counts and
 * findings, every refusal of the safety rails, and what the later checks found (the
 * capacity pre-flight, the policies). Nothing is sent here.
 */
export function assemblePlan(
  parts: readonly PlanPart[],
  header: PlanHeader,
  options: SafetyOptions,
  checks?: PlanChecks,
): AssembledPlan {
  for (const part of parts) for (const change of part.changes) addressRequests(change, part.liveIdOf);
  const changes = parts.flatMap((p) => p.changes);
  const unchecked = options.checkPermissions === false && changes.length > 0 ? [PERMISSIONS_NOT_CHECKED] : [];
  const noop = parts.reduce((n, p) => n + p.noop, 0);
  const unmanaged = parts.flatMap((p) => p.unmanaged);
  const unmanagedCount = unmanaged.length + parts.reduce((n, p) => n + p.unmanagedCount, 0);
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: (header.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    tool: { name: 'switchboard', version: header.toolVersion },
    target: header.target,
    manifests: header.manifests,
    ...(header.provenance ? { provenance: header.provenance } : {}),
    ...(header.recordedOptions ? { options: header.recordedOptions } : {}),
    ...(checks && checks.overrides.length > 0 ? { policy: { overrides: [...checks.overrides] } } : {}),
    ...(header.policiesFrom ? { policiesFrom: header.policiesFrom, policyChanges: header.policyChanges ?? [] } : {}),
    ...(header.scope ? { scope: header.scope } : {}),
    summary: summarize(changes, noop, unmanagedCount),
    changes,
    unmanaged,
    ...(checks && checks.capacity.length > 0 ? { capacity: { rows: [...checks.capacity] } } : {}),
    ...header.assurance,
    warnings: [
      ...scopedPlanWarning(header.scope),
      ...partialPlanWarning(header.recordedOptions),
      ...parts.flatMap((p) => [...p.warnings, ...lookalikeWarnings(p)]),
      ...allowedReplaceWarnings(parts, options),
      ...unchecked,
      ...(checks?.warnings ?? []),
    ],
    errors: [...parts.flatMap((p) => p.refusals), ...checkSafety(parts, options), ...(checks?.errors ?? [])],
  };
  return { plan, problems: parts.flatMap((p) => p.problems) };
}

/**
 * Gives each request whose path holds live ids its `pathTemplate` (change-set.ts): the ids
 * of the change's object and of the objects its address lies under, as the provider read them.
 */
function addressRequests(change: Change, liveIdOf: ((address: string) => string | undefined) | undefined): void {
  const chain: { address: string; id: string }[] = [];
  for (let at: string | undefined = change.address; at !== undefined; at = parentAddressOf(at)) {
    const id = at === change.address ? change.id : liveIdOf?.(at);
    if (id !== undefined) chain.unshift({ address: at, id });
  }
  if (chain.length === 0) return;
  change.requests = change.requests.map((request) => {
    const template = templatePath(request.path, chain);
    return template === request.path ? request : { ...request, pathTemplate: template };
  });
}

/**
 * The warning every `--changed-since` plan carries, so that each format says what it
 * compared and what its safety rails counted.
 */
function scopedPlanWarning(scope: PlanScope | undefined): PlanMessage[] {
  if (!scope) return [];
  return [
    {
      code: 'SB_PLAN_SCOPED',
      message:
        `scoped to ${scope.documents} of ${scope.ofDocuments} documents changed since ${scope.changedSince} ` +
        `(commit ${scope.commit.slice(0, 12)}): only their live subtrees were read, and the safety rails ` +
        '(deletion limits, update threshold, unmanaged counts) count this scope only; drift elsewhere is not ' +
        'shown (a full plan shows it)',
    },
  ];
}
