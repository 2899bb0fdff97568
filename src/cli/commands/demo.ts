/**
 * `switchboard demo`: starts the embedded simulator in-process, plans examples/,
 * applies them, plans again ("No changes."), then plans a one-value edit of a copy. Exit 0
 * only when every step did what it should (src/demo/run-demo.ts checks each one), 1 otherwise.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXAMPLES_DIR } from '../../core/package.js';
import type { ConcurrencySetting } from '../../run/index.js';
import { concurrencyOption } from '../options.js';
import type { CommandRegistrar } from '../program.js';

interface DemoCommandOptions {
  concurrency: ConcurrencySetting;
  color: boolean;
}

export const registerDemo: CommandRegistrar = (program: Command, context) => {
  program
    .command('demo')
    .description('Plan, apply and re-plan examples/ on an embedded simulator, then plan a one-value edit')
    .option(...concurrencyOption())
    .option('--no-color', 'no colours, even on a terminal')
    .action(async (options: DemoCommandOptions) => {
      const ctx = context();
      const out = ctx.stdout as NodeJS.WritableStream & { isTTY?: boolean };
      const { runDemo } = await import('../../demo/run-demo.js');
      await runDemo({
        examples: resolve(EXAMPLES_DIR),
        concurrency: options.concurrency,
        color: options.color && out.isTTY === true && !process.env['NO_COLOR'],
        logger: ctx.logger,
        out,
      });
    });
};
