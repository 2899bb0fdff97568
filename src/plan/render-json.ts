/**
 * The plan file (docs/plans.md): what `plan --out` writes, `apply --plan` reads and
 * `plan --format json` prints. Keys come out in the file's order (plan-keys.ts) whatever
 * order the planner built them in, so two plans of the same state are byte-identical (but
 * for `createdAt` and the digest) and diff cleanly.
 */
import { compareKeys, digestOf, sortKeysDeep } from '../core/canonical-json.js';
import { hasSecrets, maskCredentials, maskSecrets } from '../core/secrets.js';
import { changeSetSeal } from './change-set.js';
import {
  BASELINE_KEYS,
  CAPACITY_KEYS,
  CHANGE_KEYS,
  CI_KEYS,
  FIELD_ORIGIN_KEYS,
  GIT_KEYS,
  MESSAGE_KEYS,
  OPTION_KEYS,
  OVERRIDE_KEYS,
  PATCH_KEYS,
  POLICIES_FROM_KEYS,
  POLICY_CHANGE_KEYS,
  PULL_REQUEST_KEYS,
  REQUEST_KEYS,
  SCOPE_KEYS,
  SUMMARY_KEYS,
  TARGET_KEYS,
  TOOL_KEYS,
  UNCOMMITTED_KEYS,
  UNMANAGED_KEYS,
  USER_KEYS,
  pick,
} from './plan-keys.js';
import { orderAssurance } from './plan-assurance.js';
import { redactChange } from './render-common.js';
import type { Change, Plan, PlanBaseline, PlanMessage, PlanProvenance } from './types.js';

/**
 * The plan file: the plan as pretty-printed JSON (two spaces), ending with a newline, its
 * `digest` that of this very content (plan-digest.ts).
 */
export function renderJson(plan: Plan): string {
  return `${JSON.stringify(planDocument(plan), null, 2)}\n`;
}

/**
 * The plan as its file holds it: the file's key order, sensitive fields masked, every known
 * secret masked (a platform message may quote one), the change set's digest computed over
 * exactly those changes, and `digest` (right after `createdAt`) over exactly that content,
 * whatever digests `plan` carried.
 */
export function planDocument(plan: Plan): Plan {
  const masked = maskedCopy(orderPlan(plan));
  const { formatVersion, createdAt, ...rest } = masked;
  const changeSet = changeSetSeal(masked.changes);
  const digest = digestOf({ formatVersion, createdAt, changeSet, ...rest });
  return { formatVersion, createdAt, digest, changeSet, ...rest };
}

/**
 * The members that say what the plan was made against and where (switchboard's own record,
 * nothing of it from a manifest): only credentials are masked there, so that a manifest
 * naming one of their values (`${GITHUB_SHA}`) cannot erase it (secrets.ts, maskCredentials).
 */
const OWN_RECORD: ReadonlySet<string> = new Set(['tool', 'target', 'manifests', 'provenance']);

function maskedCopy(content: Plan): Plan {
  if (!hasSecrets()) return content;
  let changed = false;
  const members = Object.entries(content).map(([key, value]: [string, unknown]) => {
    if (value === undefined) return [key, value] as const;
    const text = JSON.stringify(value);
    const masked = OWN_RECORD.has(key) ? maskCredentials(text) : maskSecrets(text);
    if (masked === text) return [key, value] as const;
    changed = true;
    return [key, JSON.parse(masked) as unknown] as const;
  });
  return changed ? (Object.fromEntries(members) as unknown as Plan) : content;
}

/**
 * A copy of the plan with the file's key order (plan-keys.ts; object data sorted by key)
 * and sensitive fields masked, without `digest` and `changeSet` (planDocument adds them).
 * Only the members plan-keys.ts lists are copied: the file holds nothing a reader refuses.
 */
