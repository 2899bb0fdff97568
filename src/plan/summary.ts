/**
 * Counting a plan's changes and the closing lines every renderer shares, so the text,
 * markdown and JSON outputs can never disagree on what a plan does.
 */
import { isDigest } from '../core/canonical-json.js';
import type { Change, Plan, PlanSummary } from './types.js';

/** The four counted actions of a change (noop is never a `Change`). */
export type ChangeCounts = Pick<PlanSummary, 'create' | 'update' | 'replace' | 'delete'>;

/** Display order of actions everywhere: the order of the summary line. */
export const ACTION_ORDER = ['create', 'update', 'replace', 'delete'] as const;

export function countChanges(changes: readonly Change[]): ChangeCounts {
  const counts: ChangeCounts = { create: 0, update: 0, replace: 0, delete: 0 };
  for (const change of changes) counts[change.action] += 1;
  return counts;
}

/** The plan's `summary`, for the planner: counts from the changes, noop/unmanaged given. */
export function summarize(changes: readonly Change[], noop: number, unmanaged: number): PlanSummary {
  return { ...countChanges(changes), noop, unmanaged };
}

/** `Plan: 3 to create, 2 to update, 0 to replace, 1 to delete.` or `No changes.` */
export function summaryLine(counts: ChangeCounts): string {
  const total = counts.create + counts.update + counts.replace + counts.delete;
  if (total === 0) return 'No changes.';
  return `Plan: ${counts.create} to create, ${counts.update} to update, ${counts.replace} to replace, ${counts.delete} to delete.`;
}

/** `12 live objects in scope are not managed by these manifests.`, or '' when there are none. */
export function unmanagedLine(unmanaged: number): string {
  if (unmanaged <= 0) return '';
  return unmanaged === 1
    ? '1 live object in scope is not managed by these manifests.'
    : `${unmanaged} live objects in scope are not managed by these manifests.`;
}

/**
 * `Plan digest: sha256:…` (the plan file's own digest, plan-digest.ts), or '' for a plan
 * without one: what a reviewer compares with the digest an apply log and the journal show.
 */
export function digestLine(plan: Pick<Plan, 'digest'>): string {
  return isDigest(plan.digest) ? `Plan digest: ${plan.digest}` : '';
}

/**
 * `Change set: sha256:… (6 changes)` (change-set.ts), or '' for a plan without one: what a
 * plan made after the merge is compared with (`show --compare-with`).
 */
export function changeSetLine(plan: Pick<Plan, 'changeSet'>): string {
  const seal = plan.changeSet;
  if (!seal || !isDigest(seal.digest)) return '';
  return `Change set: ${seal.digest} (${seal.changes} ${seal.changes === 1 ? 'change' : 'changes'})`;
}

/** `the Policy documents at origin/main (commit 1ab69fe72ea9)`: what judged a `--policies-from` plan. */
export function policiesFromText(from: NonNullable<Plan['policiesFrom']>): string {
  return `the Policy documents at ${from.ref} (commit ${from.commit.slice(0, 12)})`;
}
