/**
 * What `apply` does once its command line is read (apply.ts registers it): plans (or
 * re-checks a saved plan against a fresh one) under the apply lock, asks for confirmation,
 * applies, and prints a summary.
 */
import type { Command } from 'commander';
import type { RunRecord } from '../../apply/journal.js';
import { migrateRecordFile } from '../../apply/record.js';
import {
  emptySummaryJson,
  isIncomplete,
  renderSummary,
  summaryJson,
  type ApplySummaryJson,
} from '../../apply/summary.js';
import { ExitCode, SwitchboardError } from '../../core/errors.js';
import { renderText } from '../../plan/render-text.js';
import type { PlanMessage } from '../../plan/types.js';
import {
  applyRun,
  changesToApply,
  interruptedError,
  planRun,
  readSavedPlan,
  watchInterrupts,
  withApplyLock,
  type Interrupt,
  type PlanRun,
  type SavedPlanRun,
  type Verification,
  verifySession,
  emergencyJson,
  emergencyLine,
  renderVerification,
  verificationJson,
} from '../../run/index.js';
import { askYes } from '../confirm.js';
import { RunNotifier } from '../notify.js';
import type { CliContext } from '../program.js';
import type { ApplyOptions } from './apply.js';
import { safeText } from '../../core/safe-text.js';

/** Where the plan came from, as the journal and the summary say it. */
function planSource(run: PlanRun, saved: SavedPlanRun<ApplyOptions> | undefined): RunRecord['plan'] {
  if (saved) return { digest: saved.saved.digest ?? null, source: 'file', file: saved.file };
  return { digest: run.plan.digest ?? null, source: 'planned in this run' };
}

/** The action of `apply PATH…` / `apply --plan FILE` (apply.ts registers it). */
export async function applyAction(
  paths: string[],
  given: ApplyOptions,
  command: Command,
  ctx: CliContext,
): Promise<void> {
  // With --format json, stdout gets exactly one document, whatever ends the run (a second signal too).
  let documented = false;
  const printJson = (summary: ApplySummaryJson): void => {
    documented = true;
    ctx.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  };
  const lastWords = (_signal: string, message: string): string =>
    documented ? '' : `${JSON.stringify(interruptedJson(message), null, 2)}\n`;
  const interrupt = watchInterrupts(
    (line) => process.stderr.write(`\n${line}\n`),
    given.format === 'json' ? { lastWords } : {},
  );
  let notifier: RunNotifier | undefined;
  try {
    // In the try: a wrong notification setting is a failure like any other, with its JSON document.
    notifier = await RunNotifier.of(given, ctx.logger);
    const saved = given.plan
      ? await readSavedPlan(given.plan, given, (key) => command.getOptionValueSource(key) === 'cli', paths)
      : undefined;
    if (saved?.fromPlan)
      process.stderr.write(`Note: manifests from the plan file: ${safeText(saved.paths.join(' '))}\n`);
    const options = {
      ...(saved?.options ?? given),
      format: given.format,
      verify: given.verify,
      ...(given.emergencyChange !== undefined ? { emergencyChange: given.emergencyChange } : {}),
    };
    // Taken before planning: a run that planned while another applied would apply a stale plan.
    await withApplyLock(
      options.stateDir,
      (note) => process.stderr.write(`Note: ${safeText(note)}.\n`),
      async () => {
        const scope = {
          ...(saved?.scope ?? options),
          signal: interrupt.signal,
          progressOut: process.stderr,
          // Apply enforces the change windows at its own clock; the plan only showed them.
          enforceWindows: options.emergencyChange !== undefined ? { emergencyChange: options.emergencyChange } : {},
          verify: options.verify,
        };
        const manifestPaths = saved?.paths ?? paths;
        const run = await planRun(manifestPaths, scope, ctx.logger);
        try {
          ctx.exitCode = await applyCommand(run, saved, options, manifestPaths, ctx, interrupt, notifier, printJson);
        } finally {
          await run.session.close();
        }
      },
    );
  } catch (error) {
    // A script reading --format json gets one document whatever happened; the message goes to stderr as usual.
    if (given.format === 'json' && !documented) printJson(failureJson(error));
    await notifier?.afterError(error);
    throw error;
  } finally {
    interrupt.dispose();
  }
}

/**
 * The document of a run a second signal quits at once: what was applied is not known here
 * (the counts are zero; the journal holds what was), the error says so.
 */
function interruptedJson(message: string): ApplySummaryJson {
  return emptySummaryJson('error', null, [{ code: 'SB_INTERRUPTED', message }]);
}

function failureJson(error: unknown): ApplySummaryJson {
  const refused = error instanceof SwitchboardError && error.exitCode === ExitCode.refused;
  const code = error instanceof SwitchboardError ? error.code : 'SB_INTERNAL';
  const message = error instanceof Error ? error.message : String(error);
  return emptySummaryJson(refused ? 'refused' : 'error', null, [{ code, message }]);
}