function orderPlan(plan: Plan): Plan {
  const ordered: Omit<Plan, 'digest' | 'changeSet'> = {
    formatVersion: plan.formatVersion,
    createdAt: plan.createdAt,
    tool: pick(plan.tool, TOOL_KEYS),
    target: pick(plan.target, TARGET_KEYS),
    manifests: {
      digest: plan.manifests.digest,
      files: [...plan.manifests.files],
      ...(plan.manifests.paths ? { paths: [...plan.manifests.paths] } : {}),
    },
    ...(plan.provenance ? { provenance: orderProvenance(plan.provenance) } : {}),
    ...(plan.options ? { options: pick(plan.options, OPTION_KEYS) } : {}),
    ...(plan.policy ? { policy: { overrides: [...plan.policy.overrides] } } : {}),
    ...(plan.policiesFrom ? { policiesFrom: pick(plan.policiesFrom, POLICIES_FROM_KEYS) } : {}),
    ...(plan.policyChanges ? { policyChanges: plan.policyChanges.map((c) => pick(c, POLICY_CHANGE_KEYS)) } : {}),
    ...(plan.scope
      ? {
          scope: {
            ...pick(plan.scope, SCOPE_KEYS),
            addresses: [...plan.scope.addresses],
            files: Object.fromEntries(Object.entries(plan.scope.files).sort(([a], [b]) => compareKeys(a, b))),
            targets: [...plan.scope.targets],
          },
        }
      : {}),
    summary: pick(plan.summary, SUMMARY_KEYS),
    changes: plan.changes.map((c) => orderChange(redactChange(c))),
    unmanaged: plan.unmanaged.map((u) => pick(u, UNMANAGED_KEYS)),
    ...(plan.capacity ? { capacity: { rows: plan.capacity.rows.map((r) => pick(r, CAPACITY_KEYS)) } } : {}),
    ...(plan.baselines ? { baselines: plan.baselines.map(orderBaseline) } : {}),
    ...orderAssurance(plan),
    warnings: plan.warnings.map(orderMessage),
    errors: plan.errors.map(orderMessage),
  };
  return ordered as Plan;
}

function orderProvenance(provenance: PlanProvenance): PlanProvenance {
  const { git, pullRequest, ci, user } = provenance;
  return {
    ...(git
      ? {
          git: {
            ...pick(git, GIT_KEYS),
            ...(git.uncommitted ? { uncommitted: git.uncommitted.map((u) => pick(u, UNCOMMITTED_KEYS)) } : {}),
          },
        }
      : {}),
    ...(pullRequest ? { pullRequest: pick(pullRequest, PULL_REQUEST_KEYS) } : {}),
    ...(ci ? { ci: pick(ci, CI_KEYS) } : {}),
    ...(user ? { user: pick(user, USER_KEYS) } : {}),
  };
}

function orderChange(change: Change): Change {
  const ordered = pick(change, CHANGE_KEYS);
  ordered.before = sortKeysDeep(change.before);
  ordered.after = sortKeysDeep(change.after);
  ordered.patch = change.patch.map((op) => {
    const o = pick(op, PATCH_KEYS);
    if ('value' in o) o.value = sortKeysDeep(o.value);
    return o;
  });
  ordered.requests = change.requests.map((r) => pick(r, REQUEST_KEYS));
  ordered.dependsOn = [...change.dependsOn];
  if (change.sensitiveDigests) ordered.sensitiveDigests = sortKeysDeep(change.sensitiveDigests);
  if (change.fieldSources)
    ordered.fieldSources = Object.fromEntries(
      Object.entries(change.fieldSources)
        .sort(([a], [b]) => compareKeys(a, b))
        .map(([field, origin]) => [field, pick(origin, FIELD_ORIGIN_KEYS)]),
    );
  return ordered;
}

function orderBaseline(baseline: PlanBaseline): PlanBaseline {
  return { ...pick(baseline, BASELINE_KEYS), overrides: baseline.overrides.map((o) => pick(o, OVERRIDE_KEYS)) };
}

function orderMessage(m: PlanMessage): PlanMessage {
  return pick(m, MESSAGE_KEYS);
}

export { PLAN_KEYS } from './plan-keys.js';
