/**
 * Checking that a parsed JSON value is a plan this switchboard can apply: the shape of every
 * member apply relies on, consistent counts, no secret in clear. Problems are collected (up
 * to a few) and reported at once, with their JSON path. The version, the digest and unknown
 * members are checked before (plan-file.ts, plan-members.ts).
 */
import { isPlainObject } from '../core/values.js';
import { isValueDigest } from '../core/value-digest.js';
import { checkAssurance } from './plan-assurance.js';
import { Problems, type Json } from './plan-problems.js';
import { checkBaselines, checkFieldSources } from './plan-validate-baselines.js';
import { checkPolicies, checkProvenance } from './plan-validate-origin.js';
import { reasonDataProblems } from './reasons.js';
import { topField } from './render-common.js';
import { PROVIDER_NAMES, isPlaceholder, type Plan } from './types.js';

const ACTIONS = new Set(['create', 'update', 'delete', 'replace']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const PATCH_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** Why a plan file's content (of this format version, its digest checked) is not a plan; empty when it is one. */
export function planProblems(value: Json): string[] {
  const p = new Problems();
  checkHeader(value, p);
  const changes = value['changes'];
  if (p.array(changes, 'changes')) changes.forEach((c, i) => checkChange(c, `changes[${i}]`, p));
  for (const key of ['warnings', 'errors'] as const) {
    const list = value[key];
    if (p.array(list, key)) list.forEach((m, i) => checkMessage(m, `${key}[${i}]`, p));
  }
  const unmanaged = value['unmanaged'];
  if (p.array(unmanaged, 'unmanaged')) {
    unmanaged.forEach((u, i) => {
      if (p.object(u, `unmanaged[${i}]`)) {
        p.string(u['address'], `unmanaged[${i}].address`);
        p.string(u['kind'], `unmanaged[${i}].kind`);
        p.optionalString(u['id'], `unmanaged[${i}].id`);
      }
    });
  }
  if (p.list.length === 0) checkConsistency(value as unknown as Plan, p);
  return p.list;
}

/** Fields named in `sensitiveDigests` whose value in before/after/patch is not a marker or null. */
export function cleartextProblems(plan: Plan): string[] {
  const found: string[] = [];
  plan.changes.forEach((change, i) => {
    for (const field of Object.keys(change.sensitiveDigests ?? {})) {
      for (const side of ['before', 'after'] as const) {
        const values = change[side];
        if (values && Object.hasOwn(values, field) && !isPlaceholder(values[field])) {
          found.push(`changes[${i}] (${change.address}).${side}.${field} holds a sensitive value in clear`);
        }
      }
      for (const op of change.patch) {
        if (topField(op.path) === field && 'value' in op && !isPlaceholder(op.value)) {
          found.push(`changes[${i}] (${change.address}).patch ${op.path} holds a sensitive value in clear`);
        }
      }
    }
  });
  return found;
}

function checkHeader(plan: Json, p: Problems): void {
  p.string(plan['createdAt'], 'createdAt');
  const seal = plan['changeSet'];
  if (p.object(seal, 'changeSet')) {
    p.digest(seal['digest'], 'changeSet.digest');
    p.count(seal['changes'], 'changeSet.changes');
  }
  const tool = plan['tool'];
  if (p.object(tool, 'tool')) {
    if (tool['name'] !== 'switchboard') p.add(`tool.name must be "switchboard"`);
    p.string(tool['version'], 'tool.version');
  }
  const target = plan['target'];
  if (p.object(target, 'target')) {
    p.string(target['baseUrl'], 'target.baseUrl');
    p.string(target['instance'], 'target.instance');
    p.optionalString(target['routingEngine'], 'target.routingEngine');
  }
  const manifests = plan['manifests'];
  if (p.object(manifests, 'manifests')) {
    p.digest(manifests['digest'], 'manifests.digest');
    p.strings(manifests['files'], 'manifests.files');
    if (manifests['paths'] !== undefined) p.strings(manifests['paths'], 'manifests.paths');
  }
  if (plan['provenance'] !== undefined) checkProvenance(plan['provenance'], p);
  const options = plan['options'];
  if (options !== undefined && p.object(options, 'options')) {
    p.strings(options['target'], 'options.target');
    p.strings(options['exclude'], 'options.exclude');
    for (const flag of ['prune', 'allowReplace'])
      if (typeof options[flag] !== 'boolean') p.add(`options.${flag} must be true or false`);
    // maxUpdatePercent and allowPolicy may be left out (a library's plan): the defaults then hold.
    for (const share of ['maxDeletePercent', 'maxUpdatePercent']) {
      const percent = options[share];
      if (share === 'maxUpdatePercent' && percent === undefined) continue;
      if (typeof percent !== 'number' || !(percent >= 0 && percent <= 100))
        p.add(`options.${share} must be a number from 0 to 100`);
    }
    if (options['allowPolicy'] !== undefined) p.strings(options['allowPolicy'], 'options.allowPolicy');
    if (options['allowAddressInUse'] !== undefined && typeof options['allowAddressInUse'] !== 'boolean')
      p.add('options.allowAddressInUse must be true or false');
  }
  const scope = plan['scope'];
  if (scope !== undefined && p.object(scope, 'scope')) {
    p.string(scope['changedSince'], 'scope.changedSince');
    p.string(scope['commit'], 'scope.commit');
    p.count(scope['documents'], 'scope.documents');
    p.count(scope['ofDocuments'], 'scope.ofDocuments');
    p.strings(scope['addresses'], 'scope.addresses');
    p.strings(scope['targets'], 'scope.targets');
    if (p.object(scope['files'], 'scope.files'))
      for (const [file, digest] of Object.entries(scope['files'])) p.string(digest, `scope.files.${file}`);
  }
  const policy = plan['policy'];
  if (policy !== undefined && p.object(policy, 'policy')) p.strings(policy['overrides'], 'policy.overrides');
  checkPolicies(plan, p);
  checkBaselines(plan, p);
  const capacity = plan['capacity'];
  if (capacity !== undefined && p.object(capacity, 'capacity') && p.array(capacity['rows'], 'capacity.rows'))
    capacity['rows'].forEach((row, i) => checkCapacityRow(row, `capacity.rows[${i}]`, p));
  checkAssurance(plan, p);
  const summary = plan['summary'];
  if (p.object(summary, 'summary'))
    for (const key of ['create', 'update', 'replace', 'delete', 'noop', 'unmanaged'])
      p.count(summary[key], `summary.${key}`);
}

function checkChange(change: unknown, at: string, p: Problems): void {
  if (!p.object(change, at)) return;
  p.string(change['address'], `${at}.address`);
  p.string(change['kind'], `${at}.kind`);
  p.oneOf(change['provider'], PROVIDER_NAMES, `${at}.provider`);
  const action = change['action'];
  if (typeof action !== 'string' || !ACTIONS.has(action)) {
    p.add(`${at}.action must be one of create, update, delete, replace (got ${JSON.stringify(action)})`);
  }
  p.optionalString(change['id'], `${at}.id`);
  // A rename (an addition to the contract): only an object that exists live has a former address.
  const previous = change['previousAddress'];
  p.optionalString(previous, `${at}.previousAddress`);
  if (previous !== undefined && action !== 'update' && action !== 'replace')
    p.add(`${at}.previousAddress is only for an update or a replace (a rename), not a ${String(action)}`);
  if (previous !== undefined && previous === change['address'])
    p.add(`${at}.previousAddress must differ from its address`);
  for (const side of ['before', 'after']) {
    const v = change[side];
    if (v !== null && !isPlainObject(v)) p.add(`${at}.${side} must be an object or null`);
  }
  if (action === 'create' && change['before'] !== null) p.add(`${at}.before must be null for a create`);
  if (action === 'delete' && change['after'] !== null) p.add(`${at}.after must be null for a delete`);
  if ((action === 'update' || action === 'replace') && (change['before'] === null || change['after'] === null)) {
    p.add(`${at}.before and .after must both be objects for ${action === 'update' ? 'an update' : 'a replace'}`);
  }
  if (action !== 'create' && change['liveDigest'] === undefined) p.add(`${at}.liveDigest is missing`);
  if (change['liveDigest'] !== undefined) p.digest(change['liveDigest'], `${at}.liveDigest`);
  p.string(change['reason'], `${at}.reason`);
  for (const problem of reasonDataProblems(change, at)) p.add(problem);
  p.strings(change['dependsOn'], `${at}.dependsOn`);
  const patch = change['patch'];
  if (p.array(patch, `${at}.patch`)) patch.forEach((op, j) => checkPatchOp(op, `${at}.patch[${j}]`, p));
  const requests = change['requests'];
  if (p.array(requests, `${at}.requests`)) {
    requests.forEach((r, j) => {
      if (!p.object(r, `${at}.requests[${j}]`)) return;
      if (typeof r['method'] !== 'string' || !METHODS.has(r['method']))
        p.add(`${at}.requests[${j}].method is not an HTTP method`);
      p.string(r['path'], `${at}.requests[${j}].path`);
      p.optionalString(r['pathTemplate'], `${at}.requests[${j}].pathTemplate`);
      p.optionalString(r['role'], `${at}.requests[${j}].role`);
    });
  }
  const digests = change['sensitiveDigests'];
  if (digests !== undefined && p.object(digests, `${at}.sensitiveDigests`)) {
    for (const [k, d] of Object.entries(digests))
      if (!isValueDigest(d)) p.add(`${at}.sensitiveDigests.${k} must be an hmac-sha256: or scrypt: value digest`);
  }
  p.optionalString(change['source'], `${at}.source`);
  checkFieldSources(change, at, p);
}

function checkPatchOp(op: unknown, at: string, p: Problems): void {
  if (!p.object(op, at)) return;
  if (typeof op['op'] !== 'string' || !PATCH_OPS.has(op['op'])) p.add(`${at}.op is not an RFC 6902 operation`);
  if (typeof op['path'] !== 'string' || (op['path'] !== '' && !op['path'].startsWith('/'))) {
    p.add(`${at}.path is not a JSON pointer`);
  }
  const needsValue = op['op'] === 'add' || op['op'] === 'replace' || op['op'] === 'test';
  if (needsValue && !('value' in op)) p.add(`${at}.value is missing`);
  if ((op['op'] === 'move' || op['op'] === 'copy') && typeof op['from'] !== 'string') p.add(`${at}.from is missing`);
}

function checkMessage(m: unknown, at: string, p: Problems): void {
  if (!p.object(m, at)) return;
  p.string(m['code'], `${at}.code`);
  p.string(m['message'], `${at}.message`);
  for (const key of ['address', 'role', 'rule', 'source']) p.optionalString(m[key], `${at}.${key}`);
}

function checkCapacityRow(row: unknown, at: string, p: Problems): void {
  if (!p.object(row, at)) return;
  for (const key of ['address', 'subject']) p.string(row[key], `${at}.${key}`);
  for (const key of ['scope', 'warning']) p.optionalString(row[key], `${at}.${key}`);
  for (const key of ['assigned', 'reserved']) p.count(row[key], `${at}.${key}`);
  if (row['inUse'] !== undefined) p.count(row['inUse'], `${at}.inUse`);
  for (const key of ['declared', 'headroom'])
    if (row[key] !== null && !Number.isInteger(row[key])) p.add(`${at}.${key} must be an integer or null`);
}

/** Counts that must agree with the changes, and addresses that must be unique. */
function checkConsistency(plan: Plan, p: Problems): void {
  const counts: Record<string, number> = { create: 0, update: 0, replace: 0, delete: 0 };
  const seen = new Set<string>();
  for (const change of plan.changes) {
    counts[change.action] = (counts[change.action] ?? 0) + 1;
    if (seen.has(change.address)) p.add(`changes: ${change.address} appears more than once`);
    seen.add(change.address);
  }
  for (const [action, n] of Object.entries(counts)) {
    const declared = plan.summary[action as 'create'];
    if (declared !== n) p.add(`summary.${action} is ${declared} but the plan has ${n} ${action} change(s)`);
  }
  // The overrides are recorded twice (what was asked, what the plan shows): they must agree.
  const asked = [...(plan.options?.allowPolicy ?? [])].sort();
  const shown = [...(plan.policy?.overrides ?? [])].sort();
  if (plan.options?.allowPolicy !== undefined && JSON.stringify(asked) !== JSON.stringify(shown))
    p.add(
      `policy.overrides (${shown.join(', ') || 'none'}) differ from options.allowPolicy (${asked.join(', ') || 'none'})`,
    );
}
