/**
 * `switchboard verify [PATH…]`: every RoutingTest vector of the manifests searched in the
 * live routing engine (docs/assurance.md), one request per vector; the outcome journalled
 * for `audit`. Exit 0 when every vector passes, 1 when one fails (or on an error), 130 or 143
 * when Ctrl-C or SIGTERM stopped it (what was searched is printed and journalled first).
 */
import { Option, type Command } from 'commander';
import { ExitCode } from '../../core/errors.js';
import type { VerifyRunOptions } from '../../run/index.js';
import { addConnectionOptions, addStateDirOption, manifestPathsArgument } from '../options.js';
import type { CommandRegistrar } from '../program.js';

interface VerifyOptions extends VerifyRunOptions {
  format: 'text' | 'json';
}

export const registerVerify: CommandRegistrar = (program: Command, context) => {
  addStateDirOption(
    addConnectionOptions(
      program
        .command('verify')
        .description('Search every RoutingTest vector in the live routing engine; changes nothing')
        .addArgument(manifestPathsArgument()),
    ),
    'where the journal lives',
  )
    .option('--journal <file>', 'where to append the journal (default: <state-dir>/journal-<timestamp>.jsonl)')
    .addOption(new Option('--format <format>', 'stdout format').choices(['text', 'json']).default('text'))
    .action(async (paths: string[], options: VerifyOptions) => {
      const ctx = context();
      // Loaded here: the other commands start without the run layer.
      const [
        { asInterrupted, interruptedError, watchInterrupts },
        { renderVerification, verificationJson },
        { verifyRun },
      ] = await Promise.all([
        import('../../run/interrupt.js'),
        import('../../run/verify-render.js'),
        import('../../run/verify-run.js'),
      ]);
      const interrupt = watchInterrupts((line) => process.stderr.write(`\n${line}\n`));
      interrupt.phase = 'verify';
      try {
        const { verification, journal } = await verifyRun(
          paths,
          { ...options, signal: interrupt.signal },
          ctx.logger,
        ).catch((error: unknown) => {
          throw asInterrupted(error, interrupt.signal);
        });
        if (options.format === 'json')
          ctx.stdout.write(`${JSON.stringify({ ...verificationJson(verification).verification, journal }, null, 2)}\n`);
        else ctx.stdout.write(renderVerification(verification, journal).replace(/^\n/, ''));
        // What was searched is printed; the command still ends as the signal asks (130, 143).
        if (interrupt.received) throw interruptedError(interrupt.received, 'verify');
        ctx.exitCode = verification.failures.length > 0 ? ExitCode.error : ExitCode.ok;
      } finally {
        interrupt.dispose();
      }
    });
};
