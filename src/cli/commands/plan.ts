/**
 * `switchboard plan [PATH…]`: reads live state for everything the manifests declare,
 * diffs, prints the plan (text, JSON or markdown) and changes nothing. Exit 0, 2 with
 * --detailed-exitcode when there are changes, 3 when a safety rail refuses the plan.
 */
import { Option, type Command } from 'commander';
import { ExitCode } from '../../core/errors.js';
import { writePlanFile } from '../../plan/plan-file.js';
import { renderJson } from '../../plan/render-json.js';
import { renderMarkdown } from '../../plan/render-markdown.js';
import { renderText } from '../../plan/render-text.js';
import type { Plan } from '../../plan/types.js';
import { planRun, watchInterrupts, type PlanRunOptions } from '../../run/index.js';
import { addPlanOptions, manifestPathsArgument } from '../options.js';
import type { CommandRegistrar } from '../program.js';

interface PlanOptions extends PlanRunOptions {
  out?: string;
  format: 'text' | 'json' | 'markdown';
  detailedExitcode: boolean;
  color: boolean;
  stats: boolean;
}

export function renderPlan(plan: Plan, format: PlanOptions['format'], color: boolean): string {
  if (format === 'json') return renderJson(plan);
  if (format === 'markdown') return renderMarkdown(plan);
  return renderText(plan, { color });
}

/** The exit code of a plan: refusals (3) first, then changes (2 when asked). */
export function planExitCode(plan: Plan, detailed: boolean): number {
  if (plan.errors.length > 0) return ExitCode.refused;
  const changes = plan.summary.create + plan.summary.update + plan.summary.replace + plan.summary.delete;
  return detailed && changes > 0 ? ExitCode.changes : ExitCode.ok;
}

export const registerPlan: CommandRegistrar = (program: Command, context) => {
  addPlanOptions(
    program
      .command('plan')
      .description('Show what apply would change; changes nothing')
      .addArgument(manifestPathsArgument()),
  )
    .option('--out <file>', 'also write the plan file (JSON)')
    .addOption(new Option('--format <format>', 'stdout format').choices(['text', 'json', 'markdown']).default('text'))
    .option('--detailed-exitcode', 'exit 2 when there are changes', false)
    .option(
      '--no-check-permissions',
      "plan with a read-only user: no refusal for changes its api_rules forbid (apply checks its own user's)",
    )
    .option('--no-color', 'no colours, even on a terminal')
    .option('--stats', 'print request counts on stderr', false)
    .action(async (paths: string[], options: PlanOptions) => {
      const ctx = context();
      const interrupt = watchInterrupts((line) => process.stderr.write(`\n${line}\n`));
      const reading = { ...options, signal: interrupt.signal, progressOut: process.stderr };
      const run = await planRun(paths, reading, ctx.logger).finally(() => interrupt.dispose());
      try {
        if (options.out) await writePlanFile(options.out, run.plan);
        const color = options.color && process.stdout.isTTY === true && !process.env['NO_COLOR'];
        ctx.stdout.write(renderPlan(run.plan, options.format, color));
        if (options.stats) {
          const stats = { platform: run.session.client?.stats(), routingEngine: run.session.routing?.stats };
          process.stderr.write(`${JSON.stringify(stats)}\n`);
        }
        ctx.exitCode = planExitCode(run.plan, options.detailedExitcode);
      } finally {
        await run.session.close();
      }
    });
};
