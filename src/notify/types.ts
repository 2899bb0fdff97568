/**
 * Notifications of a run's outcome to a webhook (docs/notifications.md): what is sent, in
 * which format, and what happened to it.
 */

/** Why a run notifies: a plan found drift, a plan was refused, an apply failed (wholly or partly). */
export const NOTIFY_EVENTS = ['drift', 'refused', 'apply-failed'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/** The receiver's format: a generic JSON receiver, a Slack or a Microsoft Teams incoming webhook. */
export const NOTIFY_FORMATS = ['auto', 'json', 'slack', 'teams'] as const;
export type NotifyFormat = (typeof NOTIFY_FORMATS)[number];

/** Where and when to notify, and how long it may take. */
export interface NotifySettings {
  url: string;
  /** `auto`: Slack for hooks.slack.com, Teams for Microsoft's webhook hosts, else JSON. */
  format: NotifyFormat;
  events: readonly NotifyEvent[];
  /** The most a notification adds to a run, retries included, in ms. */
  timeoutMs: number;
  /** Where the URL came from (`--notify`, `switchboard.config.yaml notify.url`, `SWITCHBOARD_NOTIFY_URL`). */
  source: string;
}

/** The notification's default bound (ms), and the most it may be configured to. */
export const DEFAULT_NOTIFY_TIMEOUT_MS = 5_000;
export const MAX_NOTIFY_TIMEOUT_MS = 10_000;

/** Changes and messages a notification lists at most; the rest are counted. */
export const LISTED = 10;

/** What a notification says: the same for every format (the JSON receiver gets it as it is). */
export interface NotifySummary {
  event: NotifyEvent;
  command: 'plan' | 'apply';
  /** One line: what happened, where. */
  title: string;
  target: { baseUrl: string; instance: string };
  /** The plan's changes by action. */
  counts: { create: number; update: number; replace: number; delete: number };
  /** An apply's outcome. */
  applied?: { applied: number; failed: number; skipped: number };
  /** The first changes of the plan (or, for a failed apply, the failed ones). */
  changes: { action: string; address: string; kind: string }[];
  /** Changes not listed. */
  moreChanges: number;
  /** Refusals of the safety rails, or failures of the apply: the first ones. */
  problems: { code: string; message: string; address?: string }[];
  moreProblems: number;
  planDigest?: string;
  /** The CI run (GitHub Actions, GitLab CI), when there is one. */
  runUrl?: string;
  /** The run's exit code, which the notification never changes. */
  exitCode: number;
}

/** How a notification went. */
export interface NotifyOutcome {
  delivered: boolean;
  attempts: number;
  /** The last answer's status, when there was one. */
  status?: number;
  /** Why it was not delivered. */
  reason?: string;
}
