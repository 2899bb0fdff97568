import { VERSION } from '../core/package.js';
import { maskSecrets } from '../core/secrets.js';
import type { NotifyFormat, NotifySummary } from './types.js';

/** The JSON receiver's document version (docs/notifications.md). */
const NOTIFY_FORMAT_VERSION = 1;

/** `auto` resolved from the URL's host: Slack's and Microsoft's incoming webhooks, else generic JSON. */
export function formatFor(format: NotifyFormat, url: string): Exclude<NotifyFormat, 'auto'> {
  if (format !== 'auto') return format;
  const host = new URL(url).hostname.toLowerCase();
  if (host === 'hooks.slack.com') return 'slack';
  const microsoft = ['.webhook.office.com', '.logic.azure.com', '.powerplatform.com', '.powerautomate.com'];
  if (microsoft.some((suffix) => host.endsWith(suffix)) || host === 'outlook.office.com') return 'teams';
  return 'json';
}

/**
 * The body of the POST, as text: the summary for a generic JSON receiver, a Slack message
 * (`text` and Block Kit `blocks`), or a Teams message (an Adaptive Card, which Teams'
 * workflow webhooks and its older connectors both take). Every secret the process knows is
 * masked in the text sent, whatever the format.
 */
export function payloadText(summary: NotifySummary, format: Exclude<NotifyFormat, 'auto'>): string {
  // Masked before the format escapes anything: an escaped secret (`hunter2\-x` in Teams'
  // markdown) would no longer be the text the registry knows. And the text sent once more.
  const masked = JSON.parse(maskSecrets(JSON.stringify(summary))) as NotifySummary;
  const body =
    format === 'slack'
      ? slack(masked)
      : format === 'teams'
        ? teams(masked)
        : { formatVersion: NOTIFY_FORMAT_VERSION, tool: { name: 'switchboard', version: VERSION }, ...masked };
  return maskSecrets(JSON.stringify(body));
}

/** Lines of the message body shared by Slack and Teams, each with its own escaping of live text. */
function lines(s: NotifySummary, escape: (text: string) => string, code: (text: string) => string): string[] {
  const out: string[] = [];
  if (s.changes.length > 0) {
    out.push(s.event === 'apply-failed' ? 'Not applied:' : 'Changes:');
    for (const c of s.changes) out.push(`• ${escape(c.action)} ${code(c.address)} (${escape(c.kind)})`);
    if (s.moreChanges > 0) out.push(`… and ${s.moreChanges} more`);
  }
  if (s.problems.length > 0) {
    out.push(s.event === 'refused' ? 'Refusals:' : 'Failures:');
    for (const p of s.problems)
      out.push(`• ${code(p.code)}${p.address ? ` ${code(p.address)}` : ''}: ${escape(cut(p.message, 300))}`);
    if (s.moreProblems > 0) out.push(`… and ${s.moreProblems} more`);
  }
  return out;
}

function footer(s: NotifySummary, code: (text: string) => string): string {
  const parts = [`exit code ${s.exitCode}`];
  if (s.planDigest) parts.push(`plan digest ${code(s.planDigest)}`);
  return parts.join(' · ');
}

/** Slack's mrkdwn: `&`, `<` and `>` are its only control characters. */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function slack(s: NotifySummary): unknown {
  const code = (text: string) => `\`${slackEscape(text.replace(/`/g, "'"))}\``;
  const body = lines(s, slackEscape, code).join('\n');
  const context = footer(s, code) + (s.runUrl ? ` · <${s.runUrl.replace(/[<>|]/g, '')}|the run>` : '');
  return {
    text: `switchboard: ${s.title}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: cut(`switchboard: ${s.title}`, 150) } },
      ...(body ? [{ type: 'section', text: { type: 'mrkdwn', text: cut(body, 2900) } }] : []),
      { type: 'context', elements: [{ type: 'mrkdwn', text: cut(context, 2900) }] },
    ],
  };
}

/** Teams' markdown: a backslash before every character it could act on. */
function teamsEscape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}

function teams(s: NotifySummary): unknown {
  const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;
  const body = lines(s, teamsEscape, code);
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: `switchboard: ${s.title}`, weight: 'Bolder', size: 'Medium', wrap: true },
            ...(body.length > 0 ? [{ type: 'TextBlock', text: body.join('\n\n'), wrap: true }] : []),
            { type: 'TextBlock', text: footer(s, code), isSubtle: true, wrap: true },
          ],
          ...(s.runUrl ? { actions: [{ type: 'Action.OpenUrl', title: 'Open the run', url: s.runUrl }] } : {}),
        },
      },
    ],
  };
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
