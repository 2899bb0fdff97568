/**
 * `switchboard export [--scope ADDRESS]… [--out DIR]`: reads live state in a scope and
 * writes manifests that `plan` then reports as "No changes." (adopting an existing
 * platform). Exit 0 when written, 1 on errors (a non-empty --out without --force, an
 * unknown scope, an unreachable server), 130/143 when interrupted (the files written are
 * complete; the same command finishes the export).
 */
import * as path from 'node:path';
import type { Command } from 'commander';
import type { ConcurrencySetting } from '../../run/index.js';
import { addConnectionOptions } from '../options.js';
import type { CommandRegistrar } from '../program.js';
import { safeText } from '../../core/safe-text.js';

interface ExportOptions {
  env?: string;
  config?: string;
  sim?: boolean;
  seed?: string;
  concurrency: ConcurrencySetting;
  scope: string[];
  out: string;
  force: boolean;
  stats: boolean;
  baselines?: string;
}

export const registerExport: CommandRegistrar = (program: Command, context) => {
  addConnectionOptions(
    program
      .command('export')
      .description('Write manifests of live state (adopting an existing platform); plan then shows no changes'),
  )
    .option(
      '--scope <address>',
      'export this group/<name>, reseller/<name> or tenant/<name> and everything below it (repeatable; default: everything visible)',
      (v: string, prev: string[]) => [...prev, v],
      [],
    )
    .option('--out <dir>', 'folder to write groups/, resellers/ and tenants/ into', 'manifests')
    .option('--force', 'write into a non-empty folder (replacing what a previous export wrote)', false)
    .option('--stats', 'print request counts on stderr', false)
    .option(
      '--baselines <dir>',
      'the Baseline documents of this folder select the exported tenants: write only what differs from them, as overrides',
    )
    .action(async (options: ExportOptions) => {
      const ctx = context();
      const [{ connectOptionsOf }, { exportRun }, { reduceToBaselines }, { watchInterrupts }] = await Promise.all([
        import('../../run/session.js'),
        import('../../run/export.js'),
        import('../../run/baselines.js'),
        import('../../run/interrupt.js'),
      ]);
      const interrupt = watchInterrupts((line) => process.stderr.write(`\n${line}\n`));
      interrupt.phase = 'export';
      const result = await exportRun(
        connectOptionsOf(options, ctx.logger),
        {
          scopes: options.scope,
          outDir: options.out,
          force: options.force,
          signal: interrupt.signal,
          onNote: (note) => process.stderr.write(`Note: ${note}.\n`),
        },
        process.stderr,
      ).finally(() => interrupt.dispose());
      for (const w of result.warnings) process.stderr.write(`${safeText(`warning: ${w.address}: ${w.message}`)}\n`);
      // Flat, unless baselines are given: then each tenant keeps what differs from them (docs/baselines.md).
      const reduced = options.baselines
        ? await reduceToBaselines(options.out, options.baselines, 'live value at export')
        : undefined;
      const counts = Object.entries(result.counts).map(
        ([kind, n]) => `${n} ${kind.toLowerCase()}${n === 1 ? '' : 's'}`,
      );
      const where = path.relative(process.cwd(), path.resolve(options.out)) || '.';
      ctx.stdout.write(
        `Exported ${counts.length > 0 ? counts.join(', ') : 'nothing'} to ${where}/ (${result.files.length} files).\n`,
      );
      if (reduced)
        ctx.stdout.write(
          `${reduced.rewritten.length} files hold only what differs from the baselines of ${options.baselines ?? ''} (${reduced.overrides} overrides).\n`,
        );
      if (options.stats) process.stderr.write(`${JSON.stringify({ platform: result.stats })}\n`);
    });
};
