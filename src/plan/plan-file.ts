/**
 * Saving and loading the plan file (docs/plans.md). Writing is atomic (a reader
 * never sees half a plan); reading validates everything apply relies on and turns every
 * problem into one SwitchboardError `SB_PLAN_FILE` that says what to do.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SwitchboardError } from '../core/errors.js';
import { isPlainObject } from '../core/values.js';
import { carriesDigest, changedPlanError, checkPlanDigest } from './plan-digest.js';
import { cleartextProblems, planProblems } from './plan-validate.js';
import { renderJson } from './render-json.js';
import type { Change, Plan, ProviderName } from './types.js';

export const PLAN_FILE_ERROR = 'SB_PLAN_FILE';
const RECREATE = 'Re-create it with `switchboard plan --out FILE`.';

/**
 * Writes the plan as JSON: into a temporary file next to `path`, flushed to disk, then
 * renamed over `path`. Refuses (SB_PLAN_FILE) a plan carrying a sensitive value in clear.
 * The file is created readable by its owner only: it holds digests of secrets.
 */
export async function writePlanFile(path: string, plan: Plan): Promise<void> {
  const leaks = cleartextProblems(plan);
  if (leaks.length > 0) {
    throw new SwitchboardError(PLAN_FILE_ERROR, `refusing to write ${path}: ${leaks.join('; ')}`);
  }
  // Platform messages in warnings and refusals may quote a secret: renderJson masks them like every output.
  const text = renderJson(plan);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    const reason = error instanceof Error ? error.message : String(error);
    throw new SwitchboardError(PLAN_FILE_ERROR, `cannot write plan file ${path}: ${reason}`, { cause: error });
  }
}

/** How to read a plan file. */
export interface ReadPlanOptions {
  /**
   * The provider of a change whose file does not name it (written before changes carried
   * one): the providers tell by the change's kind. Without it, such a file is refused.
   */
  providerOf?: (change: Pick<Change, 'address' | 'kind'>) => ProviderName | undefined;
}

/** Reads and validates a plan file; every failure is a SwitchboardError `SB_PLAN_FILE`. */
export async function readPlanFile(path: string, options: ReadPlanOptions = {}): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
    throw new SwitchboardError(PLAN_FILE_ERROR, `cannot read plan file ${path}: ${reason}. ${RECREATE}`, {
      cause: error,
    });
  }
  return parsePlan(text, path, options);
}

/**
 * Parses and validates plan JSON (`source` names it in messages). Before anything else, a
 * plan carrying a digest is checked against it: a changed plan (or one that no longer
 * parses although it carries one) is refused, exit 3 (SB_PLAN_DIGEST).
 */
export function parsePlan(text: string, source: string, options: ReadPlanOptions = {}): Plan {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (carriesDigest(text)) throw changedPlanError(source, `it is no longer valid JSON (${reason})`);
    throw new SwitchboardError(PLAN_FILE_ERROR, `${source} is not valid JSON (${reason}). ${RECREATE}`);
  }
  if (isPlainObject(value)) {
    const check = checkPlanDigest(value);
    if (check.status === 'mismatch') {
      const recorded = typeof check.recorded === 'string' ? check.recorded : JSON.stringify(check.recorded);
      throw changedPlanError(source, `it records the digest ${recorded}, its content has ${check.computed}`);
    }
  }
  const problems = planProblems(value);
  if (problems.length > 0) {
    throw new SwitchboardError(PLAN_FILE_ERROR, `${source} is not a usable plan: ${problems.join('; ')}. ${RECREATE}`);
  }
  const plan = withDefaults(value as Plan, source, options);
  const leaks = cleartextProblems(plan);
  if (leaks.length > 0) {
    throw new SwitchboardError(
      PLAN_FILE_ERROR,
      `${source} carries a secret in clear (${leaks.join('; ')}): delete the file, rotate the secret, and re-create the plan with \`switchboard plan --out FILE\`.`,
    );
  }
  return plan;
}

/**
 * The additions to the contract's example, filled in when a plan file leaves them out:
 * `unmanaged` (none), `summary.unmanaged` (their count), and each change's `provider`.
 */
function withDefaults(plan: Plan, source: string, options: ReadPlanOptions): Plan {
  const unmanaged = plan.unmanaged ?? [];
  const changes = plan.changes.map((change, i) => {
    if ((change as Partial<Change>).provider !== undefined) return change;
    const provider = options.providerOf?.(change);
    if (!provider) {
      throw new SwitchboardError(
        PLAN_FILE_ERROR,
        `${source} is not a usable plan: changes[${i}] (${change.address}) names no provider, and no provider plans ${change.kind} objects. ${RECREATE}`,
      );
    }
    return { ...change, provider };
  });
  return {
    ...plan,
    changes,
    unmanaged,
    summary: { ...plan.summary, unmanaged: plan.summary.unmanaged ?? unmanaged.length },
  };
}
