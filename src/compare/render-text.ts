import { safeText } from '../plan/render-common.js';
import { ignoredLine, renameText, summaryLine, treeLine, valueText } from './render-common.js';
import type { Comparison, DifferenceType, ObjectDifference } from './types.js';

const SYMBOL: Record<DifferenceType, string> = { added: '+', removed: '-', renamed: '~', changed: '~' };

/** The comparison for a terminal or a log: one block per object that differs, then what was ignored and the counts. */
export function renderCompareText(c: Comparison): string {
  const lines = [`Comparing A: ${treeLine(c.a)}`, `     with B: ${treeLine(c.b)}`, ''];
  if (c.differences.length === 0) lines.push('No differences.', '');
  for (const d of c.differences) lines.push(...objectLines(d), '');
  for (const i of c.ignored) lines.push(`Ignored: ${ignoredLine(i)}.`);
  lines.push(`Compare: ${summaryLine(c)}`);
  return `${lines.join('\n')}\n`;
}

function objectLines(d: ObjectDifference): string[] {
  const rename = renameText(d);
  const head = `  ${SYMBOL[d.type]} ${safeText(d.address)} (${safeText(d.kind)}${rename ? `, ${rename}` : ''})`;
  const fields = d.fields.map((f) => {
    const name = safeText(f.field);
    if (d.type === 'added') return `      + ${name} = ${valueText(f, 'after')}`;
    if (d.type === 'removed') return `      - ${name} = ${valueText(f, 'before')}`;
    const note = f.sensitive ? ' (values differ)' : '';
    return `      ${name}: ${valueText(f, 'before')} → ${valueText(f, 'after')}${note}`;
  });
  return [head, ...fields];
}
