/**
 * A saved plan's reason data (`reasonCode`, `replacedBy`) is checked like the rest of the
 * file: optional (older plans have none), but a code the action cannot have, or a
 * `replacedBy` on anything but a replace, makes the file invalid.
 */
import { describe, expect, it } from 'vitest';
import { planProblems } from '../../src/plan/plan-validate.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { samplePlan } from '../fixtures/plans/sample-plan.js';

/** A plan as its file holds it, parsed back. */
const asJson = (plan: Plan): Record<string, unknown> => JSON.parse(JSON.stringify(plan)) as Record<string, unknown>;

function withReplace(edit: (change: Change) => void): Plan {
  const plan = samplePlan();
  const replace = plan.changes.find((c) => c.action === 'replace') as Change;
  edit(replace);
  return plan;
}

describe('reason data in a plan file', () => {
  it('accepts a plan with reason codes, and one written before them', () => {
    expect(planProblems(asJson(samplePlan()))).toEqual([]);
    const old = withReplace((c) => {
      delete c.reasonCode;
      delete c.replacedBy;
    });
    expect(planProblems(asJson(old))).toEqual([]);
  });

  it('refuses a code the action cannot have, and replacedBy outside a replace or naming nothing', () => {
    const index = samplePlan().changes.findIndex((c) => c.action === 'replace');
    const wrong = withReplace((c) => {
      c.reasonCode = 'not-found-live';
      c.replacedBy = [];
    });
    expect(planProblems(asJson(wrong))).toEqual([
      `changes[${index}].reasonCode must be one of immutable-field for a replace (got "not-found-live")`,
      `changes[${index}].replacedBy must be a list of field names`,
    ]);
    const update = samplePlan();
    const at = update.changes.findIndex((c) => c.action === 'update');
    Object.assign(update.changes[at] as Change, { reasonCode: 'bogus', replacedBy: ['uc'] });
    expect(planProblems(asJson(update))).toEqual([
      `changes[${at}].reasonCode must be one of field-differs, renamed for an update (got "bogus")`,
      `changes[${at}].replacedBy is only for a replace, not an update`,
    ]);
  });
});
