/**
 * `switchboard audit JOURNAL|FOLDER…`: the journals of any number of applies (files, or
 * folders read at any depth such as the `.switchboard/history/` the apply workflow commits)
 * merged into one table, a row per change: when, who (the platform user and how it logged
 * in, the CI actors, the approvers), what (address, action, the fields before → after), with
 * which outcome and HTTP status, from which pull request and plan (its digests), at which
 * commit, in which CI run. Reads files only. Torn or foreign lines are listed on stderr with
 * their file:line, never fatal.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { AUDIT_FORMATS, type AuditFormat } from '../../apply/audit-formats.js';
import { SwitchboardError } from '../../core/errors.js';
import type { CommandRegistrar } from '../program.js';
import { safeText } from '../../core/safe-text.js';

interface AuditOptions {
  format: AuditFormat;
  since?: Date;
  until?: Date;
  address: string[];
  target: string[];
}

const repeatable = (value: string, previous: string[]) => [...previous, value];

export const registerAudit: CommandRegistrar = (program: Command, context) => {
  program
    .command('audit')
    .description('Merge apply journals into one table: who applied which change, from which plan, at which commit')
    .argument('<journal...>', 'journal files written by apply (.jsonl), or folders of them (read at any depth)')
    .addOption(new Option('--format <format>', 'stdout format').choices(AUDIT_FORMATS).default('csv'))
    .option('--since <date>', 'only changes at or after this date or time (ISO 8601, e.g. 2026-11-01)', date)
    .option(
      '--until <date>',
      'only changes before this date or time (ISO 8601; --since 2026-10-01 --until 2026-11-01 is October)',
      date,
    )
    .option(
      '--target <address>',
      'only changes of this address and what it contains, or of addresses starting with a prefix ending in * (as plan --target; repeatable)',
      repeatable,
      [],
    )
    .option(
      '--address <glob>',
      'only changes whose address matches (* any characters, ? one; repeatable)',
      repeatable,
      [],
    )
    .action(async (journals: string[], options: AuditOptions) => {
      const ctx = context();
      if (options.since && options.until && options.until <= options.since)
        throw new SwitchboardError(
          'SB_USAGE',
          `--until (${options.until.toISOString()}) must come after --since (${options.since.toISOString()})`,
        );
      // Loaded here: the other commands start without the journal reader and the renderers.
      const [{ auditJournals }, { renderAudit }] = await Promise.all([
        import('../../apply/audit.js'),
        import('../../apply/audit-format.js'),
      ]);
      const { rows, problems } = await auditJournals(journals, {
        ...(options.since ? { since: options.since } : {}),
        ...(options.until ? { until: options.until } : {}),
        addresses: options.address,
        targets: options.target,
      });
      for (const p of problems)
        process.stderr.write(
          `${safeText(`${p.line > 0 ? `${p.file}:${p.line}` : p.file}: ${p.note ? 'note' : 'skipped'}: ${p.reason}`)}\n`,
        );
      ctx.stdout.write(renderAudit(rows, options.format));
    });
};

function date(value: string): Date {
  const parsed = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(parsed.getTime()))
    throw new InvalidArgumentError('expected an ISO 8601 date or time, e.g. 2026-11-01');
  return parsed;
}
