/**
 * The plan as one self-contained HTML file (`plan --format html`, `show --format html`),
 * for an auditor and for plans too large for a pull-request comment: every change, grouped
 * by top-level object, subscription and collection, deletes and replaces first, with a
 * filter by action and kind and a text search (html/report-script.ts builds the lists in
 * the browser, lazily; html/report-print.ts builds and opens all of them for a print, and
 * says what a printout leaves out). Nothing is fetched: the style and the script are inline, and the
 * page's Content Security Policy allows those two texts only (by hash) and no connection
 * of any kind. Every value from the plan is escaped here or set as text by the script;
 * the data is the plan file's own content (planDocument: sensitive values and known
 * secrets masked). Pure: plan in, string out; the same plan gives the same bytes.
 */
import { isDigest } from '../core/canonical-json.js';
import { UNSAFE_PATTERN } from '../core/safe-text.js';
import { renderAssurance } from './html/assurance.js';
import { escapeHtml, scriptJson } from './html/escape.js';
import { renderBaselineReport } from './html/baseline-report.js';
import { groupChanges } from './html/groups.js';
import { filterForm, inlineScript, pageHead } from './html/page.js';
import { reportPrint } from './html/report-print.js';
import { reportMain } from './html/report-script.js';
import { visibleIn } from './html/visible.js';
import { REPORT_STYLE } from './html/report-style.js';
import type { SourceLinks } from './html/source-links.js';
import { renderCapacity, renderFacts, renderOptions, type CapacityRow } from './html/sections.js';
import { fieldNamesOf } from './render-common.js';
import { planDocument } from './render-json.js';
import { ACTION_ORDER, changeSetLine, countChanges, policiesFromText, summaryLine, unmanagedLine } from './summary.js';
import type { Plan } from './types.js';

export type { SourceLinks } from './html/source-links.js';

export interface HtmlOptions {
  /** Links from manifest positions to the files at the planned commit (GitHub Actions). */
  sourceLinks?: SourceLinks;
}

const ASSETS = {
  // The report's script, handed the printing part (html/report-print.ts; both are whole functions)
  // and the characters to show escaped.
  script: inlineScript(
    `(${reportMain.toString()})(${reportPrint.toString()}, ` +
      `(${visibleIn.toString()})(${JSON.stringify(UNSAFE_PATTERN)}));`,
    'the report script',
  ),
  style: REPORT_STYLE,
};

/** The plan as an HTML report. Ends with a newline. */
export function renderHtml(plan: Plan, options: HtmlOptions = {}): string {
  const doc = planDocument(plan);
  const fieldOrder: Record<string, string[]> = {};
  for (const kind of new Set(doc.changes.map((c) => c.kind))) {
    const names = fieldNamesOf(kind);
    if (names) fieldOrder[kind] = names;
  }
  const data = {
    plan: { changes: doc.changes, unmanaged: doc.unmanaged, warnings: doc.warnings, errors: doc.errors },
    groups: groupChanges(doc.changes),
    // Fields are listed as the text plan lists them: the kind's field table first.
    fieldOrder,
    links: options.sourceLinks ?? null,
  };
  const counts = countChanges(doc.changes);
  const summary = summaryLine(counts);
  const digest = isDigest(plan.digest) ? plan.digest : undefined;
  const extra = doc as unknown as Record<string, unknown>;
  return `${pageHead(ASSETS, `switchboard plan: ${summary}`)}
<body>
<a class="skip" href="#changes">Skip to the changes</a>
<header>
<h1>switchboard plan</h1>
<p class="summary">${escapeHtml(summary)}</p>
${unmanagedLine(doc.summary.unmanaged) ? `<p class="meta">${escapeHtml(unmanagedLine(doc.summary.unmanaged))}</p>\n` : ''}<p class="meta">Target: <code>${escapeHtml(doc.target.baseUrl)}</code>, instance <code>${escapeHtml(doc.target.instance)}</code>. Made ${escapeHtml(doc.createdAt)} by switchboard ${escapeHtml(doc.tool.version)}.</p>
<p class="meta digest">${digestText(digest)}</p>
${changeSetLine(doc) ? `<p class="meta digest">${escapeHtml(changeSetLine(doc))}.</p>\n` : ''}</header>
<main id="main">
<section aria-labelledby="rails-heading">
<h2 id="rails-heading">Safety rails</h2>
${verdict(doc)}
${renderOptions(doc.options as unknown as Record<string, unknown> | undefined, extra['policy'])}
</section>
${policyChangesSection(doc)}
${messagesSection('refusals', 'Refusals', doc.errors.length, 'errors', 'refusal-list')}
${messagesSection('warnings', 'Warnings', doc.warnings.length, 'warnings', 'warning-list')}
${renderCapacity(capacityRows(extra['capacity']))}
${renderBaselineReport(doc)}
${renderAssurance(doc)}
<section id="changes" aria-labelledby="changes-heading">
<h2 id="changes-heading">Changes <span class="count">(${doc.changes.length})</span></h2>
${doc.changes.length === 0 ? '<p>No changes.</p>' : filters(doc)}
<p id="change-status" role="status" aria-live="polite"></p>
<p id="print-note" class="print-note"></p>
<p id="print-unprepared" class="print-unprepared"></p>
<noscript><p>The list of changes needs JavaScript; the plan file (JSON) holds the same data.</p></noscript>
<div id="change-list"></div>
</section>
${doc.unmanaged.length === 0 ? '' : `<section aria-labelledby="unmanaged-heading">\n<h2 id="unmanaged-heading">Unmanaged objects <span class="count">(${doc.unmanaged.length})</span></h2>\n<p>Live objects in scope that no manifest declares and that are not pruned: left alone.</p>\n<ul id="unmanaged-list"></ul>\n</section>`}
<section aria-labelledby="details-heading">
<h2 id="details-heading">Plan details</h2>
${renderFacts(doc, digest)}
</section>
</main>
<footer>
<p>${digestText(digest)} Made from the plan file by switchboard; this page fetches nothing and works offline.</p>
</footer>
<script type="application/json" id="plan-data">${scriptJson(data)}</script>
<script>${ASSETS.script}</script>
</body>
</html>
`;
}

