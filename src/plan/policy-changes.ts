/**
 * How the manifests' Policy rules differ from those at another commit (`plan --policies-from
 * REF`): per rule id, added, removed or changed, and whether the change lets a plan pass what
 * the rule at the ref refused or warned about (looser) or the reverse (stricter). Derived from
 * the rule types (src/manifest/policy-types.ts) and what the engine does with them
 * (src/plan/policy/): a limit's max raised is looser, a severity from error to warning is
 * looser, a rule removed is looser, a `where` test added narrows what a rule applies to
 * (looser)… What two rules cannot be compared on (another pattern, another field) is
 * `unclear`: a reviewer reads it. Pure.
 */
import {
  COVERAGE_FIGURES,
  type CoverageBound,
  type JsonScalar,
  type PolicyCheck,
  type PolicyCondition,
  type PolicyMatch,
  type PolicyRule,
} from '../manifest/index.js';
import type { PolicyChange, PolicyEffect } from './types.js';

type Part = { text: string; effect: Exclude<PolicyEffect, 'mixed'> };

/** The differences, in the order of the manifests' rules, then the rules only the ref has. */
export function policyChanges(base: readonly PolicyRule[], current: readonly PolicyRule[]): PolicyChange[] {
  const before = new Map(base.map((r) => [r.id, r]));
  const now = new Set(current.map((r) => r.id));
  const out: PolicyChange[] = [];
  for (const rule of current) {
    const old = before.get(rule.id);
    if (!old) {
      const what = rule.severity === 'error' ? 'a new error rule: plans may be refused' : 'a new warning rule';
      out.push(entry(rule, 'added', [{ text: `${what} (${checkText(rule.check)})`, effect: 'stricter' }]));
      continue;
    }
    const parts = ruleDifferences(old, rule);
    if (parts.length > 0) out.push(entry(rule, 'changed', parts));
  }
  for (const rule of base) {
    if (now.has(rule.id)) continue;
    const what = rule.severity === 'error' ? 'an error rule removed' : 'a warning rule removed';
    out.push(entry(rule, 'removed', [{ text: `${what} (${checkText(rule.check)})`, effect: 'looser' }]));
  }
  return out;
}

function entry(rule: PolicyRule, change: PolicyChange['change'], parts: readonly Part[]): PolicyChange {
  return {
    rule: rule.id,
    policy: rule.policy,
    change,
    effect: combined(parts.map((p) => p.effect)),
    details: parts.map((p) => (p.effect === 'neutral' ? p.text : `${p.text}: ${p.effect}`)),
    source: rule.source,
  };
}

/** One effect for several: unclear wins, looser and stricter together are mixed. */
function combined(effects: readonly Part['effect'][]): PolicyEffect {
  if (effects.includes('unclear')) return 'unclear';
  const looser = effects.includes('looser');
  const stricter = effects.includes('stricter');
  if (looser && stricter) return 'mixed';
  return looser ? 'looser' : stricter ? 'stricter' : 'neutral';
}

function ruleDifferences(old: PolicyRule, rule: PolicyRule): Part[] {
  const parts: Part[] = [];
  if (old.severity !== rule.severity)
    parts.push({
      text: `severity ${old.severity} → ${rule.severity}`,
      effect: rule.severity === 'warning' ? 'looser' : 'stricter',
    });
  if ((old.description ?? '') !== (rule.description ?? ''))
    parts.push({ text: 'description changed', effect: 'neutral' });
  parts.push(...matchDifferences(old.match, rule.match), ...checkDifferences(old.check, rule.check));
  if (old.policy !== rule.policy) parts.push({ text: `moved from policy ${old.policy}`, effect: 'neutral' });
  return parts;
}

/** A match that selects fewer objects checks fewer: looser. */
function matchDifferences(old: PolicyMatch, now: PolicyMatch): Part[] {
  const parts: Part[] = [];
  if (old.kind !== now.kind) parts.push({ text: `match kind ${old.kind} → ${now.kind}`, effect: 'unclear' });
  if (old.table !== now.table) parts.push(changed('match table', old.table, now.table, 'unclear'));
  if (old.address !== now.address) {
    const effect = old.address === undefined ? 'looser' : now.address === undefined ? 'stricter' : 'unclear';
    parts.push(changed('match address', old.address, now.address, effect));
  }
  const before = new Map(old.where.map((w) => [w.field, conditionText(w.test)]));
  const after = new Map(now.where.map((w) => [w.field, conditionText(w.test)]));
  for (const [field, test] of after) {
    const was = before.get(field);
    if (was === undefined) parts.push({ text: `match where ${field} ${test} added`, effect: 'looser' });
    else if (was !== test) parts.push({ text: `match where ${field} ${was} → ${test}`, effect: 'unclear' });
  }
  for (const [field, test] of before)
    if (!after.has(field)) parts.push({ text: `match where ${field} ${test} removed`, effect: 'stricter' });
  return parts;
}

