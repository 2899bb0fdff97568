/**
 * `switchboard apply [PATH…]` and `switchboard apply --plan FILE`: plans (or re-checks a
 * saved plan against a fresh one), asks for confirmation, applies, and prints a summary.
 * Exit 0 when everything was applied, 1 when anything failed (or no --yes without a
 * terminal), 3 when a safety rail refuses (plan errors, stale saved plan).
 */
import { createInterface } from 'node:readline/promises';
import { Option, type Command } from 'commander';
import { renderSummary } from '../../apply/summary.js';
import { ExitCode, SwitchboardError } from '../../core/errors.js';
import { renderText } from '../../plan/render-text.js';
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
  type PlanRunOptions,
  type SavedPlanRun,
} from '../../run/index.js';
import { addPlanOptions, manifestPathsArgument } from '../options.js';
import type { CliContext, CommandRegistrar } from '../program.js';

interface ApplyOptions extends PlanRunOptions {
  yes: boolean;
  plan?: string;
  failFast: boolean;
  journal?: string;
  color: boolean;
}

export const registerApply: CommandRegistrar = (program: Command, context) => {
  addPlanOptions(
    program.command('apply').description('Plan, confirm, and apply the changes').addArgument(manifestPathsArgument()),
  )
    .option('--yes', 'apply without asking for confirmation (required without a terminal)', false)
    .option('--plan <file>', 'apply this saved plan exactly, after checking it is not stale')
    .addOption(
      new Option('--fail-fast', 'stop starting changes after the first failure').default(false).conflicts('keepGoing'),
    )
    .option('--keep-going', 'after a failure, go on with every change that does not depend on it (the default)')
    .option(
      '--journal <file>',
      'where to append the journal of requests (default: <state-dir>/journal-<timestamp>.jsonl)',
    )
    .option('--no-color', 'no colours, even on a terminal')
    .action(async (paths: string[], given: ApplyOptions, command: Command) => {
      const ctx = context();
      const interrupt = watchInterrupts((line) => process.stderr.write(`\n${line}\n`));
      try {
        const saved = given.plan
          ? await readSavedPlan(given.plan, given, (key) => command.getOptionValueSource(key) === 'cli', paths)
          : undefined;
        if (saved?.fromPlan) process.stderr.write(`Note: manifests from the plan file: ${saved.paths.join(' ')}\n`);
        const options = saved?.options ?? given;
        // Taken before planning: a run that planned while another applied would apply a stale plan.
        await withApplyLock(
          options.stateDir,
          (note) => process.stderr.write(`Note: ${note}.\n`),
          async () => {
            const scope = { ...(saved?.scope ?? options), signal: interrupt.signal, progressOut: process.stderr };
            const run = await planRun(saved?.paths ?? paths, scope, ctx.logger);
            try {
              ctx.exitCode = await applyCommand(run, saved, options, ctx, interrupt);
            } finally {
              await run.session.close();
            }
          },
        );
      } finally {
        interrupt.dispose();
      }
    });
};

async function applyCommand(
  run: PlanRun,
  saved: SavedPlanRun<ApplyOptions> | undefined,
  options: ApplyOptions,
  ctx: CliContext,
  interrupt: Interrupt,
): Promise<number> {
  const color = options.color && process.stdout.isTTY === true && !process.env['NO_COLOR'];
  const shown = saved?.saved ?? run.plan;
  ctx.stdout.write(renderText(run.plan.errors.length > 0 ? run.plan : shown, { color }));
  if (run.plan.errors.length > 0) {
    ctx.stdout.write('\nApply refused: the plan has errors (above). Nothing was changed.\n');
    return ExitCode.refused;
  }
  const changes = changesToApply(run, saved);
  if (changes.length === 0) return ExitCode.ok;
  interrupt.phase = 'confirm';
  if (!(await confirmed(options, ctx, interrupt))) {
    ctx.stdout.write('Apply cancelled. Nothing was changed.\n');
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
  });
  ctx.stdout.write(renderSummary(result.result, result.journal));
  // Skipped changes (after a failure, --fail-fast, Ctrl-C) leave a partial apply: exit 1 too.
  return result.result.failed + result.result.skipped > 0 ? ExitCode.error : ExitCode.ok;
}

/** `--yes`, or "yes" typed on a terminal; without a terminal `--yes` is required. A signal ends the question. */
async function confirmed(options: ApplyOptions, ctx: CliContext, interrupt: Interrupt): Promise<boolean> {
  if (options.yes) return true;
  if (!process.stdin.isTTY) {
    throw new SwitchboardError(
      'SB_APPLY_CONFIRM',
      'apply needs --yes when it cannot ask (stdin is not a terminal, e.g. in CI): review the plan above, then run it again with --yes',
    );
  }
  const rl = createInterface({ input: process.stdin, output: ctx.stdout });
  // On a terminal, readline takes Ctrl-C itself: pass it on as the signal it is.
  rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
  try {
    const answer = await rl.question('\nApply these changes? Only "yes" is accepted: ', { signal: interrupt.signal });
    return answer.trim() === 'yes';
  } catch (error) {
    if (interrupt.received) throw interruptedError(interrupt.received, 'confirm');
    throw error;
  } finally {
    rl.close();
  }
}
