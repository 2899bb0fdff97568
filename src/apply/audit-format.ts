/**
 * The audit table as CSV (RFC 4180, for a spreadsheet or an evidence archive), JSON (for
 * scripts) or markdown (for a pull request, an issue or a CI job summary). Values come
 * from journals, which hold live data: CSV cells that a spreadsheet would run as a formula
 * are quoted with a leading `'`, markdown cells are made inert, and only the addresses the
 * table builds itself (the CI run, the pull request) are links, when they are plain https
 * addresses.
 */
import { escapeMd } from '../plan/markdown-escape.js';
import { compact, safeText } from '../plan/render-common.js';
import type { AuditRow } from './audit.js';
import type { AuditFormat } from './audit-formats.js';
import type { FieldChange } from './journal.js';

type Cell = (row: AuditRow) => string;

/**
 * The CSV columns, in order: heading and cell. The first seven are where they always were
 * (scripts cut them by position); a change's fields share one cell, separated by `; `, so
 * that every row stays one line.
 */
const COLUMNS: [string, Cell][] = [
  ['time', (r) => r.time],
  ['actor', (r) => r.actor],
  ['login', (r) => r.login],
  ['address', (r) => r.address],
  ['action', (r) => r.action],
  ['outcome', (r) => r.outcome],
  ['http_status', (r) => (r.httpStatus === null ? '' : String(r.httpStatus))],
  ['fields', (r) => fieldsText(r.fields).join('; ')],
  ['kind', (r) => r.kind],
  ['previous_address', (r) => r.previousAddress],
  ['plan_digest', (r) => r.planDigest],
  ['change_set_digest', (r) => r.changeSetDigest],
  ['reviewed_change_set', (r) => r.reviewedChangeSet],
  ['pull_request', (r) => r.pullRequestUrl || (r.pullRequest === null ? '' : `#${r.pullRequest}`)],
  ['ci_actor', (r) => r.ciActor],
  ['triggering_actor', (r) => r.triggeringActor],
  ['approved_by', (r) => r.approvedBy.join(', ')],
  ['plan', (r) => r.plan],
  ['commit', (r) => r.commit],
  ['dirty', (r) => (r.dirty === null ? '' : r.dirty ? 'yes' : 'no')],
  ['ci_run', (r) => r.ciRun],
  ['run_id', (r) => r.runId],
  ['emergency_change', (r) => r.emergencyChange],
  ['message', (r) => r.message],
  ['journal', (r) => r.journal],
];

/** The markdown columns: what a reader of a job summary or an issue needs, links where they help. */
const MARKDOWN_COLUMNS: [string, (row: AuditRow) => string][] = [
  ['time', (r) => escapeMd(r.time)],
  ['address', (r) => escapeMd(r.previousAddress ? `${r.address} (was ${r.previousAddress})` : r.address)],
  ['action', (r) => escapeMd(r.action)],
  ['outcome', (r) => escapeMd(r.outcome)],
  ['fields', (r) => fieldsText(r.fields).map(escapeMd).join('<br>')],
  ['actor', (r) => escapeMd(r.login ? `${r.actor} (${r.login})` : r.actor)],
  ['ci_actor', (r) => escapeMd(r.ciActor)],
  ['triggering_actor', (r) => escapeMd(r.triggeringActor)],
  ['approved_by', (r) => escapeMd(r.approvedBy.join(', '))],
  // A number (the reader checked it): `#7` is the pull request's own reference on GitHub.
  ['pull_request', (r) => (r.pullRequest === null ? '' : link(`#${r.pullRequest}`, r.pullRequestUrl, false))],
  ['plan_digest', (r) => escapeMd(r.planDigest)],
  ['change_set_digest', (r) => escapeMd(r.changeSetDigest)],
  ['commit', (r) => escapeMd(r.commit)],
  ['ci_run', (r) => link(r.ciRun, r.ciRun)],
  ['emergency_change', (r) => escapeMd(r.emergencyChange)],
  ['message', (r) => escapeMd(r.message)],
];

export function renderAudit(rows: readonly AuditRow[], format: AuditFormat): string {
  if (format === 'json') return `${JSON.stringify(rows, null, 2)}\n`;
  if (format === 'markdown') return renderMarkdown(rows);
  return renderCsv(rows);
}

/**
 * A change's fields as lines: `markup: 4 → 5`, `(absent)` on the side where the field is
 * not (a field a create sets, one a delete removes). Values print as the plan prints them
 * (compact JSON, the plan's markers bare); '' when the journal did not record the fields.
 */
export function fieldsText(fields: readonly FieldChange[] | null): string[] {
  if (fields === null) return [];
  const side = (f: FieldChange, key: 'before' | 'after') => (Object.hasOwn(f, key) ? compact(f[key]) : '(absent)');
  return fields.map((f) => `${safeText(f.field)}: ${side(f, 'before')} → ${side(f, 'after')}`);
}

function renderCsv(rows: readonly AuditRow[]): string {
  const lines = [COLUMNS.map(([heading]) => heading).join(',')];
  for (const row of rows) lines.push(COLUMNS.map(([, cell]) => csvField(cell(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** One CSV field: quoted when it must be; a leading `= + - @` (a formula to a spreadsheet) kept as text. */
export function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== value ? `"${text.replace(/"/g, '""')}"` : text;
}

function renderMarkdown(rows: readonly AuditRow[]): string {
  if (rows.length === 0) return 'No changes in these journals.\n';
  const lines = [
    `| ${MARKDOWN_COLUMNS.map(([heading]) => heading).join(' | ')} |`,
    `|${MARKDOWN_COLUMNS.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${MARKDOWN_COLUMNS.map(([, cell]) => cell(row).replace(/\n/g, ' ')).join(' | ')} |`),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * An https address made of characters that cannot end a link or a table cell (a CI run's,
 * a pull request's); anything else is shown as inert text.
 */
const PLAIN_URL = /^https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~%/-]*)?$/;

/** `[text](url)` when `url` is a plain https address, else `text`; made inert unless `escape` is false (trusted text). */
function link(text: string, url: string, escape = true): string {
  const shown = escape ? escapeMd(text) : text;
  return PLAIN_URL.test(url) ? `[${shown}](${url})` : shown;
}
