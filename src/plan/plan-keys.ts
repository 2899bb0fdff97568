/**
 * The members of each object of the plan file, in the order the file lists them: what
 * `plan --out` writes (render-json.ts) and all that `apply --plan` and `show` accept
 * (plan-validate.ts): a member not listed here is refused, never ignored. Each list is
 * checked at compile time against its type, so a field added to the plan data without a
 * place here fails the build instead of reaching no file, or a file no reader accepts.
 */
import type {
  CapacityRow,
  Change,
  FieldOrigin,
  GitProvenance,
  PatchOperation,
  Plan,
  PlanMessage,
  PlannedRequest,
  PlanOptions,
  PlanProvenance,
  PlanScope,
  PlanBaseline,
  PlanOverride,
  PlanSummary,
  PolicyChange,
} from './types.js';

/** True when `Keys` names every key of `T`: `complete<T>()(list)` fails to compile otherwise. */
type Complete<T, Keys extends readonly (keyof T)[]> = [Exclude<keyof T, Keys[number]>] extends [never] ? Keys : never;

export function complete<T>() {
  return <const Keys extends readonly (keyof T)[]>(keys: Complete<T, Keys>): Keys => keys;
}

/** `source`'s members named by `keys`, in their order, without the undefined ones (the plan file's ordered copies). */
export function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): T {
  const out: Partial<T> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out as T;
}

/** The plan file's top-level members, in the file's order (`digest` is added right after `createdAt`). */
export const PLAN_KEYS = complete<Plan>()([
  'formatVersion',
  'createdAt',
  'digest',
  'changeSet',
  'tool',
  'target',
  'manifests',
  'provenance',
  'options',
  'policy',
  'policiesFrom',
  'policyChanges',
  'scope',
  'summary',
  'changes',
  'unmanaged',
  'capacity',
  'baselines',
  'coverage',
  'routingTests',
  'changeWindows',
  'warnings',
  'errors',
]);

export const CHANGE_KEYS = complete<Change>()([
  'address',
  'previousAddress',
  'kind',
  'provider',
  'action',
  'id',
  'before',
  'after',
  'patch',
  'reason',
  'reasonCode',
  'replacedBy',
  'liveDigest',
  'dependsOn',
  'requests',
  'sensitiveDigests',
  'source',
  'fieldSources',
]);

export const REQUEST_KEYS = complete<PlannedRequest>()(['method', 'path', 'pathTemplate', 'role']);
export const PATCH_KEYS = complete<PatchOperation>()(['op', 'path', 'from', 'value']);
export const MESSAGE_KEYS = complete<PlanMessage>()(['code', 'message', 'address', 'role', 'rule', 'source']);
export const SUMMARY_KEYS = complete<PlanSummary>()(['create', 'update', 'replace', 'delete', 'noop', 'unmanaged']);
export const UNMANAGED_KEYS = complete<Plan['unmanaged'][number]>()(['address', 'kind', 'id']);
export const TOOL_KEYS = complete<Plan['tool']>()(['name', 'version']);
export const TARGET_KEYS = complete<Plan['target']>()(['baseUrl', 'instance', 'routingEngine']);
export const MANIFESTS_KEYS = complete<Plan['manifests']>()(['digest', 'files', 'paths']);
export const CHANGE_SET_KEYS = complete<NonNullable<Plan['changeSet']>>()(['digest', 'changes']);
export const POLICY_KEYS = complete<NonNullable<Plan['policy']>>()(['overrides']);
export const POLICIES_FROM_KEYS = complete<NonNullable<Plan['policiesFrom']>>()(['ref', 'commit']);
export const POLICY_CHANGE_KEYS = complete<PolicyChange>()(['rule', 'policy', 'change', 'effect', 'details', 'source']);
export const CAPACITY_KEYS = complete<CapacityRow>()([
  'address',
  'scope',
  'subject',
  'declared',
  'assigned',
  'reserved',
  'inUse',
  'headroom',
  'warning',
]);
export const FIELD_ORIGIN_KEYS = complete<FieldOrigin>()(['from', 'path', 'source', 'baseline', 'reason']);
export const BASELINE_KEYS = complete<PlanBaseline>()([
  'name',
  'source',
  'selector',
  'documentKind',
  'documents',
  'edited',
  'overrides',
]);
export const OVERRIDE_KEYS = complete<PlanOverride>()([
  'document',
  'path',
  'reason',
  'remove',
  'source',
  'baselineSource',
]);
export const OPTION_KEYS = complete<PlanOptions>()([
  'target',
  'exclude',
  'prune',
  'allowReplace',
  'maxDeletePercent',
  'maxUpdatePercent',
  'allowPolicy',
  'allowAddressInUse',
]);
export const SCOPE_KEYS = complete<PlanScope>()([
  'changedSince',
  'commit',
  'documents',
  'ofDocuments',
  'addresses',
  'files',
  'targets',
]);
export const PROVENANCE_KEYS = complete<PlanProvenance>()(['git', 'pullRequest', 'ci', 'user']);
export const GIT_KEYS = complete<GitProvenance>()([
  'commit',
  'branch',
  'dirty',
  'uncommitted',
  'uncommittedCount',
  'authenticated',
]);
export const PULL_REQUEST_KEYS = complete<NonNullable<PlanProvenance['pullRequest']>>()([
  'number',
  'url',
  'from',
  'authenticated',
]);
export const CI_KEYS = complete<NonNullable<PlanProvenance['ci']>>()(['system', 'url', 'actor', 'authenticated']);
export const USER_KEYS = complete<NonNullable<PlanProvenance['user']>>()(['username', 'login', 'api', 'authenticated']);
export const UNCOMMITTED_KEYS = complete<NonNullable<GitProvenance['uncommitted']>[number]>()(['file', 'state']);
