import { checkSavedPlan, refuseRefusedPlan, savedPlanOptions } from '../apply/saved-plan.js';
import * as path from 'node:path';
import { RefusedError } from '../core/errors.js';
import { relativeLeadsInside } from '../core/path-inside.js';
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
  const chosen = recorded ?? [...paths];
  refuseOutside(file, recorded ?? [], [process.cwd()], 'names manifests');
  refuseOutside(file, Object.keys(saved.scope?.files ?? {}), chosen, "records a file it read (--changed-since's)");
  return { saved, file, options, scope, paths: chosen, fromPlan: recorded !== undefined };
}

/**
 * A plan file is anyone's to edit (its digests can be computed again): it may not choose what
 * an apply reads outside the checkout. The manifest paths it records must lie in the current
 * folder, and the files of a --changed-since plan in the manifests loaded: otherwise an apply
 * job would load, or read (a FIFO would hang it), whatever the file names on the runner.
 */
function refuseOutside(file: string, named: readonly string[], roots: readonly string[], what: string): void {
  const cwd = process.cwd();
  const inside = (p: string) =>
    roots.some((root) => relativeLeadsInside(path.relative(path.resolve(cwd, root), path.resolve(cwd, p))));
  const outside = named.filter((p) => !inside(p));
  if (outside.length === 0) return;
  throw new RefusedError(
    'SB_PLAN_PATHS',
    `${file} ${what} outside ${roots.length === 1 && roots[0] === cwd ? 'this folder' : 'the manifests given'} ` +
      `(${outside.map((p) => JSON.stringify(p)).join(', ')}): a plan file does not choose what is read; run apply ` +
      "from the checkout the plan was made in, with the manifests' paths on the command line",
  );
}

/**
 * The changes to apply: the fresh plan's, after checking (with a saved plan) that they are
 * exactly the saved ones, made against the same target (the routing engine too, when the
 * fresh plan read it).
 */
export function changesToApply(run: PlanRun, saved?: { saved: Plan; file: string }): Change[] {
  if (!saved) return run.plan.changes;
  const routing = run.providers.some((p) => p.name === 'routing');
  return checkSavedPlan(saved.saved, run.plan, saved.file, { routing });
}
