import { csvField } from '../apply/audit-format.js';
import { NOT_SET, valueText } from './render-common.js';
import type { Comparison, ObjectDifference } from './types.js';

const COLUMNS = [
  'type',
  'address',
  'previous_address',
  'renamed_by',
  'kind',
  'field',
  'a',
  'b',
  'source_a',
  'source_b',
];

/**
 * The comparison as CSV (RFC 4180, CRLF): one row per field that differs, and one row with
 * an empty field for an object that differs in nothing else (a rename). Values are
 * canonical JSON (`"T-ACME"`, `5`, `null`); an empty cell is a side that does not declare
 * the field. A cell a spreadsheet would run as a formula starts with `'`.
 */
export function renderCompareCsv(c: Comparison): string {
  const lines = [COLUMNS.join(',')];
  for (const d of c.differences) for (const row of rowsOf(d)) lines.push(row.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function rowsOf(d: ObjectDifference): string[][] {
  const lead = [d.type, d.address, d.previousAddress ?? '', d.renamedBy ?? '', d.kind];
  const tail = [d.sourceA ?? '', d.sourceB ?? ''];
  if (d.fields.length === 0) return [[...lead, '', '', '', ...tail]];
  const cell = (text: string) => (text === NOT_SET ? '' : text);
  return d.fields.map((f) => [...lead, f.field, cell(valueText(f, 'before')), cell(valueText(f, 'after')), ...tail]);
}
