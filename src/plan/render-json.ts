/**
 * The plan file (CONTRACT.md section 4): what `plan --out` writes, `apply --plan` reads and
 * `plan --format json` prints. Keys come out in the contract's order whatever order the
 * planner built them in, so two plans of the same state are byte-identical (but for
 * `createdAt`) and diff cleanly.
 */
import { redactChange } from './render-common.js';
import type { Change, PatchOperation, Plan, PlanMessage, PlannedRequest } from './types.js';

/** The plan as pretty-printed JSON (two spaces), ending with a newline. */
export function renderJson(plan: Plan): string {
  return `${JSON.stringify(orderPlan(plan), null, 2)}\n`;
}

/**
 * A copy of the plan with the contract's key order (object data sorted by key) and
 * sensitive fields masked.
 * `unmanaged` (not in the contract's example) sits between `changes` and `warnings`, and
 * `options` (neither) after `manifests`.
 */
export function orderPlan(plan: Plan): Plan {
  return {
    formatVersion: plan.formatVersion,
    createdAt: plan.createdAt,
    tool: { name: plan.tool.name, version: plan.tool.version },
    target: pick(plan.target, ['baseUrl', 'instance', 'routingEngine']),
    manifests: { digest: plan.manifests.digest, files: [...plan.manifests.files] },
    ...(plan.options
      ? { options: pick(plan.options, ['target', 'exclude', 'prune', 'allowReplace', 'maxDeletePercent']) }
      : {}),
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
    warnings: plan.warnings.map(orderMessage),
    errors: plan.errors.map(orderMessage),
  };
}

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
  ordered.before = sortKeysDeep(change.before) as Change['before'];
  ordered.after = sortKeysDeep(change.after) as Change['after'];
  ordered.patch = change.patch.map((op) => {
    const o = pick(op, ['op', 'path', 'from', 'value']) as PatchOperation;
    if ('value' in o) o.value = sortKeysDeep(o.value);
    return o;
  });
  ordered.requests = change.requests.map((r) => pick(r, ['method', 'path', 'role']) as PlannedRequest);
  if (change.sensitiveDigests) ordered.sensitiveDigests = sortedRecord(change.sensitiveDigests);
  return ordered;
}

function orderMessage(m: PlanMessage): PlanMessage {
  return pick(m, ['code', 'message', 'address', 'role']);
}

/** `source`'s listed keys, in the listed order, leaving out those that are undefined. */
function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): T {
  const out: Partial<T> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out as T;
}

/**
 * Object data (before, after, patch values) with keys sorted at every depth: `before` comes
 * from the API, whose key order may vary between reads, and a plan file must not.
 */
function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  // fromEntries defines properties, so a live key named `__proto__` stays data.
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortKeysDeep(record[key])]),
  );
}

function sortedRecord(record: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) {
    const value = record[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