async function applyCommand(
  run: PlanRun,
  saved: SavedPlanRun<ApplyOptions> | undefined,
  options: ApplyOptions,
  paths: string[],
  ctx: CliContext,
  interrupt: Interrupt,
  notifier: RunNotifier | undefined,
  report: (summary: ApplySummaryJson) => void,
): Promise<number> {
  const json = options.format === 'json';
  // With --format json, stdout holds the JSON document only: the plan and the notes go to stderr.
  const human: NodeJS.WritableStream = json ? process.stderr : ctx.stdout;
  const color = options.color && (human as NodeJS.WriteStream).isTTY === true && !process.env['NO_COLOR'];
  const shown = saved?.saved ?? run.plan;
  const plan = planSource(run, saved);
  if (run.plan.errors.length > 0) {
    // The fresh plan, whose refusals these are (a saved plan's own were refused before reading).
    human.write(renderText(run.plan, { color }));
    human.write('\nApply refused: the plan has errors (above). Nothing was changed.\n');
    if (json) report(emptySummaryJson('refused', plan, run.plan.errors.map(messageJson)));
    await notifier?.afterApply(run.plan, undefined, ExitCode.refused);
    return ExitCode.refused;
  }
  // Checked before the saved plan is shown: a file that differs from a fresh plan is never printed as the one applied.
  const changes = changesToApply(run, saved);
  human.write(renderText(shown, { color }));
  if (changes.length === 0) {
    // Nothing to apply, but a record of an older switchboard still gets its digests migrated.
    const { baseUrl, instance } = run.plan.target;
    const declared = run.parts.flatMap((p) => p.declaredObjects ?? []);
    await migrateRecordFile(run.lastAppliedFile, { baseUrl, instance }, run.lastApplied, declared);
    if (options.verify) interrupt.phase = 'verify';
    const verified = options.verify ? await verifyUnchanged(run, options, interrupt) : undefined;
    if (verified) human.write(renderVerification(verified.verification, verified.journal));
    if (json) report({ ...emptySummaryJson('nothing to do', plan), ...verificationJson(verified?.verification) });
    const stopped = verificationStopped(interrupt, verified?.verification, 'nothing was changed');
    if (stopped !== undefined) return stopped;
    return verified && verified.verification.failures.length > 0 ? ExitCode.error : ExitCode.ok;
  }
  interrupt.phase = 'confirm';
  if (!(await confirmed(options, human, interrupt))) {
    human.write('Apply cancelled. Nothing was changed.\n');
    if (json) report(emptySummaryJson('cancelled', plan));
    return ExitCode.error;
  }
  if (interrupt.received) throw interruptedError(interrupt.received, 'confirm');
  interrupt.phase = 'apply';
  const result = await applyRun(run, changes, {
    concurrency: options.concurrency,
    failFast: options.failFast,
    stateDir: options.stateDir,
    ...(options.journal ? { journal: options.journal } : {}),
    progressOut: process.stderr,
    signal: interrupt.signal,
    provenance: {
      ...(saved
        ? { savedPlan: { file: saved.file, ...(saved.saved.digest ? { digest: saved.saved.digest } : {}) } }
        : {}),
      manifestPaths: paths.length > 0 ? paths : ['.'],
    },
    ...(options.emergencyChange !== undefined ? { emergencyChange: options.emergencyChange } : {}),
    verify: options.verify,
  });
  const assurance = { ...verificationJson(result.verification), ...emergencyJson(result.record) };
  if (json) report({ ...summaryJson(result.result, result.journal, result.record.plan), ...assurance });
  else {
    ctx.stdout.write(renderSummary(result.result, result.journal, result.record.plan));
    ctx.stdout.write(emergencyLine(result.record));
    if (result.verification) ctx.stdout.write(renderVerification(result.verification));
  }
  const verifyFailed = (result.verification?.failures.length ?? 0) > 0;
  const partial = isIncomplete(result.result);
  // Skipped changes (a failure, --fail-fast, Ctrl-C) or a journal that failed leave a partial apply:
  // exit 1 too; so does a failed vector.
  const code =
    (partial ? undefined : verificationStopped(interrupt, result.verification, 'every change was applied')) ??
    (partial || verifyFailed ? ExitCode.error : ExitCode.ok);
  await notifier?.afterApply(run.plan, result.result, code);
  return code;
}

/** `apply --verify` of a plan without changes: the vectors are searched all the same, in a journal of their own. */
function verifyUnchanged(run: PlanRun, options: ApplyOptions, interrupt: Interrupt) {
  return verifySession({
    session: run.session,
    tests: run.routingTests,
    tables: run.routingTables,
    manifests: { digest: run.plan.manifests.digest, files: run.plan.manifests.files.length },
    stateDir: options.stateDir,
    ...(options.journal ? { journal: options.journal } : {}),
    signal: interrupt.signal,
  });
}

/**
 * The exit code (130, 143) of a run whose verification a signal stopped, said on stderr; undefined
 * when every vector was searched. A partial apply is not asked: it exits 1 whatever stopped it.
 */
function verificationStopped(interrupt: Interrupt, v: Verification | undefined, changed: string): number | undefined {
  if (interrupt.received === undefined || v === undefined || v.notSearched === 0) return undefined;
  const n = `${v.notSearched} of ${v.vectors} ${v.vectors === 1 ? 'vector was' : 'vectors were'}`;
  process.stderr.write(
    `Interrupted (${interrupt.received}) while verifying: ${changed}; ${n} not searched (\`switchboard verify\` searches them).\n`,
  );
  return interruptedError(interrupt.received, 'verify').exitCode;
}

function messageJson(m: PlanMessage): ApplySummaryJson['errors'][number] {
  return { code: m.code, message: m.message, ...(m.address ? { address: m.address } : {}) };
}

/** `--yes`, or "yes" typed on a terminal (Ctrl-D is no yes); without a terminal `--yes` is required. A signal ends the question. */
async function confirmed(options: ApplyOptions, output: NodeJS.WritableStream, interrupt: Interrupt): Promise<boolean> {
  if (options.yes) return true;
  if (!process.stdin.isTTY) {
    throw new SwitchboardError(
      'SB_APPLY_CONFIRM',
      'apply needs --yes when it cannot ask (stdin is not a terminal, e.g. in CI): review the plan above, then run it again with --yes',
    );
  }
  try {
    return await askYes('\nApply these changes? Only "yes" is accepted: ', process.stdin, output, interrupt.signal);
  } catch (error) {
    if (interrupt.received) throw interruptedError(interrupt.received, 'confirm');
    throw error;
  }
}
