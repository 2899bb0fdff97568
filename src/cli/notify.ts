/**
 * The `--notify` options of `plan` and `apply`, and what the two commands call to notify
 * (docs/notifications.md). A notification never changes the exit code: one that was not
 * delivered is said on stderr, and the run ends as it would have.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { ApplyResult } from '../apply/types.js';
import { RefusedError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import {
  applySummary,
  NOTIFY_EVENTS,
  NOTIFY_FORMATS,
  notify,
  notifySettings,
  parseEvents,
  planSummary,
  refusalSummary,
  type NotifyEvent,
  type NotifyOptions,
  type NotifyOutcome,
  type NotifySettings,
  type NotifySummary,
} from '../notify/index.js';
import type { Plan } from '../plan/types.js';
import { ciRun } from '../run/index.js';

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
  ) {}

  /** The run's notifier; undefined when no notification is asked for. A wrong setting fails here, before anything is read. */
  static async of(options: NotifyOptions, logger: Logger): Promise<RunNotifier | undefined> {
    const settings = await notifySettings(options);
    return settings ? new RunNotifier(settings, logger) : undefined;
  }

  /** After a plan: drift (changes) or a refusal. */
  afterPlan(plan: Plan, exitCode: number): Promise<void> {
    return this.send(planSummary(plan, this.facts(exitCode)));
  }

  /** After an apply, or an apply refused (no result): a failed or partial apply, or the refusal. */
  afterApply(plan: Plan, result: ApplyResult | undefined, exitCode: number): Promise<void> {
    return this.send(applySummary(plan, result, this.facts(exitCode)));
  }

  /** After an apply that ended in an error: a saved plan refused (changed, stale, other options). */
  afterError(error: unknown): Promise<void> {
    if (!(error instanceof RefusedError)) return Promise.resolve();
    return this.send(refusalSummary(error, this.facts(error.exitCode)));
  }

  private facts(exitCode: number): { exitCode: number; runUrl?: string } {
    const runUrl = ciRun(process.env)?.url;
    return runUrl ? { exitCode, runUrl } : { exitCode };
  }

  private async send(summary: NotifySummary | undefined): Promise<void> {
    if (!summary) return;
    const outcome = await notify(this.settings, summary).catch((error: unknown): NotifyOutcome => ({
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
