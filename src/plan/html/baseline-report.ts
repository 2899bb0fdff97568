/**
 * The HTML report's Baseline report (docs/baselines.md): each baseline, the changes its
 * values cause folded per value, and every override of the documents it selects with its
 * reason. It keeps two kinds of difference apart: a change (live differs from git, whether a
 * baseline or a document's own value asks for it) and an override (a document differs from
 * its baseline on purpose, which is no change). Rendered once, in Node; every value escaped.
 */
import { baselineReports, documentsText, lineWords, type LineStyle } from '../baseline-summary.js';
import type { Plan, PlanOverride } from '../types.js';
import { escapeHtml } from './escape.js';

/** Overrides listed per baseline; the JSON plan has them all. */
const OVERRIDES_SHOWN = 2_000;

/** The section, or '' for a plan without baselines. */
export function renderBaselineReport(plan: Pick<Plan, 'baselines' | 'changes'>): string {
  const reports = baselineReports(plan);
  if (reports.length === 0) return '';
  const fromBaselines = new Set(
    plan.changes.filter((c) => Object.values(c.fieldSources ?? {}).some((o) => o.from === 'baseline')),
  );
  const own = plan.changes.length - fromBaselines.size;
  const parts = [
    '<section id="baselines" aria-labelledby="baselines-heading">',
    `<h2 id="baselines-heading">Baseline report <span class="count">(${reports.length})</span></h2>`,
    `<p>${fromBaselines.size} ${fromBaselines.size === 1 ? 'change comes' : 'changes come'} from baseline values; ` +
      `${own} from the documents' own values or from drift (live differs from git). Overrides are no changes: they are ` +
      'where a document differs from its baseline on purpose, each with its reason.</p>',
  ];
  for (const { baseline, lines } of reports) {
    const example = baseline.documentKind;
    const id = `baseline-${slug(baseline.name)}`;
    parts.push(
      `<h3 id="${escapeHtml(id)}">Baseline <code>${escapeHtml(baseline.name)}</code>${baseline.edited ? ' <span class="badge">edited in this change</span>' : ''}</h3>`,
      `<p class="meta">Selects ${escapeHtml(documentsText(baseline.documents, example))} (<code>${escapeHtml(baseline.selector)}</code>); declared at <code>${escapeHtml(baseline.source)}</code>.</p>`,
    );
    parts.push(
      lines.length === 0
        ? '<p>No change of this plan comes from it.</p>'
        : `<ul>\n${lines.map((l) => `<li>${lineWords(l, example, HTML_STYLE)}</li>`).join('\n')}\n</ul>`,
    );
    parts.push(overridesTable(baseline.overrides));
  }
  parts.push('</section>');
  return parts.join('\n');
}

/** The comment's sentence, escaped for HTML, naming every document that keeps its override. */
const HTML_STYLE: LineStyle = {
  code: (s) => `<code>${escapeHtml(s)}</code>`,
  text: escapeHtml,
  keptListed: Number.POSITIVE_INFINITY,
};

function overridesTable(overrides: readonly PlanOverride[]): string {
  if (overrides.length === 0) return '<p>No document overrides it.</p>';
  const rows = overrides
    .slice(0, OVERRIDES_SHOWN)
    .map(
      (o) =>
        `<tr><td><code>${escapeHtml(o.document)}</code></td><td><code>${escapeHtml(o.path)}</code>${o.remove ? ' (left out)' : ''}</td><td>${escapeHtml(o.reason)}</td><td><code>${escapeHtml(o.source)}</code></td></tr>`,
    );
  const more =
    overrides.length > OVERRIDES_SHOWN
      ? `<p>… and ${overrides.length - OVERRIDES_SHOWN} more overrides in the plan file (JSON).</p>`
      : '';
  return `<div class="table-wrap"><table>
<caption>Overrides (${overrides.length}): where a document differs from this baseline, and why</caption>
<thead><tr><th scope="col">document</th><th scope="col">path</th><th scope="col">reason</th><th scope="col">declared at</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table></div>${more}`;
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
}
