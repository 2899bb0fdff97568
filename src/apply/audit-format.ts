/**
 * The audit table as CSV (RFC 4180, for a spreadsheet or an evidence archive), JSON (for
 * scripts) or markdown (for a pull request, an issue or a CI job summary). Values come
 * from journals, which hold live data: CSV cells that a spreadsheet would run as a formula
 * are quoted with a leading `'`, markdown cells are made inert.
 */
import { escapeMd } from '../plan/markdown-escape.js';
import type { AuditRow } from './audit.js';

export const AUDIT_FORMATS = ['csv', 'json', 'markdown'] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];

/** The columns, in order: the row's field and its heading. */
const COLUMNS: [keyof AuditRow, string][] = [
  ['time', 'time'],
  ['actor', 'actor'],
  ['login', 'login'],
  ['address', 'address'],
  ['action', 'action'],
  ['outcome', 'outcome'],
  ['httpStatus', 'http_status'],
  ['planDigest', 'plan_digest'],
  ['plan', 'plan'],
  ['commit', 'commit'],
  ['dirty', 'dirty'],
  ['ciRun', 'ci_run'],
  ['runId', 'run_id'],
  ['message', 'message'],
  ['journal', 'journal'],
];

export function renderAudit(rows: readonly AuditRow[], format: AuditFormat): string {
  if (format === 'json') return `${JSON.stringify(rows, null, 2)}\n`;
  if (format === 'markdown') return renderMarkdown(rows);
  return renderCsv(rows);
}

function cell(row: AuditRow, key: keyof AuditRow): string {
  const value = row[key];
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function renderCsv(rows: readonly AuditRow[]): string {
  const lines = [COLUMNS.map(([, heading]) => heading).join(',')];
  for (const row of rows) lines.push(COLUMNS.map(([key]) => csvField(cell(row, key))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** One CSV field: quoted when it must be; a leading `= + - @` (a formula to a spreadsheet) kept as text. */
export function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== value ? `"${text.replace(/"/g, '""')}"` : text;
}

function renderMarkdown(rows: readonly AuditRow[]): string {
  if (rows.length === 0) return 'No changes in these journals.\n';
  const shown = COLUMNS.filter(([key]) => key !== 'journal' && key !== 'runId');
  const lines = [
    `| ${shown.map(([, heading]) => heading).join(' | ')} |`,
    `|${shown.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${shown.map(([key]) => escapeMd(cell(row, key)).replace(/\n/g, ' ')).join(' | ')} |`),
  ];
  return `${lines.join('\n')}\n`;
}
