/**
 * Checking the plan file's records of where a plan comes from: its provenance, and the
 * Policy documents that judged it (`policiesFrom`, `policyChanges`). Part of plan-validate.ts.
 */
import { PROVIDER_NAMES } from './types.js';
import type { Json, Problems } from './plan-problems.js';

const EFFECTS = ['looser', 'stricter', 'mixed', 'unclear', 'neutral'];
const RULE_CHANGES = ['added', 'removed', 'changed'];

/** `policiesFrom` and `policyChanges` come together (plan --policies-from). */
export function checkPolicies(plan: Json, p: Problems): void {
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

export function checkProvenance(value: unknown, p: Problems): void {
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
