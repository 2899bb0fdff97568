/** The members of a plan file this switchboard does not know (plan-keys.ts lists those it does). */
import { isPlainObject } from '../core/values.js';
import {
  BASELINE_KEYS,
  CAPACITY_KEYS,
  CHANGE_KEYS,
  CHANGE_SET_KEYS,
  CI_KEYS,
  FIELD_ORIGIN_KEYS,
  GIT_KEYS,
  MANIFESTS_KEYS,
  MESSAGE_KEYS,
  OPTION_KEYS,
  OVERRIDE_KEYS,
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
import { unknownAssuranceMembers } from './plan-assurance.js';
import { MAX_PROBLEMS, type Json } from './plan-problems.js';

/**
 * Members the plan file holds that this switchboard does not know, by JSON path (at most a
 * few): a newer switchboard's additions, or an edit. Either way they could carry meaning this
 * one would ignore, so a file with any is refused, never half applied. Data (before, after,
 * patch values, sensitiveDigests, scope.files, fieldSources' field names) is the manifests' and
 * may hold any key.
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
    const sources = change['fieldSources'];
    if (isPlainObject(sources))
      for (const [field, origin] of Object.entries(sources))
        check(origin, FIELD_ORIGIN_KEYS, `${at}.fieldSources.${field}`);
  });
  each(value['unmanaged'], UNMANAGED_KEYS, 'unmanaged');
  const capacity = value['capacity'];
  if (check(capacity, ['rows'], 'capacity')) each(capacity['rows'], CAPACITY_KEYS, 'capacity.rows');
  each(value['baselines'], BASELINE_KEYS, 'baselines', (baseline, at) =>
    each(baseline['overrides'], OVERRIDE_KEYS, `${at}.overrides`),
  );
  unknownAssuranceMembers(value, { check, each });
  each(value['warnings'], MESSAGE_KEYS, 'warnings');
  each(value['errors'], MESSAGE_KEYS, 'errors');
  return found;
}
