/**
 * `switchboard show PLAN_FILE`: renders a saved plan (`plan --out`) as `plan` printed it,
 * in any of its formats, with no configuration, no credentials and no network. The file's
 * digest is checked first: a plan changed after it was made is refused (exit 3).
 */
import { Option, type Command } from 'commander';
import { readPlan } from '../../run/index.js';
import type { CommandRegistrar } from '../program.js';
import { PLAN_FORMATS, renderPlan, useColor, type PlanFormat } from './plan.js';

interface ShowOptions {
  format: PlanFormat;
  color: boolean;
}

export const registerShow: CommandRegistrar = (program: Command, context) => {
  program
    .command('show')
    .description('Print a saved plan file as plan printed it; no connection, no credentials')
    .argument('<plan-file>', 'a plan file written by plan --out')
    .addOption(new Option('--format <format>', 'stdout format').choices(PLAN_FORMATS).default('text'))
    .option('--no-color', 'no colours, even on a terminal')
    .action(async (file: string, options: ShowOptions) => {
      const ctx = context();
      const plan = await readPlan(file);
      if (plan.digest === undefined) {
        process.stderr.write(`Note: ${file} carries no digest (made by a switchboard that did not record one).\n`);
      }
      ctx.stdout.write(renderPlan(plan, options.format, useColor(options.color)));
    });
};