function digestText(digest: string | undefined): string {
  return digest
    ? `Plan digest: <code>${escapeHtml(digest)}</code>.`
    : 'This plan carries no digest (it was made before plans carried one).';
}

/** The Policy changes of a `--policies-from` plan: each rule the manifests add, remove or edit. */
function policyChangesSection(doc: Plan): string {
  if (!doc.policiesFrom) return '';
  const changes = doc.policyChanges ?? [];
  const judged = `This plan is judged by ${escapeHtml(policiesFromText(doc.policiesFrom))}, not by the manifests' own.`;
  const rows = changes.map(
    (c) =>
      `<tr><td><code>${escapeHtml(c.rule)}</code></td><td>${escapeHtml(c.policy)}</td><td>${c.change}</td><td>${c.effect === 'looser' || c.effect === 'mixed' || c.effect === 'unclear' ? `<strong>${c.effect}</strong>` : c.effect}</td><td>${escapeHtml(c.details.join('; '))}</td></tr>`,
  );
  const table =
    changes.length === 0
      ? '<p>The manifests change no Policy rule.</p>'
      : `<div class="table-wrap"><table>\n<thead><tr><th scope="col">rule</th><th scope="col">policy</th><th scope="col">change</th><th scope="col">effect</th><th scope="col">what</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table></div>`;
  return `<section id="policy-changes" aria-labelledby="policy-changes-heading">
<h2 id="policy-changes-heading">Policy changes <span class="count">(${changes.length})</span></h2>
<p>${judged}</p>
${table}
</section>`;
}

function verdict(doc: Plan): string {
  if (doc.errors.length > 0) {
    const n = doc.errors.length;
    return `<p class="verdict refused">Refused: this plan will not be applied (${n} ${n === 1 ? 'refusal' : 'refusals'}, listed under <a href="#refusals">Refusals</a>).</p>`;
  }
  return '<p class="verdict passed">Passed: no safety rail refused this plan.</p>';
}

function messagesSection(id: string, title: string, count: number, kind: string, listId: string): string {
  if (count === 0) return '';
  return `<section id="${id}" aria-labelledby="${id}-heading">
<h2 id="${id}-heading">${title} <span class="count">(${count})</span></h2>
<ul class="messages ${kind}" id="${listId}"></ul>
</section>`;
}

function filters(doc: Plan): string {
  const actions = countChanges(doc.changes);
  const order = ['delete', 'replace', ...ACTION_ORDER.filter((a) => a !== 'delete' && a !== 'replace')] as const;
  const kinds = new Map<string, number>();
  for (const change of doc.changes) kinds.set(change.kind, (kinds.get(change.kind) ?? 0) + 1);
  return filterForm(
    'Filter the changes',
    [
      {
        legend: 'Action',
        name: 'action',
        choices: order.filter((a) => actions[a] > 0).map((a) => ({ value: a, label: a, count: actions[a] })),
      },
      {
        legend: 'Kind',
        name: 'kind',
        choices: [...kinds].map(([kind, count]) => ({ value: kind, label: kind, count })),
      },
    ],
    'Addresses, ids, kinds, reasons, manifest positions and values; every word must match. Press / to search, Escape to clear.',
  );
}

/** The capacity rows a plan may carry (`capacity.rows`), when they have the agreed shape. */
function capacityRows(capacity: unknown): CapacityRow[] {
  if (typeof capacity !== 'object' || capacity === null) return [];
  const rows = (capacity as { rows?: unknown }).rows;
  return Array.isArray(rows) ? rows.filter((r): r is CapacityRow => typeof r === 'object' && r !== null) : [];
}
