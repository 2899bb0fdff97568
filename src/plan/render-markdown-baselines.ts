/**
 * The pull-request comment's Baselines section (docs/baselines.md): for each baseline, the
 * changes its values cause folded into one line per value, before the per-object changes,
 * within its own budget so that a fleet-wide edit stays readable at thousands of documents.
 */
import { baselineReports, changeBaselines, documentsText, type BaselineLine } from './baseline-summary.js';
import { cut, escapeMd } from './markdown-escape.js';
import type { Change, Plan } from './types.js';

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
        : `${changes.toLocaleString('en-US')} ${changes === 1 ? 'change comes' : 'changes come'} from it`;
    const head =
      `**Baseline <code>${escapeMd(cut(baseline.name, 200))}</code>**${edited} selects ` +
      `${documentsText(baseline.documents, example)} (<code>${escapeMd(cut(baseline.selector, 300))}</code>), ` +
      `${overrides.toLocaleString('en-US')} ${overrides === 1 ? 'override' : 'overrides'}; ${tail}.`;
    const block = [head, ...folded.map((l) => `- ${cut(lineText(l, example), LINE_BUDGET)}`)];
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

function lineText(line: BaselineLine, example: string): string {
  const who = documentsText(line.documents, example);
  const path = `<code>${escapeMd(cut(line.path, 300))}</code>`;
  let text: string;
  if (line.type === 'create') text = `${who} get ${path}`;
  else {
    const before =
      line.before && 'value' in line.before ? `<code>${escapeMd(cut(line.before.value, 100))}</code> → ` : '→ ';
    const several = line.before && 'several' in line.before ? ` (from ${line.before.several} different values)` : '';
    text = `${who} change ${path} ${before}<code>${escapeMd(cut(line.after ?? '', 100))}</code>${several}`;
  }
  if (line.kept.length > 0) {
    const named = line.kept
      .slice(0, KEPT_LISTED)
      .map(
        (k) => `${escapeMd(cut(k.document.slice(k.document.indexOf('/') + 1), 100))}: ${escapeMd(cut(k.reason, 100))}`,
      );
    const more = line.kept.length > KEPT_LISTED ? ', …' : '';
    const verb = line.kept.length === 1 ? 'keeps its' : 'keep their';
    text += `; ${documentsText(line.kept.length, example)} ${verb} override (${named.join(', ')}${more})`;
  }
  return text;
}

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
