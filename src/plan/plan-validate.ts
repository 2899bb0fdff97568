/**
 * Checking that a parsed JSON value is a plan this switchboard can apply: the version,
 * the shape of every field apply relies on, consistent counts, and no secret in clear.
 * Problems are collected (up to a few) and reported at once, with their JSON path.
 */
import { isPlainObject } from '../core/values.js';
import { isDigest } from '../core/canonical-json.js';
import { isValueDigest } from '../core/value-digest.js';
import { topField } from './render-common.js';
import { PLAN_FORMAT_VERSION, PROVIDER_NAMES, isPlaceholder, type Plan } from './types.js';

type Json = Record<string, unknown>;

const ACTIONS = new Set(['create', 'update', 'delete', 'replace']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const PATCH_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);
const MAX_PROBLEMS = 10;

/** Why a value is not a plan; empty when it is one. `formatVersion` is checked first, alone. */
export function planProblems(value: unknown): string[] {
  if (!isPlainObject(value)) return ['the file does not hold a JSON object'];
  const version = value['formatVersion'];
  if (version === undefined) return ['formatVersion is missing: this is not a switchboard plan file'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return [`formatVersion ${JSON.stringify(version)} is not a plan format version`];
  }
  if (version > PLAN_FORMAT_VERSION) {
    return [
      `formatVersion ${version} was written by a newer switchboard; this one reads formatVersion ${PLAN_FORMAT_VERSION}: upgrade switchboard`,
    ];
  }
  if (version !== PLAN_FORMAT_VERSION) {
    return [`formatVersion ${version} is no longer supported (this switchboard reads ${PLAN_FORMAT_VERSION})`];
  }
  const p = new Problems();
  checkHeader(value, p);
  const changes = value['changes'];
  if (p.array(changes, 'changes')) changes.forEach((c, i) => checkChange(c, `changes[${i}]`, p));
  for (const key of ['warnings', 'errors'] as const) {
    const list = value[key];
    if (p.array(list, key)) list.forEach((m, i) => checkMessage(m, `${key}[${i}]`, p));
  }
  const unmanaged = value['unmanaged'];
  // `unmanaged` is not in the contract's example: a plan without it lists none.
  if (unmanaged !== undefined && p.array(unmanaged, 'unmanaged')) {
    unmanaged.forEach((u, i) => {
      if (p.object(u, `unmanaged[${i}]`)) {
        p.string(u['address'], `unmanaged[${i}].address`);
        p.string(u['kind'], `unmanaged[${i}].kind`);
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
    // `paths` is an addition: absent in plans made before it.
    if (manifests['paths'] !== undefined) p.strings(manifests['paths'], 'manifests.paths');
  }
  // `options` is an addition to the contract: absent in plans made before it.
  const options = plan['options'];
  if (options !== undefined && p.object(options, 'options')) {
    p.strings(options['target'], 'options.target');
    p.strings(options['exclude'], 'options.exclude');
    for (const flag of ['prune', 'allowReplace'])
      if (typeof options[flag] !== 'boolean') p.add(`options.${flag} must be true or false`);
    const percent = options['maxDeletePercent'];
    if (typeof percent !== 'number' || !(percent >= 0 && percent <= 100))
      p.add('options.maxDeletePercent must be a number from 0 to 100');
    // Both additions of later versions: absent in plans made before them.
    const updates = options['maxUpdatePercent'];
    if (updates !== undefined && (typeof updates !== 'number' || !(updates >= 0 && updates <= 100)))
      p.add('options.maxUpdatePercent must be a number from 0 to 100');
    if (options['allowPolicy'] !== undefined) p.strings(options['allowPolicy'], 'options.allowPolicy');
  }
  // `scope` (plans made with --changed-since) is an addition too.
  const scope = plan['scope'];
  if (scope !== undefined && p.object(scope, 'scope')) {
    p.string(scope['changedSince'], 'scope.changedSince');
    p.string(scope['commit'], 'scope.commit');
    p.count(scope['documents'], 'scope.documents');
    p.count(scope['ofDocuments'], 'scope.ofDocuments');
    p.strings(scope['addresses'], 'scope.addresses');
    if (p.object(scope['files'], 'scope.files'))
      for (const [file, digest] of Object.entries(scope['files'])) p.string(digest, `scope.files.${file}`);
  }
  const policy = plan['policy'];
  if (policy !== undefined && p.object(policy, 'policy')) p.strings(policy['overrides'], 'policy.overrides');
  const capacity = plan['capacity'];
  if (capacity !== undefined && p.object(capacity, 'capacity') && p.array(capacity['rows'], 'capacity.rows'))
    capacity['rows'].forEach((row, i) => checkCapacityRow(row, `capacity.rows[${i}]`, p));
  const summary = plan['summary'];
  if (p.object(summary, 'summary')) {
    for (const key of ['create', 'update', 'replace', 'delete', 'noop']) p.count(summary[key], `summary.${key}`);
    // Like `unmanaged`, `summary.unmanaged` is an addition to the contract's example.
    if (summary['unmanaged'] !== undefined) p.count(summary['unmanaged'], 'summary.unmanaged');
  }
}

function checkChange(change: unknown, at: string, p: Problems): void {
  if (!p.object(change, at)) return;
  p.string(change['address'], `${at}.address`);
  p.string(change['kind'], `${at}.kind`);
  // Plan files written before changes named their provider have none: plan-file.ts fills it in.
  const provider = change['provider'];
  if (provider !== undefined && !(PROVIDER_NAMES as readonly unknown[]).includes(provider)) {
    p.add(`${at}.provider must be one of ${PROVIDER_NAMES.join(', ')} (got ${JSON.stringify(provider)})`);
  }
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
      p.optionalString(r['role'], `${at}.requests[${j}].role`);
    });
  }
  const digests = change['sensitiveDigests'];
  if (digests !== undefined && p.object(digests, `${at}.sensitiveDigests`)) {
    for (const [k, d] of Object.entries(digests))
      if (!isValueDigest(d)) p.add(`${at}.sensitiveDigests.${k} must be an hmac-sha256: or scrypt: value digest`);
  }
  p.optionalString(change['source'], `${at}.source`);
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

/** Collects problems; each check returns whether the value had the expected type. */
class Problems {
  readonly list: string[] = [];
  add(problem: string): void {
    if (this.list.length < MAX_PROBLEMS) this.list.push(problem);
  }
  object(v: unknown, at: string): v is Json {
    if (isPlainObject(v)) return true;
    this.add(v === undefined ? `${at} is missing` : `${at} must be an object`);
    return false;
  }
  array(v: unknown, at: string): v is unknown[] {
    if (Array.isArray(v)) return true;
    this.add(v === undefined ? `${at} is missing` : `${at} must be an array`);
    return false;
  }
  string(v: unknown, at: string): void {
    if (typeof v !== 'string') this.add(v === undefined ? `${at} is missing` : `${at} must be a string`);
  }
  optionalString(v: unknown, at: string): void {
    if (v !== undefined) this.string(v, at);
  }
  strings(v: unknown, at: string): void {
    if (this.array(v, at) && v.some((s) => typeof s !== 'string')) this.add(`${at} must hold strings only`);
  }
  count(v: unknown, at: string): void {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      this.add(v === undefined ? `${at} is missing` : `${at} must be a non-negative integer`);
    }
  }
  digest(v: unknown, at: string): void {
    if (!isDigest(v)) this.add(v === undefined ? `${at} is missing` : `${at} must be a sha256:<64 hex> digest`);
  }
}