function checkDifferences(old: PolicyCheck, now: PolicyCheck): Part[] {
  if (old.type !== now.type) return [{ text: `check ${checkText(old)} → ${checkText(now)}`, effect: 'unclear' }];
  if (old.type === 'limit' && now.type === 'limit') {
    if (old.field !== now.field || old.count !== now.count)
      return [{ text: `limit of ${limitSubject(old)} → ${limitSubject(now)}`, effect: 'unclear' }];
    return [...bound('limit min', old.min, now.min, 'min'), ...bound('limit max', old.max, now.max, 'max')];
  }
  if (old.type === 'require' && now.type === 'require') return requireDifferences(old, now);
  if (old.type === 'reference' && now.type === 'reference') {
    const text = (c: typeof old) => `${c.field} in ${c.table ?? c.kind ?? ''}.${c.key}`;
    return text(old) === text(now) ? [] : [{ text: `reference ${text(old)} → ${text(now)}`, effect: 'unclear' }];
  }
  if (old.type === 'forbid' && now.type === 'forbid') {
    const parts: Part[] = [];
    for (const a of now.actions)
      if (!old.actions.includes(a)) parts.push({ text: `forbid ${a} added`, effect: 'stricter' });
    for (const a of old.actions)
      if (!now.actions.includes(a)) parts.push({ text: `forbid ${a} removed`, effect: 'looser' });
    if (old.actions.includes('replace') && now.actions.includes('replace'))
      parts.push(...replacedByDifferences(old.replacedBy, now.replacedBy));
    return parts;
  }
  if (old.type === 'coverage' && now.type === 'coverage') return coverageDifferences(old, now);
  if (old.type === 'threshold' && now.type === 'threshold') {
    return [
      ...bound('threshold update', old.update, now.update, 'max', '%'),
      ...bound('threshold delete', old.delete, now.delete, 'max', '%'),
      // Checked once `min` live objects exist: a higher min checks fewer plans.
      ...bound('threshold min', old.min, now.min, 'max'),
    ];
  }
  return [];
}

/**
 * `replacedBy` narrows `forbid: [replace]` to the replaces those fields force: none given
 * forbids every replace, so giving it loosens the rule, and fewer fields loosen it more.
 */
function replacedByDifferences(old?: readonly string[], now?: readonly string[]): Part[] {
  const text = (fields?: readonly string[]) => (fields ? `[${fields.join(', ')}]` : 'any field');
  const change = `forbid replace by ${text(old)} → ${text(now)}`;
  if (old === undefined) return now === undefined ? [] : [{ text: change, effect: 'looser' }];
  if (now === undefined) return [{ text: change, effect: 'stricter' }];
  const added = now.filter((f) => !old.includes(f));
  const removed = old.filter((f) => !now.includes(f));
  if (added.length === 0 && removed.length === 0) return [];
  const effect = added.length === 0 ? 'looser' : removed.length === 0 ? 'stricter' : 'unclear';
  return [{ text: change, effect }];
}

function requireDifferences(
  old: Extract<PolicyCheck, { type: 'require' }>,
  now: Extract<PolicyCheck, { type: 'require' }>,
): Part[] {
  if (old.field !== now.field || old.present !== now.present)
    return [{ text: `require ${requireSubject(old)} → ${requireSubject(now)}`, effect: 'unclear' }];
  const parts: Part[] = [];
  const [was, is] = [old.pattern?.source, now.pattern?.source];
  if (was !== is) {
    const effect = was === undefined ? 'stricter' : is === undefined ? 'looser' : 'unclear';
    parts.push(changed('require pattern', was && `/${was}/`, is && `/${is}/`, effect));
  }
  const [before, after] = [old.oneOf, now.oneOf];
  if (JSON.stringify(before) !== JSON.stringify(after)) {
    const within = (a: readonly JsonScalar[], b: readonly JsonScalar[]) => a.every((v) => b.includes(v));
    const effect: Part['effect'] =
      before === undefined
        ? 'stricter'
        : after === undefined
          ? 'looser'
          : within(after, before) && within(before, after)
            ? 'neutral'
            : within(after, before)
              ? 'stricter'
              : within(before, after)
                ? 'looser'
                : 'unclear';
    parts.push(changed('require oneOf', before && JSON.stringify(before), after && JSON.stringify(after), effect));
  }
  return parts;
}

