/**
 * The assurance sections of the HTML report (docs/assurance.md): change windows, Emergency
 * coverage, routing vectors whose answer the plan changes or that it will fail. Rendered once, in Node, from the
 * plan file's data; every value escaped.
 */
import type { CoverageList } from '../coverage/types.js';
import { allowsInUse, inUseText, listText, notVerified, noticeText, vectorsSummary } from '../render-assurance.js';
import type { Plan } from '../types.js';
import { escapeHtml } from './escape.js';

const cell = (l: CoverageList): string =>
  l.count === 0
    ? '<td class="num">0</td>'
    : `<td><span class="num">${l.count}</span> ${escapeHtml(listText(l, 10))}</td>`;

/** The three sections, those the plan has. */
export function renderAssurance(doc: Plan): string {
  return [windowsSection(doc), coverageSection(doc), vectorsSection(doc)].filter(Boolean).join('\n');
}

function windowsSection(doc: Plan): string {
  const notices = doc.changeWindows ?? [];
  if (notices.length === 0) return '';
  const items = notices.map((n) => {
    const closed = !n.open || n.frozen !== undefined;
    const first = n.addresses.map((a) => `<code>${escapeHtml(a)}</code>`).join(', ');
    return `<li${closed ? ' class="closed"' : ''}>${closed ? '<strong>' : ''}${escapeHtml(noticeText(n))}${closed ? '</strong>' : ''}${first ? `<br>${first}${n.changes > n.addresses.length ? ', …' : ''}` : ''}</li>`;
  });
  return `<section id="change-windows" aria-labelledby="change-windows-heading">
<h2 id="change-windows-heading">Change windows <span class="count">(${notices.length})</span></h2>
<p>The change windows that cover changes of this plan, at ${escapeHtml(notices[0]?.checkedAt ?? '')}: apply refuses a change outside every window that covers it, unless --emergency-change.</p>
<ul>
${items.join('\n')}
</ul>
</section>`;
}

export function coverageSection(doc: Plan): string {
  const report = doc.coverage;
  if (!report) return '';
  const rows = report.scopes.map((s) => {
    const e = s.effect;
    const unverified = notVerified(s);
    const effect = [
      e.linksAdded.count > 0 ? `links ${e.linksAdded.count}: ${listText(e.linksAdded, 10)}` : '',
      e.linksMoved.count > 0 ? `relinks ${e.linksMoved.count}: ${listText(e.linksMoved, 10)}` : '',
      e.withoutAddressAfter !== s.withoutAddress.count ? `${e.withoutAddressAfter} without an address after` : '',
      ...e.addressesInUse.map((u) => inUseText(u, allowsInUse(doc))),
    ]
      .filter(Boolean)
      .map((t) => escapeHtml(t))
      .join('<br>');
    return `<tr><td><code>${escapeHtml(s.address)}</code></td><td class="num">${s.numbers}</td>${cell(s.withoutAddress)}${cell(unverified)}${cell(s.unusedAddresses)}<td>${effect || '—'}</td></tr>`;
  });
  const table =
    rows.length === 0
      ? '<p>No subscription in scope holds numbers the manifests declare.</p>'
      : `<div class="table-wrap"><table>
<thead><tr><th scope="col">subscription</th><th scope="col">numbers</th><th scope="col">without an address</th><th scope="col">address not verified</th><th scope="col">addresses linked to none</th><th scope="col">this plan</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table></div>`;
  return `<section id="coverage" aria-labelledby="coverage-heading">
<h2 id="coverage-heading">Emergency coverage <span class="count">(${report.scopes.length})</span></h2>
<p>Each number's emergency address, per subscription in scope, as the platform reports it, and what this plan changes about it.</p>
${table}
</section>`;
}

function vectorsSection(doc: Plan): string {
  const tests = doc.routingTests;
  if (!tests) return '';
  const failing = (tests.failing ?? []).map(
    (f) =>
      `<li>✗ will fail: <code>${escapeHtml(f.vector)}</code> (${escapeHtml(f.test)}): <strong>${escapeHtml(f.message)}</strong> <span class="meta">${escapeHtml(f.source)}</span></li>`,
  );
  const failingMore =
    (tests.failingCount ?? 0) > failing.length
      ? `<p>… and ${(tests.failingCount ?? 0) - failing.length} more that will fail in the plan file.</p>`
      : '';
  const items = tests.changed.map(
    (c) =>
      `<li><code>${escapeHtml(c.vector)}</code> (${escapeHtml(c.test)}): ${escapeHtml(c.before)} → <strong>${escapeHtml(c.after)}</strong> <span class="meta">${escapeHtml(c.source)}</span></li>`,
  );
  const more =
    tests.changedCount > tests.changed.length
      ? `<p>… and ${tests.changedCount - tests.changed.length} more in the plan file.</p>`
      : '';
  return `<section id="routing-tests" aria-labelledby="routing-tests-heading">
<h2 id="routing-tests-heading">Routing tests <span class="count">(${tests.changedCount})</span></h2>
<p>${escapeHtml(vectorsSummary(tests, String(tests.vectors)))}.</p>
${failing.length > 0 ? `<ul>\n${failing.join('\n')}\n</ul>` : ''}
${failingMore}
${items.length > 0 ? `<ul>\n${items.join('\n')}\n</ul>` : ''}
${more}
</section>`;
}
