/**
 * The workflow harness reads `if:` and `${{ }}` as GitHub does (workflows/expressions.ts):
 * the runs of workflows-apply.test.ts are only as true as this.
 */
import { describe, expect, it } from 'vitest';
import { condition, evaluateExpression, interpolate } from './workflows/expressions.js';

const contexts = {
  github: { ref: 'refs/heads/main', event_name: 'push', event: { repository: { default_branch: 'main' } } },
  steps: { plan: { outputs: { changes: 'true', exitcode: '2' } }, review: { outputs: { reviewed: '' } } },
  needs: { plan: { outputs: { changes: 'false' }, result: 'success' } },
  env: {},
};
const ok = { failed: false, cancelled: false };
const failed = { failed: true, cancelled: false };

describe('GitHub expressions in the workflow harness', () => {
  it('compares strings ignoring case, a missing property as null, and returns operands from && and ||', () => {
    expect(
      evaluateExpression("github.ref == format('refs/heads/{0}', github.event.repository.default_branch)", contexts),
    ).toBe(true);
    expect(evaluateExpression("github.event_name == 'PUSH'", contexts)).toBe(true);
    expect(evaluateExpression('github.nothing.deeper', contexts)).toBeNull();
    expect(evaluateExpression("steps.review.outputs.reviewed != ''", contexts)).toBe(false);
    expect(evaluateExpression("steps.review.outputs.reviewed || 'none'", contexts)).toBe('none');
    expect(evaluateExpression("steps.plan.outputs.exitcode == 2 && 'yes'", contexts)).toBe('yes');
    expect(evaluateExpression("!(steps.plan.outputs.changes == 'true')", contexts)).toBe(false);
    expect(evaluateExpression("contains('Hello', 'ELL') && startsWith('abc', 'A')", contexts)).toBe(true);
  });

  it('reads an if: without a status function as success() && (…), and one with it as written', () => {
    expect(condition(undefined, contexts, ok)).toBe(true);
    expect(condition(undefined, contexts, failed)).toBe(false);
    expect(condition("steps.plan.outputs.changes == 'true'", contexts, ok)).toBe(true);
    expect(condition("steps.plan.outputs.changes == 'true'", contexts, failed)).toBe(false);
    expect(condition('always()', contexts, failed)).toBe(true);
    expect(condition("${{ failure() && steps.plan.outputs.exitcode == '2' }}", contexts, failed)).toBe(true);
    expect(condition("needs.plan.outputs.changes == 'true'", contexts, ok)).toBe(false);
  });

  it('interpolates ${{ }} as text, and refuses what it does not understand', () => {
    expect(interpolate('switchboard-plan-${{ steps.plan.outputs.exitcode }}', contexts)).toBe('switchboard-plan-2');
    expect(interpolate('${{ github.missing }}', contexts)).toBe('');
    expect(() => evaluateExpression('secrets.X', contexts)).toThrow('unknown expression context');
    expect(() => evaluateExpression('toJSON(github)', contexts)).toThrow('function not supported');
    expect(() => evaluateExpression('github.ref =~ 1', contexts)).toThrow();
    expect(() => evaluateExpression('success()', contexts)).toThrow('a status function outside an if');
  });
});
