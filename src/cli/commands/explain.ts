/**
 * `switchboard explain ADDRESS [PATH…]`: an object's effective desired state, and its
 * subtree's, each field with where its value comes from: the document that declares it, a
 * baseline (`baselines/be-office.yaml:12:9`), or the document's override of a baseline with
 * its reason (docs/baselines.md). Reads the manifests only: no server, no credentials. Exit
 * 0, or 1 when the manifests have errors or declare nothing at the address.
 */
import { Argument, Option, type Command } from 'commander';
import { ExitCode } from '../../core/errors.js';
import type { CommandRegistrar } from '../program.js';

export const registerExplain: CommandRegistrar = (program: Command, context) => {
  program
    .command('explain')
    .description(
      "Print an object's effective desired state, each value with its source (a manifest, a baseline, an override)",
    )
    .addArgument(new Argument('<address>', 'the object, as plans show it (tenant/acme-corp, …)'))
    .addArgument(new Argument('[paths...]', 'manifest files or folders').default([], '.'))
    .addOption(new Option('--format <format>', 'stdout format').choices(['text', 'json']).default('text'))
    .action(async (address: string, paths: string[], opts: { format: 'text' | 'json' }) => {
      const ctx = context();
      // Loaded here (explain-run.ts): the other commands start without the loader and the baselines.
      const { runExplain } = await import('./explain-run.js');
      ctx.stdout.write(await runExplain(address, paths, { format: opts.format }));
      ctx.exitCode = ExitCode.ok;
    });
};
