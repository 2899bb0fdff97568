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
import type { Change } from '../../plan/types.js';
import {
  applyRun,
  changesToApply,
  planRun,
  readSavedPlan,
  withApplyLock,
  type ApplyRunResult,
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
          const run = await planRun(saved?.paths ?? paths, saved?.scope ?? options, ctx.logger);
          try {
            ctx.exitCode = await applyCommand(run, saved, options, ctx);
          } finally {
            await run.session.close();
          }
        },
      );
    });
};

async function applyCommand(
  run: PlanRun,
  saved: SavedPlanRun<ApplyOptions> | undefined,
  options: ApplyOptions,
  ctx: CliContext,
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
  if (!(await confirmed(options, ctx))) {
    ctx.stdout.write('Apply cancelled. Nothing was changed.\n');
    return ExitCode.error;
  }
  const result = await execute(run, changes, options);
  ctx.stdout.write(renderSummary(result.result, result.journal));
  // Skipped changes (after a failure, --fail-fast, Ctrl-C) leave a partial apply: exit 1 too.
  return result.result.failed + result.result.skipped > 0 ? ExitCode.error : ExitCode.ok;
}

/** `--yes`, or "yes" typed on a terminal; without a terminal `--yes` is required. */
async function confirmed(options: ApplyOptions, ctx: CliContext): Promise<boolean> {
  if (options.yes) return true;
  if (!process.stdin.isTTY) {
    throw new SwitchboardError(
      'SB_APPLY_CONFIRM',
      'apply needs --yes when it cannot ask (stdin is not a terminal, e.g. in CI): review the plan above, then run it again with --yes',
    );
  }
  const rl = createInterface({ input: process.stdin, output: ctx.stdout });
  try {
    const answer = await rl.question('\nApply these changes? Only "yes" is accepted: ');
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}

async function execute(run: PlanRun, changes: Change[], options: ApplyOptions): Promise<ApplyRunResult> {
  const interrupt = new AbortController();
  const onSigint = () => {
    if (interrupt.signal.aborted) process.exit(130);
    process.stderr.write('\nInterrupted: finishing the requests in flight (Ctrl-C again to quit at once)…\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    return await applyRun(run, changes, {
      concurrency: options.concurrency,
      failFast: options.failFast,
      stateDir: options.stateDir,
      ...(options.journal ? { journal: options.journal } : {}),
      progressOut: process.stderr,
      signal: interrupt.signal,
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
}
