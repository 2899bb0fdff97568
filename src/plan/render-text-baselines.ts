/**
 * The terminal plan's Baselines section (docs/baselines.md): before the per-object changes,
 * each baseline that has a part in the plan, with the changes its values cause folded into
 * one line per value, the sentence the pull-request comment writes.
 */
import { safeText } from '../core/safe-text.js';
import { baselineReports, documentsText, lineWords, type LineStyle } from './baseline-summary.js';
import { cut } from './markdown-escape.js';
import type { Plan } from './types.js';
import { countText } from '../core/count-text.js';

/** Folded lines shown per baseline; the HTML report and the JSON plan have them all. */
const LINES_SHOWN = 10;

const TEXT_STYLE: LineStyle = {
  code: (s) => safeText(cut(s, 300)),
  text: (s) => safeText(cut(s, 100)),
  keptListed: 3,
};

/** The section's lines (ending with an empty one), or none when no baseline has a part in the plan. */
export function baselineTextLines(plan: Pick<Plan, 'baselines' | 'changes'>): string[] {
  const reports = baselineReports(plan).filter((r) => r.lines.length > 0 || r.baseline.edited);
  if (reports.length === 0) return [];
  const out = ['Baselines:'];
  for (const { baseline, lines, changes } of reports) {
    const kind = baseline.documentKind;
    const edited = baseline.edited ? ' (edited in this change)' : '';
    const overrides = baseline.overrides.length;
    out.push(
      `  baseline ${safeText(cut(baseline.name, 200))}${edited}: selects ${documentsText(baseline.documents, kind)} ` +
        `(${safeText(cut(baseline.selector, 300))}), ${countText(overrides)} ` +
        `${overrides === 1 ? 'override' : 'overrides'}; ${countText(changes)} ` +
        `${changes === 1 ? 'change comes' : 'changes come'} from it`,
    );
    for (const line of lines.slice(0, LINES_SHOWN)) out.push(`    ${lineWords(line, kind, TEXT_STYLE)}`);
    if (lines.length > LINES_SHOWN) out.push(`    … and ${lines.length - LINES_SHOWN} more (plan --format html)`);
  }
  out.push('');
  return out;
}
