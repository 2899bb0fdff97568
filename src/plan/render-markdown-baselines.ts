/**
 * The pull-request comment's Baselines section (docs/baselines.md): for each baseline, the
 * changes its values cause folded into one line per value, before the per-object changes,
 * within its own budget so that a fleet-wide edit stays readable at thousands of documents.
 */
import { baselineReports, changeBaselines, documentsText, lineWords, type LineStyle } from './baseline-summary.js';
import { cut, escapeMd } from './markdown-escape.js';
import type { Change, Plan } from './types.js';
import { countText } from '../core/count-text.js';

const SECTION_BUDGET = 12_000;
const LINE_BUDGET = 600;
const KEPT_LISTED = 3;

/** The section, or '' without baselines. */
export function baselinesSection(plan: Pick<Plan, 'baselines' | 'changes'>): string {
  const reports = baselineReports(plan);
  if (reports.length === 0) return '';
  const lines = ['#### Baselines', ''];
  let used = 0;
  let left = 0;
  for (const { baseline, lines: folded, changes } of reports) {
    const example = baseline.documentKind;
    const edited = baseline.edited ? ' (edited in this change)' : '';
    const overrides = baseline.overrides.length;
    const tail =
      changes === 0
        ? 'no change comes from it'
        : `${countText(changes)} ${changes === 1 ? 'change comes' : 'changes come'} from it`;
    const head =
      `**Baseline <code>${escapeMd(cut(baseline.name, 200))}</code>**${edited} selects ` +
      `${documentsText(baseline.documents, example)} (<code>${escapeMd(cut(baseline.selector, 300))}</code>), ` +
      `${countText(overrides)} ${overrides === 1 ? 'override' : 'overrides'}; ${tail}.`;
    const block = [head, ...folded.map((l) => `- ${cut(lineWords(l, example, MARKDOWN_STYLE), LINE_BUDGET)}`)];
    for (const line of block) {
      if (used + line.length + 1 > SECTION_BUDGET) {
        left += 1;
        continue;
      }
      lines.push(line);
      used += line.length + 1;
    }
    lines.push('');
  }
  if (left > 0) lines.push(`_… and ${left} more lines in the HTML report and the JSON artifact_`);
  return lines.join('\n').trimEnd();
}

const MARKDOWN_STYLE: LineStyle = {
  code: (s) => `<code>${escapeMd(cut(s, 300))}</code>`,
  text: (s) => escapeMd(cut(s, 100)),
  keptListed: KEPT_LISTED,
};

/** The line of a change block that says which baseline its values come from, or '' when none. */
export function changeBaselineLine(change: Change): string {
  const { baselines, overrides } = changeBaselines(change);
  const parts: string[] = [];
  if (baselines.length > 0)
    parts.push(`<i>From baseline:</i> ${baselines.map((b) => `<code>${escapeMd(cut(b, 200))}</code>`).join(', ')}`);
  if (overrides.length > 0)
    parts.push(`<i>Override of a baseline:</i> ${overrides.map((o) => escapeMd(cut(o, 300))).join('; ')}`);
  return parts.join('\n\n');
}
