import { Pacer } from '../../core/pacer.js';
import { routingTableKind } from '../../kinds/routing-table.js';
import type { PolicyRule } from '../../manifest/index.js';
import type { PlanMessage } from '../types.js';
import { checkCoverageRule } from '../coverage/policy.js';
import { ChangeRules } from './change-rules.js';
import type { PolicyFacts, PolicyOutcome } from './facts.js';
import { ObjectRules, type ViolationSink } from './object-rules.js';

/** Violations of one rule listed in a plan; the rest are counted in one more message. */
export const MAX_LISTED_VIOLATIONS = 20;

export interface PolicyOptions {
  /** The rule ids overridden for this plan (`--allow-policy`): their violations are warnings. */
  allowPolicy: readonly string[];
}

/**
 * Checks every rule of the manifests' policies: limit, require and reference over the
 * declared objects in the plan's scope (and the rows of its routing tables), forbid and
 * threshold over the plan's changes. A violation is a `SB_POLICY` message naming the rule,
 * the object's address and its manifest position: a refusal for an error rule, a warning for
 * a warning rule or an overridden one. A rule lists at most {@link MAX_LISTED_VIOLATIONS}
 * violations and counts the rest. A reference whose targets could not be read is reported
 * once as unchecked. A signal stops it (src/core/pacer.ts).
 */
export async function evaluatePolicies(
  rules: readonly PolicyRule[],
  facts: PolicyFacts,
  options: PolicyOptions,
): Promise<PolicyOutcome> {
  const outcome: PolicyOutcome = { errors: [], warnings: [] };
  const overridden = new Set(options.allowPolicy);
  const listed = new Map<string, number>();
  // The violations not listed, by the severity each had: a coverage rule's `warn` bounds
  // make some of an error rule's violations warnings, and the count must not be an error then.
  const unlisted = new Map<string, { warning?: PolicyRule; error?: PolicyRule }>();
  const sink: ViolationSink = {
    add(rule, message, address, source) {
      const count = (listed.get(rule.id) ?? 0) + 1;
      listed.set(rule.id, count);
      if (count > MAX_LISTED_VIOLATIONS) {
        const seen = unlisted.get(rule.id) ?? {};
        seen[rule.severity === 'warning' ? 'warning' : 'error'] = rule;
        unlisted.set(rule.id, seen);
        return;
      }
      const where = source();
      deliver(rule, {
        message: withWhy(rule, message),
        ...(address ? { address } : {}),
        ...(where ? { source: where } : {}),
      });
    },
  };
  const deliver = (rule: PolicyRule, found: Pick<PlanMessage, 'message' | 'address' | 'source'>) => {
    const message: PlanMessage = { code: 'SB_POLICY', ...found, rule: rule.id };
    if (rule.severity === 'warning') outcome.warnings.push(message);
    else if (overridden.has(rule.id))
      outcome.warnings.push({ ...message, message: `allowed by --allow-policy ${rule.id}: ${message.message}` });
    else outcome.errors.push(message);
  };
  // Rules over a million rows take seconds: the event loop gets turns, and a signal stops them.
  const pacer = new Pacer();
  // Rules of the kind routing rows carry (the kind table's routing side says it) read the tables' rows.
  const objects = new ObjectRules(facts, routingTableKind.rowKind, sink, pacer);
  const changes = new ChangeRules(facts, sink, pacer);
  for (const rule of rules) {
    const type = rule.check.type;
    if (type === 'reference' && !facts.references.get(rule.id)) {
      outcome.warnings.push({
        code: 'SB_POLICY_UNCHECKED',
        rule: rule.id,
        source: rule.source,
        message: `the ${rule.check.table ? 'rows' : 'objects'} of ${rule.check.table ?? rule.check.kind ?? ''} could not be read: rule ${rule.id} was not checked`,
      });
      continue;
    }
    if (type === 'coverage') checkCoverageRule(rule, facts, sink);
    else if (type === 'forbid' || type === 'threshold') await changes.check(rule);
    else await objects.check(rule);
    const more = (listed.get(rule.id) ?? 0) - MAX_LISTED_VIOLATIONS;
    const hidden = unlisted.get(rule.id);
    if (more > 0)
      deliver(hidden?.error ?? hidden?.warning ?? rule, {
        message: `… and ${more} more violations of this rule, not listed`,
        source: rule.source,
      });
  }
  return outcome;
}

/** The violation, then why the rule exists (its description). */
function withWhy(rule: PolicyRule, message: string): string {
  return rule.description ? `${message} (${rule.description})` : message;
}
