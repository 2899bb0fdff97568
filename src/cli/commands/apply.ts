/**
 * `switchboard apply [PATH…]` and `switchboard apply --plan FILE`: plans (or re-checks a
 * saved plan against a fresh one), asks for confirmation, applies, and prints a summary.
 * Exit 0 when everything was applied, 1 when anything failed (or no --yes without a
 * terminal), 3 when a safety rail refuses (plan errors, stale saved plan).
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { NotifyOptions } from '../../notify/index.js';
import type { PlanRunOptions } from '../../run/index.js';
import { addPlanOptions, manifestPathsArgument } from '../options.js';
import type { CommandRegistrar } from '../program.js';

/** The options of `apply` (the command line's, flat). */
export interface ApplyOptions extends PlanRunOptions, NotifyOptions {
  yes: boolean;
  plan?: string;
  failFast: boolean;
  journal?: string;
  color: boolean;
  format: 'text' | 'json';
  verify: boolean;
  emergencyChange?: string;
}

export const registerApply: CommandRegistrar = (program: Command, context) => {
  addPlanOptions(
    program.command('apply').description('Plan, confirm, and apply the changes').addArgument(manifestPathsArgument()),
  )
    .option('--yes', 'apply without asking for confirmation (required without a terminal)', false)
    .option(
      '--plan <file>',
      'apply this saved plan exactly: planned again over its scope, every safety rail run again, refused unless the changes are the same',
    )
    .addOption(
      new Option('--fail-fast', 'stop starting changes after the first failure').default(false).conflicts('keepGoing'),
    )
    .option('--keep-going', 'after a failure, go on with every change that does not depend on it (the default)')
    .option(
      '--journal <file>',
      'where to append the journal of requests (default: <state-dir>/journal-<timestamp>.jsonl)',
    )
    .option(
      '--verify',
      'after applying, search every RoutingTest vector in the live routing engine (one request each); a failure exits 1',
      false,
    )
    .option(
      '--emergency-change <ticket>',
      'apply changes outside their change window anyway, recording the ticket in the journal, audit and the summary',
      ticket,
    )
    .option('--no-color', 'no colours, even on a terminal')
    .addOption(
      new Option(
        '--format <format>',
        'stdout: text, or json (the summary as one JSON document; the plan goes to stderr)',
      )
        .choices(['text', 'json'])
        .default('text'),
    )
    .action(async (paths: string[], given: ApplyOptions, command: Command) => {
      // Loaded here: registering the commands needs none of it, and the other commands start without it.
      const { applyAction } = await import('./apply-action.js');
      await applyAction(paths, given, command, context());
    });
};

/** `--emergency-change`: a ticket, one line of text. */
function ticket(value: string): string {
  const text = value.trim();
  if (text === '' || /[\u0000-\u001f]/.test(text) || text.length > 200)
    throw new InvalidArgumentError('expected a ticket: one line of text, at most 200 characters');
  return text;
}