/**
 * A coverage figure's bound moved: a number refuses above it, `warn` only warns, none checks
 * nothing; so none < warn < any number, and a higher number is looser.
 */
function coverageDifferences(
  old: Extract<PolicyCheck, { type: 'coverage' }>,
  now: Extract<PolicyCheck, { type: 'coverage' }>,
): Part[] {
  const parts: Part[] = [];
  for (const figure of COVERAGE_FIGURES) {
    const [was, is] = [old.bounds[figure], now.bounds[figure]];
    if (was === is) continue;
    if (typeof was === 'number' && typeof is === 'number') {
      parts.push(...bound(`coverage ${figure}`, was, is, 'max'));
      continue;
    }
    const rank = (b: CoverageBound | undefined) => (b === undefined ? 0 : b === 'warn' ? 1 : 2);
    const effect = rank(is) > rank(was) ? 'stricter' : 'looser';
    parts.push(changed(`coverage ${figure}`, was?.toString(), is?.toString(), effect));
  }
  return parts;
}

/**
 * A bound moved: for a maximum (a limit's max, a threshold's share), raised or removed is
 * looser; for a minimum, lowered or removed is looser; added is stricter.
 */
function bound(name: string, old: number | undefined, now: number | undefined, kind: 'min' | 'max', unit = ''): Part[] {
  if (old === now) return [];
  const show = (v: number | undefined) => (v === undefined ? 'none' : `${v}${unit}`);
  const text = `${name} ${show(old)} → ${show(now)}`;
  if (old === undefined) return [{ text, effect: 'stricter' }];
  if (now === undefined) return [{ text, effect: 'looser' }];
  const raised = now > old;
  return [{ text, effect: raised === (kind === 'max') ? 'looser' : 'stricter' }];
}

function changed(name: string, old: string | undefined, now: string | undefined, effect: Part['effect']): Part {
  return { text: `${name} ${old ?? 'none'} → ${now ?? 'none'}`, effect };
}

function limitSubject(c: Extract<PolicyCheck, { type: 'limit' }>): string {
  return c.count !== undefined ? `count ${c.count}` : `field ${c.field ?? ''}`;
}

function requireSubject(c: Extract<PolicyCheck, { type: 'require' }>): string {
  return `${c.field} ${c.present ? 'present' : 'absent'}`;
}

function conditionText(test: PolicyCondition): string {
  switch (test.type) {
    case 'equals':
      return `= ${JSON.stringify(test.value)}`;
    case 'in':
      return `in ${JSON.stringify(test.values)}`;
    case 'not':
      return `not ${JSON.stringify(test.value)}`;
    case 'pattern':
      return `~ /${test.pattern.source}/`;
  }
}

/** A check in a few words: `limit max 500`, `forbid delete`. */
function checkText(check: PolicyCheck): string {
  switch (check.type) {
    case 'limit': {
      const bounds = [
        check.min === undefined ? '' : `min ${check.min}`,
        check.max === undefined ? '' : `max ${check.max}`,
      ];
      return `limit ${limitSubject(check)} ${bounds.filter(Boolean).join(' ')}`.trim();
    }
    case 'require':
      return `require ${requireSubject(check)}`;
    case 'reference':
      return `reference ${check.field} in ${check.table ?? check.kind ?? ''}.${check.key}`;
    case 'forbid':
      return `forbid ${check.actions.join(', ')}`;
    case 'coverage':
      return `coverage ${COVERAGE_FIGURES.flatMap((f) => (check.bounds[f] === undefined ? [] : [`${f} ${String(check.bounds[f])}`])).join(', ')}`;
    case 'threshold': {
      const shares = [
        check.update === undefined ? '' : `update ${check.update}%`,
        check.delete === undefined ? '' : `delete ${check.delete}%`,
      ];
      return `threshold ${shares.filter(Boolean).join(' ')} min ${check.min}`;
    }
  }
}
