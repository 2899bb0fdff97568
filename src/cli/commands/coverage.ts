/**
 * `switchboard coverage [PATH…]`: the Emergency coverage of the subscriptions the manifests
 * declare (docs/assurance.md): numbers without an address, addresses not verified,
 * addresses linked to no number, and what a plan of the manifests would change about it.
 * Reads what `plan` reads and the numbers and addresses of those subscriptions; changes
 * nothing. Exit 0, or 1 on an error.
 */
import { Option, type Command } from 'commander';
import type { PlanRunOptions } from '../../run/index.js';
import { COVERAGE_FORMATS, type CoverageFormat } from '../coverage-format-names.js';
import { addConnectionOptions, addStateDirOption, manifestPathsArgument } from '../options.js';
import type { CommandRegistrar } from '../program.js';

interface CoverageOptions {
  env?: string;
  config?: string;
  sim?: boolean;
  seed?: string;
  concurrency: PlanRunOptions['concurrency'];
  target: string[];
  exclude: string[];
  stateDir: string;
  format: CoverageFormat;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export const registerCoverage: CommandRegistrar = (program: Command, context) => {
  addStateDirOption(
    addConnectionOptions(
      program
        .command('coverage')
        .description("Show each declared subscription's numbers and their emergency addresses; changes nothing")
        .addArgument(manifestPathsArgument()),
    ),
    'where the last-applied record lives',
  )
    .option(
      '--target <address>',
      'only these subscriptions, or what is under these addresses (repeatable)',
      collect,
      [],
    )
    .option('--exclude <address>', 'leave this address and its subtree out (repeatable)', collect, [])
    .addOption(new Option('--format <format>', 'stdout format').choices(COVERAGE_FORMATS).default('text'))
    .action(async (paths: string[], options: CoverageOptions) => {
      const ctx = context();
      // Loaded here: the other commands start without the run layer and the renderers.
      const [{ planRun }, { watchInterrupts }, { renderCoverage }] = await Promise.all([
        import('../../run/plan.js'),
        import('../../run/interrupt.js'),
        import('../coverage-formats.js'),
      ]);
      const interrupt = watchInterrupts((line) => process.stderr.write(`\n${line}\n`));
      const run = await planRun(
        paths,
        {
          ...options,
          prune: false,
          allowReplace: false,
          maxDeletePercent: 10,
          coverage: true,
          coverageListLimit: null,
          signal: interrupt.signal,
          progressOut: process.stderr,
        },
        ctx.logger,
      ).finally(() => interrupt.dispose());
      try {
        ctx.stdout.write(renderCoverage(run.plan.coverage ?? { scopes: [], listLimit: null }, options.format));
      } finally {
        await run.session.close();
      }
    });
};
