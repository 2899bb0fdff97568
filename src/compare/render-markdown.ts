import { cut, escapeMd } from '../plan/markdown-escape.js';
import { ignoredLine, NOT_SET, renameText, summaryLine, treeLine, TYPE_WORDS, valueText } from './render-common.js';
import type { Comparison, ObjectDifference } from './types.js';

/** Rows a markdown comparison lists at most (a pull-request comment holds 65,536 characters). */
const MARKDOWN_ROWS = 400;
const CELL = 300;

/** The comparison for a pull-request comment or a job summary: one table row per field that differs. */
export function renderCompareMarkdown(c: Comparison): string {
  const lines = [
    '### switchboard compare',
    '',
    `**A** ${escapeMd(cut(treeLine(c.a), CELL))}<br>**B** ${escapeMd(cut(treeLine(c.b), CELL))}`,
    '',
    `**${escapeMd(summaryLine(c))}**`,
    '',
  ];
  for (const i of c.ignored) lines.push(`- ${escapeMd(`Ignored: ${ignoredLine(i)}.`)}`);
  if (c.ignored.length > 0) lines.push('');
  if (c.differences.length === 0) return `${[...lines, 'No differences.'].join('\n')}\n`;
  const rows = c.differences.flatMap(rowsOf);
  lines.push('| | address | kind | field | A | B |', '|---|---|---|---|---|---|', ...rows.slice(0, MARKDOWN_ROWS));
  if (rows.length > MARKDOWN_ROWS)
    lines.push(
      '',
      `… and ${rows.length - MARKDOWN_ROWS} more rows: \`switchboard compare --format html\` or \`--format csv\` lists them all.`,
    );
  return `${lines.join('\n')}\n`;
}

function rowsOf(d: ObjectDifference): string[] {
  const rename = renameText(d);
  const address = `<code>${escapeMd(cut(d.address, CELL))}</code>${rename ? `<br>${escapeMd(cut(rename, CELL))}` : ''}`;
  const lead = `| ${TYPE_WORDS[d.type]} | ${address} | ${escapeMd(d.kind)} |`;
  if (d.fields.length === 0) return [`${lead} | | | |`];
  return d.fields.map((f) => {
    const cell = (side: 'before' | 'after') => {
      const text = valueText(f, side);
      return text === NOT_SET ? '' : `<code>${escapeMd(cut(text, CELL))}</code>`;
    };
    return `${lead} ${escapeMd(f.field)} | ${cell('before')} | ${cell('after')} |`;
  });
}
