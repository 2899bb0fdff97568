/**
 * `show --verify PLAN_FILE`: the seal of a plan file, recorded against computed, and the
 * verdict of reading it as `apply --plan` would (exit 0 when it reads, 3 when it is refused,
 * 1 when it is no plan). Nothing is trusted from the file for the computed values: the plan
 * digest is that of its content without `digest`, the change set's that of its changes.
 * Matching digests say the file is consistent, not who wrote it: anyone can recompute them.
 */
import { digestOf, isDigest } from '../core/canonical-json.js';
import { ExitCode, SwitchboardError } from '../core/errors.js';
import { isPlainObject } from '../core/values.js';
import { changeSetDigest } from './change-set.js';
import { parsePlan } from './plan-file.js';
import type { Change } from './types.js';

export interface VerifyReport {
  file: string;
  /** The plan digest: recorded (null when the file has none) and computed (null when it is no JSON object). */
  digest: { recorded: string | null; computed: string | null; matches: boolean };
  /** The change set: recorded and computed (null when the file's changes cannot be read). */
  changeSet: { recorded: string | null; computed: string | null; changes: number | null; matches: boolean };
  /** The verdict of reading the file: null when it reads as a plan, else the refusal or error. */
  problem: { code: string; message: string } | null;
  exitCode: number;
}

export function verifyPlanText(text: string, file: string): VerifyReport {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    value = undefined;
  }
  const document = isPlainObject(value) ? value : undefined;
  const recorded = document && isDigest(document['digest']) ? document['digest'] : null;
  let computed: string | null = null;
  if (document) {
    const { digest: _digest, ...content } = document;
    computed = digestOf(content);
  }
  const seal = document && isPlainObject(document['changeSet']) ? document['changeSet'] : undefined;
  const recordedSet = seal && isDigest(seal['digest']) ? seal['digest'] : null;
  const changes = document?.['changes'];
  let computedSet: string | null = null;
  try {
    if (Array.isArray(changes)) computedSet = changeSetDigest(changes as Change[]);
  } catch {
    computedSet = null;
  }
  let problem: VerifyReport['problem'] = null;
  let exitCode: number = ExitCode.ok;
  try {
    parsePlan(text, file);
  } catch (error) {
    if (!(error instanceof SwitchboardError)) throw error;
    problem = { code: error.code, message: error.message };
    exitCode = error.exitCode;
  }
  return {
    file,
    digest: { recorded, computed, matches: recorded !== null && recorded === computed },
    changeSet: {
      recorded: recordedSet,
      computed: computedSet,
      changes: Array.isArray(changes) ? changes.length : null,
      matches: recordedSet !== null && recordedSet === computedSet,
    },
    problem,
    exitCode,
  };
}

/** The report for a person: each digest recorded against computed, then the verdict. */
export function renderVerifyText(report: VerifyReport): string {
  const mark = (matches: boolean, recorded: string | null) =>
    recorded === null ? 'none recorded' : matches ? 'matches' : 'DOES NOT MATCH';
  const lines = [
    `Plan file:   ${report.file}`,
    `Plan digest: recorded ${report.digest.recorded ?? 'none'}`,
    `             computed ${report.digest.computed ?? 'none (not a JSON object)'}: ${mark(report.digest.matches, report.digest.recorded)}`,
    `Change set:  recorded ${report.changeSet.recorded ?? 'none'}`,
    `             computed ${report.changeSet.computed ?? 'none (no readable changes)'}: ${mark(report.changeSet.matches, report.changeSet.recorded)}` +
      (report.changeSet.changes === null ? '' : ` (${report.changeSet.changes} changes)`),
  ];
  if (report.problem) lines.push(`Refused: ${report.problem.message}`);
  else {
    // What matching digests prove, and no more: whoever can edit a file can seal it again.
    lines.push(
      'Consistent: the digests match the content, and this switchboard reads all of it.',
      'Not a signature: anyone who can edit the file can recompute its digests, and its provenance (user, commit, CI run) is what the file claims; compare the plan digest with the one the reviewer saw.',
    );
  }
  return `${lines.join('\n')}\n`;
}
