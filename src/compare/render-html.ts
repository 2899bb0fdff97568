/**
 * The comparison as one self-contained HTML file, in the look of the plan's HTML report
 * (its style sheet and escaping, src/plan/html): every object that differs, a filter by
 * type and kind, and a text search. Nothing is fetched: the style and the script are
 * inline, and the page's Content Security Policy allows those two texts only (by hash) and
 * no connection. Values are rendered to text here (sensitive ones as `(sensitive)`) and set
 * as text by the script. Pure: the same comparison gives the same bytes.
 */
import { UNSAFE_PATTERN } from '../core/safe-text.js';
import { escapeHtml, scriptJson } from '../plan/html/escape.js';
import { filterForm, inlineScript, pageHead } from '../plan/html/page.js';
import { REPORT_STYLE } from '../plan/html/report-style.js';
import { visibleIn } from '../plan/html/visible.js';
import { compareMain } from './html/script.js';
import { ignoredLine, NOT_SET, renameText, summaryLine, treeLine, TYPE_WORDS, valueText } from './render-common.js';
import { DIFFERENCE_TYPES, type Comparison, type ObjectDifference } from './types.js';

const ASSETS = {
  script: inlineScript(
    `(${compareMain.toString()})((${visibleIn.toString()})(${JSON.stringify(UNSAFE_PATTERN)}));`,
    'the compare script',
  ),
  style: `${REPORT_STYLE}details.change { margin-left: 0; }\n`,
};

export function renderCompareHtml(c: Comparison): string {
  const data = c.differences.map(entryOf);
  const summary = summaryLine(c);
  const ignored = c.ignored.map((i) => `<li>${escapeHtml(`${ignoredLine(i)}.`)}</li>`).join('\n');
  return `${pageHead(ASSETS, `switchboard compare: ${summary}`)}
<body>
<a class="skip" href="#differences">Skip to the differences</a>
<header>
<h1>switchboard compare</h1>
<p class="summary">${escapeHtml(summary)}</p>
<p class="meta">A: <code>${escapeHtml(treeLine(c.a))}</code>, digest <code>${escapeHtml(c.a.digest)}</code>.</p>
<p class="meta">B: <code>${escapeHtml(treeLine(c.b))}</code>, digest <code>${escapeHtml(c.b.digest)}</code>.</p>
</header>
<main id="main">
${c.ignored.length === 0 ? '' : `<section aria-labelledby="ignored-heading">\n<h2 id="ignored-heading">Ignored fields</h2>\n<ul class="messages warnings">\n${ignored}\n</ul>\n</section>`}
<section id="differences" aria-labelledby="differences-heading">
<h2 id="differences-heading">Differences <span class="count">(${c.differences.length})</span></h2>
${c.differences.length === 0 ? '<p>No differences.</p>' : filters(c)}
<p id="difference-status" role="status" aria-live="polite"></p>
<noscript><p>The list needs JavaScript; <code>switchboard compare --format json</code> gives the same data.</p></noscript>
<div id="difference-list"></div>
</section>
</main>
<footer>
<p>Made by switchboard compare from two manifest trees; this page fetches nothing and works offline.</p>
</footer>
<script type="application/json" id="compare-data">${scriptJson(data)}</script>
<script>${ASSETS.script}</script>
</body>
</html>
`;
}

/** What the script lists for one difference: its values already rendered to text. */
function entryOf(d: ObjectDifference): Record<string, unknown> {
  const side = (text: string) => (text === NOT_SET ? null : text);
  return {
    type: d.type,
    address: d.address,
    kind: d.kind,
    rename: renameText(d),
    fields: d.fields.map((f) => ({ field: f.field, a: side(valueText(f, 'before')), b: side(valueText(f, 'after')) })),
    sourceA: d.sourceA ?? '',
    sourceB: d.sourceB ?? '',
  };
}

function filters(c: Comparison): string {
  const kinds = new Map<string, number>();
  for (const d of c.differences) kinds.set(d.kind, (kinds.get(d.kind) ?? 0) + 1);
  return filterForm(
    'Filter the differences',
    [
      {
        legend: 'Difference',
        name: 'type',
        choices: DIFFERENCE_TYPES.filter((t) => c.summary[t] > 0).map((t) => ({
          value: t,
          label: TYPE_WORDS[t],
          count: c.summary[t],
        })),
      },
      {
        legend: 'Kind',
        name: 'kind',
        choices: [...kinds]
          .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
          .map(([kind, count]) => ({ value: kind, label: kind, count })),
      },
    ],
    'Addresses, kinds, fields, values and manifest positions; every word must match. Press / to search, Escape to clear.',
  );
}
