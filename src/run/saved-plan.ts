import { checkSavedPlan, refuseRefusedPlan, savedPlanOptions } from '../apply/saved-plan.js';
import { RefusedError } from '../core/errors.js';
import { readPlanFile } from '../plan/plan-file.js';
import type { Change, Plan, PlanOptions } from '../plan/types.js';
import type { PlanRun, PlanRunOptions } from './plan.js';

/**
 * A saved plan, to show it (`show`): read, its seal checked (a file without a digest, or
 * changed since, is refused: exit 3), and everything else about it (plan-file.ts).
 */
export function readPlan(file: string): Promise<Plan> {
  return readPlanFile(file);
}

/** `apply --plan FILE`: the saved plan, and the options and scope to plan again with. */
export interface SavedPlanRun<O extends PlanOptions> {
  saved: Plan;
  file: string;
  /** The options the fresh plan is made with (savedPlanOptions). */
  options: O;
  /** The same, with the scope of a `--changed-since` plan: what planRun is given. */
  scope: O;
  /** The manifest paths to load: those given, else those the plan file records (`fromPlan`). */
  paths: string[];
  fromPlan: boolean;
}

/**
 * Reads a saved plan and works out how to plan again: over the scope it was made with (its
 * `--target`, `--exclude` and `--prune`; for a `--changed-since` plan the address patterns it
 * read, and the files it read, which must be unchanged), with every safety rail at least as
 * strict as the command line's (savedPlanOptions), from the given manifest paths or, when
 * none are given, the plan's own. A plan refused when it was made is refused here, before
 * anything is read. `isExplicit` says which options the command line gave.
 */
export async function readSavedPlan<O extends PlanRunOptions>(
  file: string,
  given: O,
  isExplicit: (option: keyof PlanOptions) => boolean,
  paths: readonly string[] = [],
): Promise<SavedPlanRun<O>> {
  const saved = await readPlan(file);
  refuseRefusedPlan(saved, file);
  const { changedSince: _notAgain, ...rest } = given;
  const options = { ...rest, ...savedPlanOptions(saved, given, isExplicit, file) } as O;
  if (given.changedSince !== undefined && given.changedSince !== saved.scope?.changedSince) {
    const made = saved.scope ? `--changed-since ${saved.scope.changedSince}` : 'no --changed-since';
    throw new RefusedError(
      'SB_PLAN_OPTIONS',
      `${file} was made with ${made}, this command gives --changed-since ${given.changedSince}: leave it out (the plan's own scope is used) or make a new plan`,
    );
  }
  const scope: O = { ...options, scopeFromPlan: true };
  // Applied on merge, where git may no longer answer for the ref: the plan says what it read.
  if (saved.scope) {
    scope.scopeTargets = saved.scope.targets;
    scope.scopeFiles = saved.scope.files;
  }
  // Without paths, the plan's own (relative to where it was made: the same checkout).
  const recorded = paths.length === 0 ? saved.manifests.paths : undefined;
  return { saved, file, options, scope, paths: recorded ?? [...paths], fromPlan: recorded !== undefined };
}

/** The changes to apply: the fresh plan's, after checking (with a saved plan) that they are exactly the saved ones. */
export function changesToApply(run: PlanRun, saved?: { saved: Plan; file: string }): Change[] {
  return saved ? checkSavedPlan(saved.saved, run.plan, saved.file) : run.plan.changes;
}
