/**
 * The plan file (docs/plans.md): what `plan --out` writes, `apply --plan` reads and
 * `plan --format json` prints. Keys come out in the contract's order whatever order the
 * planner built them in, so two plans of the same state are byte-identical (but for
 * `createdAt`) and diff cleanly.
 */
import { compareKeys, digestOf, sortKeysDeep } from '../core/canonical-json.js';
import { hasSecrets, maskSecrets } from '../core/secrets.js';
import { redactChange } from './render-common.js';
import type { CapacityRow, Change, PatchOperation, Plan, PlanMessage, PlannedRequest, PlanOptions } from './types.js';

/**
 * The plan file: the plan as pretty-printed JSON (two spaces), ending with a newline, its
 * `digest` that of this very content (plan-digest.ts).
 */
export function renderJson(plan: Plan): string {
  return `${JSON.stringify(planDocument(plan), null, 2)}\n`;
}

/**
 * The plan as its file holds it: the contract's key order, sensitive fields masked, every
 * known secret masked (a platform message may quote one), and `digest` (right after
 * `createdAt`) computed over exactly that content, whatever digest `plan` carried.
 */
export function planDocument(plan: Plan): Plan {
  const content = maskedCopy(orderPlan(plan));
  const { formatVersion, createdAt, ...rest } = content;
  return { formatVersion, createdAt, digest: digestOf(content), ...rest };
}

function maskedCopy(content: Plan): Plan {
  if (!hasSecrets()) return content;
  const text = JSON.stringify(content);
  const masked = maskSecrets(text);
  return masked === text ? content : (JSON.parse(masked) as Plan);
}

/**
 * A copy of the plan with the contract's key order (object data sorted by key) and
 * sensitive fields masked, without `digest` (planDocument adds the digest of this content).
 * `unmanaged` (not in the contract's example) sits between `changes` and `warnings`, then
 * `capacity`; `options` (neither) after `manifests`, then `policy`.
 */
export function orderPlan(plan: Plan): Plan {
  const ordered: Plan = {
    formatVersion: plan.formatVersion,
    createdAt: plan.createdAt,
    tool: { name: plan.tool.name, version: plan.tool.version },
    target: pick(plan.target, ['baseUrl', 'instance', 'routingEngine']),
    manifests: {
      digest: plan.manifests.digest,
      files: [...plan.manifests.files],
      ...(plan.manifests.paths ? { paths: [...plan.manifests.paths] } : {}),
    },
    ...(plan.options ? { options: pick(plan.options, OPTION_KEYS) } : {}),
    ...(plan.policy ? { policy: { overrides: [...plan.policy.overrides] } } : {}),
    ...(plan.scope
      ? {
          scope: {
            ...pick(plan.scope, ['changedSince', 'commit', 'documents', 'ofDocuments']),
            addresses: [...plan.scope.addresses],
            files: Object.fromEntries(Object.entries(plan.scope.files).sort(([a], [b]) => (a < b ? -1 : 1))),
          },
        }
      : {}),
    summary: pick(plan.summary, ['create', 'update', 'replace', 'delete', 'noop', 'unmanaged']),
    changes: plan.changes.map((c) => orderChange(redactChange(c))),
    unmanaged: plan.unmanaged.map((u) => pick(u, ['address', 'kind', 'id'])),
    ...(plan.capacity ? { capacity: { rows: plan.capacity.rows.map((r) => pick(r, CAPACITY_KEYS)) } } : {}),
    warnings: plan.warnings.map(orderMessage),
    errors: plan.errors.map(orderMessage),
  };
  // Top-level additions (`digest` is planDocument's) after the contract's keys.
  const { digest: _digest, ...rest } = plan;
  return pick({ ...rest, ...ordered }, PLAN_KEYS);
}

const OPTION_KEYS = [
  'target',
  'exclude',
  'prune',
  'allowReplace',
  'maxDeletePercent',
  'maxUpdatePercent',
  'allowPolicy',
] as const satisfies readonly (keyof PlanOptions)[];

const CAPACITY_KEYS = [
  'address',
  'scope',
  'subject',
  'declared',
  'assigned',
  'reserved',
  'inUse',
  'headroom',
  'warning',
] as const satisfies readonly (keyof CapacityRow)[];

/** The plan file's known top-level keys, in the contract's order (`digest` is planDocument's). */
export const PLAN_KEYS = [
  'formatVersion',
  'createdAt',
  'tool',
  'target',
  'manifests',
  'options',
  'policy',
  'summary',
  'changes',
  'unmanaged',
  'capacity',
  'warnings',
  'errors',
] as const satisfies readonly (keyof Plan)[];

const CHANGE_KEYS = [
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
  'liveDigest',
  'dependsOn',
  'requests',
  'sensitiveDigests',
  'source',
] as const satisfies readonly (keyof Change)[];

function orderChange(change: Change): Change {
  const ordered = pick(change, CHANGE_KEYS);
  ordered.before = sortKeysDeep(change.before);
  ordered.after = sortKeysDeep(change.after);
  ordered.patch = change.patch.map((op) => {
    const o = pick(op, ['op', 'path', 'from', 'value']) as PatchOperation;
    if ('value' in o) o.value = sortKeysDeep(o.value);
    return o;
  });
  ordered.requests = change.requests.map((r) => pick(r, ['method', 'path', 'role']) as PlannedRequest);
  if (change.sensitiveDigests) ordered.sensitiveDigests = sortKeysDeep(change.sensitiveDigests);
  return ordered;
}

function orderMessage(m: PlanMessage): PlanMessage {
  return pick(m, ['code', 'message', 'address', 'role', 'rule', 'source']);
}

/**
 * `source`'s listed keys, in the listed order, leaving out those that are undefined, then
 * any other keys in canonical order (their values' keys sorted too): a field added to the
 * plan data, or one a newer switchboard wrote, reaches the file and every render of it.
 */
function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): T {
  const out: Partial<T> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  const listed: ReadonlySet<PropertyKey> = new Set(keys);
  const record = source as Record<string, unknown>;
  for (const key of Object.keys(source).sort(compareKeys)) {
    if (listed.has(key) || record[key] === undefined) continue;
    Object.defineProperty(out, key, {
      value: sortKeysDeep(record[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as T;
}
