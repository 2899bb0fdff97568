/**
 * `switchboard plan [PATH…]`: reads live state for everything the manifests declare,
 * diffs, prints the plan (text, JSON or markdown) and changes nothing. Exit 0, 2 with
 * --detailed-exitcode when there are changes, 3 when a safety rail refuses the plan.
 */
import { Option, type Command } from 'commander';
import type { NotifyOptions } from '../../notify/index.js';
import type { PlanRunOptions, Session } from '../../run/index.js';
import { RunNotifier } from '../notify.js';
import { addPlanOptions, manifestPathsArgument, noCacheOption } from '../options.js';
import type { CommandRegistrar } from '../program.js';

/** What `plan` and `show` print: the formats of a plan. */
export const PLAN_FORMATS = ['text', 'json', 'markdown', 'html'] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

interface PlanOptions extends PlanRunOptions, NotifyOptions {
  /** False with `--no-cache`. */
  cache: boolean;
  out?: string;
  format: PlanFormat;
  detailedExitcode: boolean;
  color: boolean;
  stats: boolean;
}

export const registerPlan: CommandRegistrar = (program: Command, context) => {
  addPlanOptions(
    program
      .command('plan')
      .description('Show what apply would change; changes nothing')
      .addArgument(manifestPathsArgument()),
  )
    .option('--out <file>', 'also write the plan file (JSON)')
    .option(
      '--coverage',
      "add the Emergency coverage section: each subscription's numbers and their emergency addresses",
      false,
    )
    .option(
      '--policies-from <git-ref>',
      "judge the plan by the Policy documents as they are at this git commit (a pull request's base), and list how these differ",
    )
    .addOption(new Option('--format <format>', 'stdout format').choices(PLAN_FORMATS).default('text'))
    .option('--detailed-exitcode', 'exit 2 when there are changes', false)
    .option(
      '--no-check-permissions',
      "plan with a read-only user: no refusal for changes its api_rules forbid (apply checks its own user's)",
    )
    .option('--no-color', 'no colours, even on a terminal')
    .option('--stats', 'print request counts on stderr', false)
    .addOption(noCacheOption())
    .action(async (paths: string[], options: PlanOptions) => {
      const ctx = context();
      // Loaded here: registering the commands needs none of it, and the other commands start without it.
      // The run layer's modules by name, not its index: the bundle then leaves apply and export out of plan's chunks.
      const [{ planRun }, { watchInterrupts }, { writePlanFile }, { planExitCode, printPlan, useColor }] =
        await Promise.all([
          import('../../run/plan.js'),
          import('../../run/interrupt.js'),
          import('../../plan/plan-file.js'),
          import('./plan-output.js'),
        ]);
      const notifier = await RunNotifier.of(options, ctx.logger);
      const interrupt = watchInterrupts((line) => process.stderr.write(`\n${line}\n`));
      // The session is closed once the last request is answered (its request counts taken first):
      // the logout's round trip goes on while the plan is assembled, sealed, written and printed.
      let closed: { requests: Record<string, unknown>; closing: Promise<void> } | undefined;
      const reading = {
        ...options,
        manifestCache: options.cache,
        signal: interrupt.signal,
        progressOut: process.stderr,
        readsDone: (session: Session) => {
          closed = { requests: requestCounts(session), closing: session.close() };
          closed.closing.catch(() => undefined);
        },
      };
      const run = await planRun(paths, reading, ctx.logger).finally(() => interrupt.dispose());
      try {
        if (options.out) await writePlanFile(options.out, run.plan);
        await printPlan(ctx.stdout, run.plan, options.format, useColor(options.color));
        if (options.stats) {
          const requests = closed?.requests ?? requestCounts(run.session);
          const stats = { ...requests, ...(run.policyCost ? { policies: run.policyCost } : {}) };
          process.stderr.write(`${JSON.stringify(stats)}\n`);
        }
        ctx.exitCode = planExitCode(run.plan, options.detailedExitcode);
        await notifier?.afterPlan(run.plan, ctx.exitCode);
      } finally {
        await (closed?.closing ?? run.session.close());
      }
    });
};

/** What `--stats` prints of a session's requests. */
function requestCounts(session: Session): Record<string, unknown> {
  return { platform: session.client?.stats(), routingEngine: session.routing?.requestStats() };
}
