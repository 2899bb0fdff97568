/**
 * Checking that a parsed JSON value is a plan this switchboard can apply: the shape of every
 * member apply relies on, consistent counts, no secret in clear, and no member it does not
 * know (plan-keys.ts). Problems are collected (up to a few) and reported at once, with their
 * JSON path. The version and the digest are checked before (plan-file.ts).
 */
import { isPlainObject } from '../core/values.js';
import { isDigest } from '../core/canonical-json.js';
import { isValueDigest } from '../core/value-digest.js';
import {
  CAPACITY_KEYS,
  CHANGE_KEYS,
  CHANGE_SET_KEYS,
  CI_KEYS,
  GIT_KEYS,
  MANIFESTS_KEYS,
  MESSAGE_KEYS,
  OPTION_KEYS,
  PATCH_KEYS,
  PLAN_KEYS,
  POLICIES_FROM_KEYS,
  POLICY_CHANGE_KEYS,
  POLICY_KEYS,
  PROVENANCE_KEYS,
  PULL_REQUEST_KEYS,
  REQUEST_KEYS,
  SCOPE_KEYS,
  SUMMARY_KEYS,
  TARGET_KEYS,
  TOOL_KEYS,
  UNCOMMITTED_KEYS,
  UNMANAGED_KEYS,
  USER_KEYS,
} from './plan-keys.js';
import { topField } from './render-common.js';
import { PROVIDER_NAMES, isPlaceholder, type Plan } from './types.js';

type Json = Record<string, unknown>;

const ACTIONS = new Set(['create', 'update', 'delete', 'replace']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const PATCH_OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);
const MAX_PROBLEMS = 10;

/**
 * Members the plan file holds that this switchboard does not know, by JSON path (at most a
 * few): a newer switchboard's additions, or an edit. Either way they could carry meaning this
 * one would ignore, so a file with any is refused, never half applied. Data (before, after,
 * patch values, sensitiveDigests, scope.files) is the manifests' and may hold any key.
 */
export function unknownMembers(value: Json): string[] {
  const found: string[] = [];
  const check = (object: unknown, keys: readonly string[], at: string): object is Json => {
    if (!isPlainObject(object)) return false;
    for (const key of Object.keys(object))
      if (!keys.includes(key) && found.length < MAX_PROBLEMS) found.push(at === '' ? key : `${at}.${key}`);
    return true;
  };
  const each = (list: unknown, keys: readonly string[], at: string, inner?: (item: Json, at: string) => void) => {
    if (Array.isArray(list))
      list.forEach((item, i) => check(item, keys, `${at}[${i}]`) && inner?.(item, `${at}[${i}]`));
  };
  check(value, PLAN_KEYS, '');
  check(value['changeSet'], CHANGE_SET_KEYS, 'changeSet');
  check(value['tool'], TOOL_KEYS, 'tool');
  check(value['target'], TARGET_KEYS, 'target');
  check(value['manifests'], MANIFESTS_KEYS, 'manifests');
  const provenance = value['provenance'];
  if (check(provenance, PROVENANCE_KEYS, 'provenance')) {
    if (check(provenance['git'], GIT_KEYS, 'provenance.git'))
      each(provenance['git']['uncommitted'], UNCOMMITTED_KEYS, 'provenance.git.uncommitted');
    check(provenance['pullRequest'], PULL_REQUEST_KEYS, 'provenance.pullRequest');
    check(provenance['ci'], CI_KEYS, 'provenance.ci');
    check(provenance['user'], USER_KEYS, 'provenance.user');
  }
  check(value['options'], OPTION_KEYS, 'options');
  check(value['policy'], POLICY_KEYS, 'policy');
  check(value['policiesFrom'], POLICIES_FROM_KEYS, 'policiesFrom');
  each(value['policyChanges'], POLICY_CHANGE_KEYS, 'policyChanges');
  check(value['scope'], SCOPE_KEYS, 'scope');
  check(value['summary'], SUMMARY_KEYS, 'summary');
  each(value['changes'], CHANGE_KEYS, 'changes', (change, at) => {
    each(change['patch'], PATCH_KEYS, `${at}.patch`);
    each(change['requests'], REQUEST_KEYS, `${at}.requests`);
  });
  each(value['unmanaged'], UNMANAGED_KEYS, 'unmanaged');
  const capacity = value['capacity'];
  if (check(capacity, ['rows'], 'capacity')) each(capacity['rows'], CAPACITY_KEYS, 'capacity.rows');
  each(value['warnings'], MESSAGE_KEYS, 'warnings');
  each(value['errors'], MESSAGE_KEYS, 'errors');
  return found;
}

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
  const capacity = plan['capacity'];
  if (capacity !== undefined && p.object(capacity, 'capacity') && p.array(capacity['rows'], 'capacity.rows'))
    capacity['rows'].forEach((row, i) => checkCapacityRow(row, `capacity.rows[${i}]`, p));
  const summary = plan['summary'];
  if (p.object(summary, 'summary'))
    for (const key of ['create', 'update', 'replace', 'delete', 'noop', 'unmanaged'])
      p.count(summary[key], `summary.${key}`);
}

