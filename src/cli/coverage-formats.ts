/**
 * `switchboard coverage`'s formats (docs/assurance.md): the Emergency coverage section as
 * text, markdown, JSON, CSV (a row per finding, for a spreadsheet or a regulator) or a
 * self-contained HTML page in the plan report's style. Pure.
 */
import { csvField } from '../apply/audit-format.js';
import { coverageSection } from '../plan/html/assurance.js';
import { escapeHtml } from '../plan/html/escape.js';
import { pageHead } from '../plan/html/page.js';
import { REPORT_STYLE } from '../plan/html/report-style.js';
import { assuranceMarkdown, assuranceText, notVerified } from '../plan/render-assurance.js';
import type { Plan } from '../plan/types.js';
import type { CoverageReport } from '../plan/coverage/types.js';

import type { CoverageFormat } from './coverage-format-names.js';

/** The coverage as `format`; ends with a newline. */
export function renderCoverage(report: CoverageReport, format: CoverageFormat): string {
  const plan = { coverage: report } as Plan;
  switch (format) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'csv':
      return coverageCsv(report);
    case 'markdown':
      return `${assuranceMarkdown(plan, Number.POSITIVE_INFINITY).join('\n\n')}\n`;
    case 'html':
      return coverageHtml(plan);
    case 'text':
      return `${assuranceText(plan, (_style, s) => s)
        .join('\n')
        .replace(/\n+$/, '')}\n${totalsLine(report)}\n`;
  }
}

/** `10 numbers in 1 subscription: 6 without an address, 0 not verified, 3 addresses linked to none.` */
function totalsLine(report: CoverageReport): string {
  const sum = (f: (s: CoverageReport['scopes'][number]) => number) => report.scopes.reduce((n, s) => n + f(s), 0);
  const subs = report.scopes.length;
  const unused = sum((s) => s.unusedAddresses.count);
  return (
    `Coverage: ${sum((s) => s.numbers)} numbers in ${subs} ${subs === 1 ? 'subscription' : 'subscriptions'}: ` +
    `${sum((s) => s.withoutAddress.count)} without an address, ` +
    `${sum((s) => notVerified(s).count)} not verified, ` +
    `${unused} ${unused === 1 ? 'address' : 'addresses'} linked to none.`
  );
}

const FINDINGS = [
  ['withoutAddress', 'number', 'without an address'],
  ['unverified', 'number', 'address not verified'],
  ['verificationUnknown', 'number', 'verification not stated'],
  ['unusedAddresses', 'address', 'linked to no number'],
] as const;

/** One row per number or address with a finding (RFC 4180, formula-like cells kept as text). */
function coverageCsv(report: CoverageReport): string {
  const lines = ['subscription,object,item,finding'];
  for (const scope of report.scopes)
    for (const [list, object, finding] of FINDINGS)
      for (const item of scope[list].items) lines.push([scope.address, object, item, finding].map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function coverageHtml(plan: Plan): string {
  const report = plan.coverage as CoverageReport;
  return `${pageHead({ style: REPORT_STYLE }, 'switchboard coverage')}
<body>
<header>
<h1>switchboard coverage</h1>
<p class="summary">${escapeHtml(totalsLine(report))}</p>
</header>
<main id="main">
${coverageSection(plan)}
</main>
</body>
</html>
`;
}
