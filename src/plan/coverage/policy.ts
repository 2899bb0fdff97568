import type { CoverageFigure, PolicyRule } from '../../manifest/index.js';
import type { DesiredNode } from '../../state/types.js';
import { matchesObject } from '../policy/conditions.js';
import type { ViolationSink } from '../policy/object-rules.js';
import type { CoverageReport, CoverageScope } from './types.js';

/** Names listed in a violation; the rest are counted. */
const NAMED = 5;

/** Each figure a coverage rule may bound: its value in a scope, what it counts, and some of their names. */
const FIGURES: Record<CoverageFigure, (s: CoverageScope) => { n: number; what: string; names: string[] }> = {
  numbersWithoutAddress: (s) => ({
    n: s.effect.withoutAddressAfter,
    what: 'numbers without an emergency address once this plan is applied',
    names: s.withoutAddress.items,
  }),
  // A link whose verification the platform does not state counts as unverified: the safe reading.
  unverified: (s) => ({
    n: s.unverified.count + s.verificationUnknown.count,
    what: 'numbers whose emergency address is not verified',
    names: [...s.unverified.items, ...s.verificationUnknown.items],
  }),
  unusedAddresses: (s) => ({
    n: s.unusedAddresses.count,
    what: 'addresses linked to no number',
    names: s.unusedAddresses.items,
  }),
};

/**
 * A `coverage` rule over the Emergency coverage section: each scope (a subscription) whose
 * declared object the rule matches, each bounded figure against its bound. A number bound
 * is a violation of the rule's severity; `warn` makes any count a warning.
 */
export function checkCoverageRule(
  rule: PolicyRule,
  facts: { declared: readonly DesiredNode[]; coverage?: CoverageReport; sourceOf(address: string): string | undefined },
  sink: ViolationSink,
): void {
  if (rule.check.type !== 'coverage' || !facts.coverage) return;
  const bounds = rule.check.bounds;
  const declared = new Map(facts.declared.map((d) => [d.address, d]));
  for (const scope of facts.coverage.scopes) {
    const node = declared.get(scope.address);
    if (!node || node.kind !== rule.match.kind || !matchesObject(rule.match, node.address, node.fields)) continue;
    for (const figure of Object.keys(bounds) as CoverageFigure[]) {
      const bound = bounds[figure];
      const { n, what, names } = FIGURES[figure](scope);
      if (bound === undefined || n === 0 || (typeof bound === 'number' && n <= bound)) continue;
      const listed = names.slice(0, NAMED).join(', ') + (n > NAMED ? ', …' : '');
      const limit = bound === 'warn' ? '' : `, above the maximum ${bound}`;
      sink.add(
        bound === 'warn' ? { ...rule, severity: 'warning' } : rule,
        `${n} ${what} (${listed})${limit}`,
        scope.address,
        () => facts.sourceOf(scope.address),
      );
    }
  }
}
