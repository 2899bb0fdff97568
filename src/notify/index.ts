/**
 * Notifications of a run's outcome to a webhook (docs/notifications.md): drift found by a
 * plan, a refused plan, a failed or partial apply, as a summary POSTed to a generic JSON
 * receiver, a Slack or a Microsoft Teams incoming webhook, within a bound of a few seconds.
 */
import { formatFor, payloadText } from './payload.js';
import { postWithin } from './send.js';
import type { NotifyOutcome, NotifySettings, NotifySummary } from './types.js';

export { formatFor, payloadText } from './payload.js';
export { postWithin } from './send.js';
export { notifySettings, type NotifyOptions } from './settings.js';
export { applySummary, planSummary, refusalSummary, type RunFacts } from './summary.js';
export * from './types.js';

/**
 * Sends the summary when its event is one the settings ask for; undefined when it is not.
 * Never throws and never takes longer than `settings.timeoutMs`.
 */
export async function notify(settings: NotifySettings, summary: NotifySummary): Promise<NotifyOutcome | undefined> {
  if (!settings.events.includes(summary.event)) return undefined;
  const text = payloadText(summary, formatFor(settings.format, settings.url));
  return postWithin(settings.url, text, { timeoutMs: settings.timeoutMs });
}