const EFFECTS = ['looser', 'stricter', 'mixed', 'unclear', 'neutral'];
const RULE_CHANGES = ['added', 'removed', 'changed'];

/** `policiesFrom` and `policyChanges` come together (plan --policies-from). */
function checkPolicies(plan: Json, p: Problems): void {
  const from = plan['policiesFrom'];
  const changes = plan['policyChanges'];
  if ((from === undefined) !== (changes === undefined)) p.add('policiesFrom and policyChanges come together');
  if (from !== undefined && p.object(from, 'policiesFrom')) {
    p.string(from['ref'], 'policiesFrom.ref');
    p.string(from['commit'], 'policiesFrom.commit');
  }
  if (changes === undefined || !p.array(changes, 'policyChanges')) return;
  changes.forEach((c, i) => {
    const at = `policyChanges[${i}]`;
    if (!p.object(c, at)) return;
    p.string(c['rule'], `${at}.rule`);
    p.string(c['policy'], `${at}.policy`);
    p.oneOf(c['change'], RULE_CHANGES, `${at}.change`);
    p.oneOf(c['effect'], EFFECTS, `${at}.effect`);
    p.strings(c['details'], `${at}.details`);
    p.optionalString(c['source'], `${at}.source`);
  });
}

const STATES = ['modified', 'added', 'deleted', 'untracked', 'ignored', 'outside the repository'];

function checkProvenance(value: unknown, p: Problems): void {
  if (!p.object(value, 'provenance')) return;
  const { git, pullRequest, ci, user } = value;
  if (git !== undefined && p.object(git, 'provenance.git')) {
    p.string(git['commit'], 'provenance.git.commit');
    p.optionalString(git['branch'], 'provenance.git.branch');
    if (typeof git['dirty'] !== 'boolean') p.add('provenance.git.dirty must be true or false');
    const uncommitted = git['uncommitted'];
    if (uncommitted !== undefined && p.array(uncommitted, 'provenance.git.uncommitted'))
      uncommitted.forEach((u, i) => {
        if (!p.object(u, `provenance.git.uncommitted[${i}]`)) return;
        p.string(u['file'], `provenance.git.uncommitted[${i}].file`);
        p.oneOf(u['state'], STATES, `provenance.git.uncommitted[${i}].state`);
      });
    if (git['uncommittedCount'] !== undefined) p.count(git['uncommittedCount'], 'provenance.git.uncommittedCount');
    p.exactly(git['authenticated'], false, 'provenance.git.authenticated');
  }
  if (pullRequest !== undefined && p.object(pullRequest, 'provenance.pullRequest')) {
    p.count(pullRequest['number'], 'provenance.pullRequest.number');
    p.optionalString(pullRequest['url'], 'provenance.pullRequest.url');
    p.string(pullRequest['from'], 'provenance.pullRequest.from');
    p.exactly(pullRequest['authenticated'], false, 'provenance.pullRequest.authenticated');
  }
  if (ci !== undefined && p.object(ci, 'provenance.ci')) {
    p.string(ci['system'], 'provenance.ci.system');
    p.optionalString(ci['url'], 'provenance.ci.url');
    p.optionalString(ci['actor'], 'provenance.ci.actor');
    p.exactly(ci['authenticated'], false, 'provenance.ci.authenticated');
  }
  if (user !== undefined && p.object(user, 'provenance.user')) {
    p.optionalString(user['username'], 'provenance.user.username');
    p.string(user['login'], 'provenance.user.login');
    p.oneOf(user['api'], PROVIDER_NAMES, 'provenance.user.api');
    p.exactly(user['authenticated'], true, 'provenance.user.authenticated');
  }
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
  oneOf(v: unknown, allowed: readonly unknown[], at: string): void {
    if (!allowed.includes(v))
      this.add(`${at} must be one of ${allowed.join(', ')} (got ${v === undefined ? 'nothing' : JSON.stringify(v)})`);
  }
  exactly(v: unknown, expected: boolean, at: string): void {
    if (v !== expected) this.add(`${at} must be ${String(expected)}`);
  }
}
