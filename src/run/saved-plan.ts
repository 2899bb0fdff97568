import { checkSavedPlan, rereadScope, savedPlanOptions } from '../apply/saved-plan.js';
import { readPlanFile } from '../plan/plan-file.js';
import type { Change, Plan, PlanOptions } from '../plan/types.js';
import { providerOfKind } from '../providers/index.js';
import { RefusedError } from '../core/errors.js';
import type { PlanRun, PlanRunOptions } from './plan.js';

/**
 * A saved plan, to show it (`show`): read, its digest checked (a changed file is refused,
 * exit 3), a change written before changes named their provider given it by its kind.
 */
export function readPlan(file: string): Promise<Plan> {
  return readPlanFile(file, { providerOf: (change) => providerOfKind(change.kind) });
}

/** `apply --plan FILE`: the saved plan, and the options and scope to plan again with. */
export interface SavedPlanRun<O extends PlanOptions> {
  saved: Plan;
  file: string;
  /** The saved plan's options (an option also given must agree). */
  options: O;
  /** What to read again: the subtrees the saved changes touch. */
  scope: O;
  /** The manifest paths to load: those given, else those the plan file records (`fromPlan`). */
  paths: string[];
  fromPlan: boolean;
}

/**
 * Reads a saved plan (a file written before changes named their provider gets it from the
 * change's kind) and works out how to plan again: with the plan's own options, over the
 * subtrees its changes touch, from the given manifest paths or, when none are given, the
 * plan's own. `isExplicit` says which options the command line gave.
 */
export async function readSavedPlan<O extends PlanRunOptions>(
  file: string,
  given: O,
  isExplicit: (option: keyof PlanOptions) => boolean,
  paths: readonly string[] = [],
): Promise<SavedPlanRun<O>> {
  const saved = await readPlan(file);
  const options = { ...given, ...savedPlanOptions(saved, given, isExplicit, file) };
  const { changedSince: _notAgain, ...rest } = options;
  const scope: O = { ...rest, ...rereadScope(saved, options, file), scopeFromPlan: true } as O;
  if (given.changedSince !== undefined && given.changedSince !== saved.scope?.changedSince) {
    const made = saved.scope ? `--changed-since ${saved.scope.changedSince}` : 'no --changed-since';
    throw new RefusedError(
      'SB_PLAN_OPTIONS',
      `${file} was made with ${made}, this command gives --changed-since ${given.changedSince}: leave it out (the plan's own scope is used) or make a new plan`,
    );
  }
  // Applied on merge, where git may no longer answer for the ref: the files the plan recorded say what it read.
  if (saved.scope) scope.scopeFiles = saved.scope.files;
  // Without paths, the plan's own (relative to where it was made: the same checkout); a plan
  // file written before they were recorded falls back to the current folder, as before.
  const recorded = paths.length === 0 ? saved.manifests.paths : undefined;
  return { saved, file, options, scope, paths: recorded ?? [...paths], fromPlan: recorded !== undefined };
}

/** The changes to apply: the fresh plan's, or (with a saved plan) the fresh ones it holds, after checking it is not stale. */
export function changesToApply(run: PlanRun, saved?: { saved: Plan; file: string }): Change[] {
  return saved ? checkSavedPlan(saved.saved, run.plan, saved.file) : run.plan.changes;
}
