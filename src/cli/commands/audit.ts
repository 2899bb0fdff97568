/**
 * `switchboard audit JOURNAL…`: the journals of any number of applies merged into one
 * table, a row per change: when, who (and how they logged in), what, with which outcome
 * and HTTP status, from which plan (its digest), at which commit, in which CI run. Reads
 * files only. Torn or foreign lines are listed on stderr with their file:line, never fatal.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { AUDIT_FORMATS, renderAudit, type AuditFormat } from '../../apply/audit-format.js';
import { auditJournals } from '../../apply/audit.js';
import type { CommandRegistrar } from '../program.js';
import { safeText } from '../../core/safe-text.js';

interface AuditOptions {
  format: AuditFormat;
  since?: Date;
  address: string[];
}

export const registerAudit: CommandRegistrar = (program: Command, context) => {
  program
    .command('audit')
    .description('Merge apply journals into one table: who applied which change, from which plan, at which commit')
    .argument('<journal...>', 'journal files written by apply (.jsonl)')
    .addOption(new Option('--format <format>', 'stdout format').choices(AUDIT_FORMATS).default('csv'))
    .option('--since <date>', 'only changes at or after this date or time (ISO 8601, e.g. 2026-11-01)', date)
    .option(
      '--address <glob>',
      'only changes whose address matches (* any characters, ? one; repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .action(async (journals: string[], options: AuditOptions) => {
      const ctx = context();
      const { rows, problems } = await auditJournals(journals, {
        ...(options.since ? { since: options.since } : {}),
        addresses: options.address,
      });
      for (const p of problems) process.stderr.write(`${safeText(`${p.file}:${p.line}: skipped: ${p.reason}`)}\n`);
      ctx.stdout.write(renderAudit(rows, options.format));
    });
};

function date(value: string): Date {
  const parsed = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(parsed.getTime()))
    throw new InvalidArgumentError('expected an ISO 8601 date or time, e.g. 2026-11-01');
  return parsed;
}
