/**
 * `switchboard baseline suggest DIR --select KEY=VALUE…`: proposes a Baseline from what most
 * of the selected documents of a flat manifest set (an export) share, and prints it; with
 * `--write`, writes it and rewrites those documents to hold only their differences, as
 * overrides (docs/baselines.md). Reads files only: no server. Exit 0, or 1 (nothing written)
 * when the manifests have errors, the selection is empty, or the rewritten documents would
 * declare anything else than before.
 */
import * as path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { decimal } from '../numbers.js';
import type { CommandRegistrar } from '../program.js';

interface SuggestFlags {
  select: string[];
  name?: string;
  coverage: number;
  by: string[];
  write: boolean;
  reason: string;
  out?: string;
}

/** The default reason of the overrides a rewrite writes: replace it with the real one (a contract, a ticket). */
const ADOPTION_REASON = 'differed from the baseline when it was adopted';

export const registerBaseline: CommandRegistrar = (program: Command, context) => {
  const baseline = program.command('baseline').description('Standards for many tenants: propose and adopt baselines');
  baseline
    .command('suggest')
    .description(
      'Propose a Baseline from what most selected documents share; with --write, write it and keep only differences in the documents',
    )
    .argument('<dir>', 'a folder of flat manifests (an export)')
    .addOption(
      new Option(
        '--select <key=value>',
        'documents to standardise: reseller=NAME, group=NAME or label:NAME=VALUE (repeatable, all hold)',
      )
        .argParser(collect)
        .makeOptionMandatory(),
    )
    .option('--name <name>', "the baseline's name (default: from --select)")
    .option(
      '--coverage <percent>',
      'a value is proposed when at least this share of the documents (or items) hold it, and no other value is as common',
      percent,
      50,
    )
    .option(
      '--by <collection.field>',
      'address the items of a collection by a field (subscriptions.uc) instead of by name',
      collect,
      [],
    )
    .option(
      '--write',
      'write the baseline and rewrite the documents to hold only their differences (as overrides)',
      false,
    )
    .option('--reason <text>', 'the reason written in each override', ADOPTION_REASON)
    .option('--out <file>', 'where to write the baseline (default: DIR/baselines/NAME.yaml)')
    .action(async (dir: string, flags: SuggestFlags) => {
      const ctx = context();
      // Loaded here: the other commands start without the run layer.
      const { suggestBaseline } = await import('../../run/baselines.js');
      const result = await suggestBaseline(dir, {
        select: flags.select,
        coverage: flags.coverage / 100,
        by: flags.by,
        write: flags.write,
        reason: flags.reason,
        ...(flags.name !== undefined ? { name: flags.name } : {}),
        ...(flags.out !== undefined ? { out: flags.out } : {}),
      });
      const where = path.relative(process.cwd(), result.file) || result.file;
      const counts = `${result.selected.length} ${result.selected.length === 1 ? 'document' : 'documents'}, ${result.overrides} ${result.overrides === 1 ? 'override' : 'overrides'}`;
      if (!flags.write) {
        ctx.stdout.write(result.text);
        process.stderr.write(`Proposed baseline ${result.name} (${counts}); --write writes it to ${where}.\n`);
        return;
      }
      ctx.stdout.write(
        `Wrote baseline ${result.name} to ${where} and rewrote ${result.rewritten.length} ${result.rewritten.length === 1 ? 'file' : 'files'} (${counts}); plan shows what it showed before.\n`,
      );
    });
};

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function percent(value: string): number {
  const n = decimal(value.replace(/%$/, '')) ?? Number.NaN;
  if (!Number.isFinite(n) || n <= 0 || n > 100)
    throw new InvalidArgumentError('expected a percentage above 0, at most 100');
  return n;
}
