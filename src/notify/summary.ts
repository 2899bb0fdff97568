import { isIncomplete } from '../apply/summary.js';
import type { ApplyResult } from '../apply/types.js';
import { countChanges } from '../plan/summary.js';
import type { Plan, PlanMessage } from '../plan/types.js';
import { LISTED, type NotifySummary } from './types.js';

/** What the run adds to every summary: its exit code and its CI run. */
export interface RunFacts {
  exitCode: number;
  runUrl?: string;
}

/**
 * What a plan has to say: `refused` when a safety rail refused it, `drift` when it has
 * changes (a plan of the manifests against the platform: what changed on the platform, or
 * was never applied), nothing when it has none.
 */
export function planSummary(plan: Plan, facts: RunFacts): NotifySummary | undefined {
  if (plan.errors.length > 0) return refused('plan', plan, facts);
  const counts = countChanges(plan.changes);
  const total = counts.create + counts.update + counts.replace + counts.delete;
  if (total === 0) return undefined;
  return {
    ...common('drift', 'plan', plan, facts),
    title: `Drift on ${where(plan)}: ${countText(counts)}`,
    ...listed(plan.changes),
    ...messages([]),
  };
}

/**
 * What an apply has to say: `refused` (its plan's rails), `apply-failed` when a change failed
 * or was skipped, or an error stopped it while it applied (a journal that could not be written).
 */
export function applySummary(plan: Plan, result: ApplyResult | undefined, facts: RunFacts): NotifySummary | undefined {
  if (plan.errors.length > 0) return refused('apply', plan, facts);
  if (!result || !isIncomplete(result)) return undefined;
  const notApplied = result.results.filter((r) => r.outcome.status !== 'applied');
  const failures = notApplied.flatMap((r) =>
    r.outcome.status === 'failed'
      ? [{ code: r.outcome.code ?? 'SB_APPLY_FAILED', message: r.outcome.message, address: r.change.address }]
      : [],
  );
  const { applied, failed, skipped } = result;
  const partly = applied > 0 ? 'partly failed' : 'failed';
  return {
    ...common('apply-failed', 'apply', plan, facts),
    title: `Apply ${partly} on ${where(plan)}: ${applied} applied, ${failed} failed, ${skipped} skipped`,
    applied: { applied, failed, skipped },
    ...listed(notApplied.map((r) => r.change)),
    ...messages([...failures, ...(result.errors ?? [])]),
  };
}

/** A refusal that came as an error (a saved plan changed or stale), not in a plan's errors. */
export function refusalSummary(error: { code: string; message: string }, facts: RunFacts): NotifySummary {
  return {
    event: 'refused',
    command: 'apply',
    title: `Apply refused: ${error.code}`,
    target: { baseUrl: '', instance: '' },
    counts: { create: 0, update: 0, replace: 0, delete: 0 },
    changes: [],
    moreChanges: 0,
    ...messages([{ code: error.code, message: error.message }]),
    ...facts,
  };
}

function refused(command: 'plan' | 'apply', plan: Plan, facts: RunFacts): NotifySummary {
  const n = plan.errors.length;
  return {
    ...common('refused', command, plan, facts),
    title: `${command === 'plan' ? 'Plan' : 'Apply'} refused on ${where(plan)}: ${n} ${n === 1 ? 'refusal' : 'refusals'}, nothing sent`,
    ...listed(plan.changes),
    ...messages(plan.errors),
  };
}

function common(
  event: NotifySummary['event'],
  command: NotifySummary['command'],
  plan: Plan,
  facts: RunFacts,
): Omit<NotifySummary, 'title' | 'changes' | 'moreChanges' | 'problems' | 'moreProblems'> {
  return {
    event,
    command,
    target: { baseUrl: plan.target.baseUrl, instance: plan.target.instance },
    counts: countChanges(plan.changes),
    ...(plan.digest ? { planDigest: plan.digest } : {}),
    ...facts,
  };
}

function listed(changes: readonly { action: string; address: string; kind: string }[]) {
  return {
    changes: changes.slice(0, LISTED).map((c) => ({ action: c.action, address: c.address, kind: c.kind })),
    moreChanges: Math.max(0, changes.length - LISTED),
  };
}

function messages(list: readonly Pick<PlanMessage, 'code' | 'message' | 'address'>[]) {
  return {
    problems: list
      .slice(0, LISTED)
      .map((m) => ({ code: m.code, message: m.message, ...(m.address ? { address: m.address } : {}) })),
    moreProblems: Math.max(0, list.length - LISTED),
  };
}

function where(plan: Plan): string {
  return plan.target.instance ? `${plan.target.baseUrl} (instance ${plan.target.instance})` : plan.target.baseUrl;
}

function countText(c: NotifySummary['counts']): string {
  return `${c.create} to create, ${c.update} to update, ${c.replace} to replace, ${c.delete} to delete`;
}
