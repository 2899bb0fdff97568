/**
 * Saving and loading the plan file (docs/plans.md). Writing is atomic (a reader never sees
 * half a plan); reading checks the seal and everything apply relies on, and turns every
 * problem into one error that says what to do: a refusal (exit 3) for a file that is not as
 * switchboard wrote it or that this switchboard cannot fully understand, `SB_PLAN_FILE`
 * (exit 1) for one that is no usable plan.
 */
import { RefusedError, SwitchboardError } from '../core/errors.js';
import { readRegularFile, writeFileSafely } from '../core/safe-write.js';
import { VERSION } from '../core/package.js';
import { isPlainObject } from '../core/values.js';
import { carriesDigest, changedPlanError, checkChangeSet, checkPlanDigest } from './plan-digest.js';
import { unknownMembers } from './plan-members.js';
import { cleartextProblems, planProblems } from './plan-validate.js';
import { renderJson } from './render-json.js';
import { PLAN_FORMAT_VERSION, type Plan } from './types.js';

const PLAN_FILE_ERROR = 'SB_PLAN_FILE';
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
  try {
    await writeFileSafely(path, text, 0o600);
  } catch (error) {
    if (error instanceof SwitchboardError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new SwitchboardError(PLAN_FILE_ERROR, `cannot write plan file ${path}: ${reason}`, { cause: error });
  }
}

/** Reads and validates a plan file: SB_PLAN_FILE (exit 1) when it is no plan, a RefusedError (exit 3) when it is refused. */
export async function readPlanFile(path: string): Promise<Plan> {
  let text: string;
  try {
    text = await readRegularFile(path);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new SwitchboardError(PLAN_FILE_ERROR, `cannot read plan file ${path}: ${reason}. ${RECREATE}`, {
      cause: error,
    });
  }
  return parsePlan(text, path);
}

/**
 * Parses and validates plan JSON (`source` names it in messages), in this order: JSON; a
 * digest its content does not match (refused, exit 3, SB_PLAN_DIGEST); the format version
 * (another one is refused, exit 3, SB_PLAN_VERSION); no digest (refused, exit 3); members this
 * switchboard does not know (refused, exit 3, SB_PLAN_UNKNOWN); the shape of everything
 * (SB_PLAN_FILE, exit 1); the change set's digest against the changes (SB_PLAN_DIGEST);
 * no secret in clear (SB_PLAN_FILE).
 */
export function parsePlan(text: string, source: string): Plan {
  const value = parseJson(text, source);
  // A digest that does not match first: whatever else the file says was changed with it.
  const seal = checkPlanDigest(value);
  if (seal.status === 'mismatch') {
    const recorded = typeof seal.recorded === 'string' ? seal.recorded : JSON.stringify(seal.recorded);
    throw changedPlanError(source, `it records the digest ${recorded}, its content has ${seal.computed}`);
  }
  checkVersion(value, source);
  if (seal.status === 'absent') {
    throw changedPlanError(source, 'it carries no digest (a plan file is sealed by its digest when it is written)');
  }
  const unknown = unknownMembers(value);
  if (unknown.length > 0) throw unknownMembersError(value, unknown, source);
  const problems = planProblems(value);
  if (problems.length > 0) {
    throw new SwitchboardError(PLAN_FILE_ERROR, `${source} is not a usable plan: ${problems.join('; ')}. ${RECREATE}`);
  }
  const changeSet = checkChangeSet(value);
  if (changeSet.status === 'mismatch') {
    const recorded = typeof changeSet.recorded === 'string' ? changeSet.recorded : JSON.stringify(changeSet.recorded);
    throw changedPlanError(
      source,
      `its changeSet records ${recorded}, its ${changeSet.changes} change(s) have ${changeSet.computed}`,
    );
  }
  const plan = value as unknown as Plan;
  const leaks = cleartextProblems(plan);
  if (leaks.length > 0) {
    throw new SwitchboardError(
      PLAN_FILE_ERROR,
      `${source} carries a secret in clear (${leaks.join('; ')}): delete the file, rotate the secret, and re-create the plan with \`switchboard plan --out FILE\``,
    );
  }
  return plan;
}

function parseJson(text: string, source: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (carriesDigest(text)) throw changedPlanError(source, `it is no longer valid JSON (${reason})`);
    throw new SwitchboardError(PLAN_FILE_ERROR, `${source} is not valid JSON (${reason}). ${RECREATE}`);
  }
  if (!isPlainObject(value))
    throw new SwitchboardError(PLAN_FILE_ERROR, `${source} is not a usable plan: the file does not hold a JSON object`);
  return value;
}

const PLAN_VERSION_ERROR = 'SB_PLAN_VERSION';
const PLAN_UNKNOWN_ERROR = 'SB_PLAN_UNKNOWN';

/** The version first: a file of another version is read by the switchboard that wrote it, or made again. */
function checkVersion(value: Record<string, unknown>, source: string): void {
  const version = value['formatVersion'];
  if (version === undefined)
    throw new SwitchboardError(
      PLAN_FILE_ERROR,
      `${source} is not a usable plan: formatVersion is missing: this is not a switchboard plan file`,
    );
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    throw new SwitchboardError(
      PLAN_FILE_ERROR,
      `${source} is not a usable plan: formatVersion ${JSON.stringify(version)} is not a plan format version`,
    );
  if (version === PLAN_FORMAT_VERSION) return;
  const by = madeBy(value);
  throw new RefusedError(
    PLAN_VERSION_ERROR,
    version > PLAN_FORMAT_VERSION
      ? `${source} has formatVersion ${version}: it was made by a newer switchboard${by}, and this one (${VERSION}) reads formatVersion ${PLAN_FORMAT_VERSION}. Nothing was sent. Upgrade switchboard, or make the plan again with this one (\`switchboard plan --out FILE\`)`
      : `${source} has formatVersion ${version}: it was made by an older switchboard${by}, and this one (${VERSION}) reads formatVersion ${PLAN_FORMAT_VERSION}. Nothing was sent. Make a new plan with \`switchboard plan --out FILE\``,
  );
}

function unknownMembersError(value: Record<string, unknown>, unknown: string[], source: string): RefusedError {
  const made = madeVersion(value);
  const newer = made !== undefined && compareVersions(made, VERSION) > 0;
  const why = newer
    ? `it was made by switchboard ${made}, newer than this one (${VERSION}): upgrade switchboard, or make the plan again with this one`
    : 'switchboard writes no such member: the file was edited after it was made; make a new plan with `switchboard plan --out FILE`';
  return new RefusedError(
    PLAN_UNKNOWN_ERROR,
    `${source} holds members this switchboard does not know (${unknown.join(', ')}), which could change what the plan means: ${why}. Nothing was sent`,
  );
}

function madeVersion(value: Record<string, unknown>): string | undefined {
  const tool = value['tool'];
  const version = isPlainObject(tool) ? tool['version'] : undefined;
  return typeof version === 'string' ? version : undefined;
}

function madeBy(value: Record<string, unknown>): string {
  const version = madeVersion(value);
  return version === undefined ? '' : ` (${version})`;
}

/** Semantic versions compared by their numbers (a pre-release counts as its release). */
function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split(/[.+-]/)
      .slice(0, 3)
      .map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}
