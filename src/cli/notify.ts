/**
 * The `--notify` options of `plan` and `apply`, and what the two commands call to notify
 * (docs/notifications.md). A notification never changes the exit code: one that was not
 * delivered is said on stderr, and the run ends as it would have.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { ApplyResult } from '../apply/types.js';
import { RefusedError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
// Light modules only: every command registers these options; the rest loads when a notifier is made.
import { notifySettings, parseEvents, type NotifyOptions } from '../notify/settings.js';
import {
  NOTIFY_EVENTS,
  NOTIFY_FORMATS,
  type NotifyEvent,
  type NotifyOutcome,
  type NotifySettings,
  type NotifySummary,
} from '../notify/types.js';
import type { Plan } from '../plan/types.js';

type NotifyModule = typeof import('../notify/index.js');

/** `--notify URL`, `--notify-format`, `--notify-on`. */
export function addNotifyOptions(command: Command): Command {
  return command
    .option(
      '--notify <url>',
      'POST a summary to this webhook on drift, a refused plan or a failed apply (default: notify.url of the configuration, else SWITCHBOARD_NOTIFY_URL)',
    )
    .addOption(
      new Option('--notify-format <format>', 'the webhook: json, slack, teams, or auto (from its host)').choices(
        NOTIFY_FORMATS,
      ),
    )
    .option(
      '--notify-on <events>',
      `notify on these only, comma-separated: ${NOTIFY_EVENTS.join(', ')} (default: all)`,
      eventsOption,
    );
}

function eventsOption(value: string): NotifyEvent[] {
  const events = parseEvents(value);
  if (!events) throw new InvalidArgumentError(`expected a comma-separated list of ${NOTIFY_EVENTS.join(', ')}`);
  return events;
}

/** Notifies the outcome of one `plan` or `apply`, as its settings ask. */
export class RunNotifier {
  private constructor(
    private readonly settings: NotifySettings,
    private readonly logger: Logger,
    private readonly lib: NotifyModule,
  ) {}

  /** The run's notifier; undefined when no notification is asked for. A wrong setting fails here, before anything is read. */
  static async of(options: NotifyOptions, logger: Logger): Promise<RunNotifier | undefined> {
    const settings = await notifySettings(options);
    // The senders and summaries load only for a run that notifies.
    return settings ? new RunNotifier(settings, logger, await import('../notify/index.js')) : undefined;
  }

  /** After a plan: drift (changes) or a refusal. */
  async afterPlan(plan: Plan, exitCode: number): Promise<void> {
    return this.send(this.lib.planSummary(plan, await this.facts(exitCode)));
  }

  /** After an apply, or an apply refused (no result): a failed or partial apply, or the refusal. */
  async afterApply(plan: Plan, result: ApplyResult | undefined, exitCode: number): Promise<void> {
    return this.send(this.lib.applySummary(plan, result, await this.facts(exitCode)));
  }

  /** After an apply that ended in an error: a saved plan refused (changed, stale, other options). */
  async afterError(error: unknown): Promise<void> {
    if (!(error instanceof RefusedError)) return;
    return this.send(this.lib.refusalSummary(error, await this.facts(error.exitCode)));
  }

  private async facts(exitCode: number): Promise<{ exitCode: number; runUrl?: string }> {
    const { ciRun } = await import('../run/provenance.js');
    const runUrl = ciRun(process.env)?.url;
    return runUrl ? { exitCode, runUrl } : { exitCode };
  }

  private async send(summary: NotifySummary | undefined): Promise<void> {
    if (!summary) return;
    const outcome = await this.lib.notify(this.settings, summary).catch((error: unknown): NotifyOutcome => ({
      delivered: false,
      attempts: 0,
      reason: error instanceof Error ? error.message : String(error),
    }));
    if (!outcome) return;
    const to = `${this.settings.source}, ${new URL(this.settings.url).host}`;
    if (outcome.delivered) {
      this.logger.info({ event: summary.event, attempts: outcome.attempts, status: outcome.status }, 'notified');
      return;
    }
    process.stderr.write(
      `Note: the ${summary.event} notification (${to}) was not delivered: ${outcome.reason}. The run's outcome and exit code are unchanged.\n`,
    );
  }
}
