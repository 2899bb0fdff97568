/**
 * The parts of the HTML report rendered once, in Node (small whatever the plan's size):
 * the options and policy overrides under the safety rails, the capacity pre-flight's rows,
 * and the plan's details. Fields the report does not know are shown too, generically, so a
 * field added to the plan data appears without a change here. Every value is escaped.
 */
import { PLAN_KEYS } from '../render-json.js';
import { escapeHtml } from './escape.js';
import type { Plan } from '../types.js';

/** One row of the capacity pre-flight (an entitlement or licence of a touched subscription). */
export interface CapacityRow {
  address: string;
  subject: string;
  declared: number | null;
  assigned: number;
  reserved: number;
  headroom: number | null;
  warning?: string;
  [field: string]: unknown;
}

/** The command-line flag of each recorded option. */
const OPTION_FLAGS: Record<string, string> = {
  target: '--target',
  exclude: '--exclude',
  prune: '--prune',
  allowReplace: '--allow-replace',
  maxDeletePercent: '--max-delete-percent',
  allowPolicy: '--allow-policy',
  maxUpdatePercent: '--max-update-percent',
};

const CAPACITY_COLUMNS = ['address', 'subject', 'declared', 'assigned', 'reserved', 'headroom', 'warning'];
/** Top-level fields shown in their own places; any other one is listed with the plan's details. */
const PLAN_FIELDS: ReadonlySet<string> = new Set([...PLAN_KEYS, 'digest', 'policy', 'capacity', 'baselines']);

/** A value for display: text as it is, lists joined, anything else as compact JSON. */
function display(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return value.length ? value.join(', ') : 'none';
  return JSON.stringify(value) ?? '';
}

function facts(rows: [string, string][]): string {
  const items = rows.map(([term, html]) => `<dt>${escapeHtml(term)}</dt><dd>${html}</dd>`);
  return `<dl class="facts">\n${items.join('\n')}\n</dl>`;
}

const code = (value: unknown): string => `<code>${escapeHtml(display(value))}</code>`;

/** The options the plan was made with, and the policy rules it overrides. */
export function renderOptions(options: Record<string, unknown> | undefined, policy: unknown): string {
  const rows: [string, string][] = [];
  if (options) {
    for (const [key, value] of Object.entries(options)) {
      if (value !== undefined) rows.push([OPTION_FLAGS[key] ?? key, code(value)]);
    }
  } else rows.push(['Options', 'not recorded (a plan file made before they were)']);
  if (typeof policy === 'object' && policy !== null) {
    for (const [key, value] of Object.entries(policy as Record<string, unknown>)) {
      const term = key === 'overrides' ? 'Policy rules overridden (--allow-policy)' : `Policy ${key}`;
      rows.push([term, code(value)]);
    }
  }
  return `<p>What the rails were set to when the plan was made:</p>\n${facts(rows)}`;
}

/** The capacity pre-flight's table (none when the plan has no rows). */
export function renderCapacity(rows: readonly CapacityRow[]): string {
  if (rows.length === 0) return '';
  const extra = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => !CAPACITY_COLUMNS.includes(k));
  const columns = [...CAPACITY_COLUMNS, ...extra];
  const head = columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
  const body = rows.map((row) => {
    const cells = columns.map((c) => {
      const value = row[c];
      if (typeof value === 'number') return `<td class="num">${value}</td>`;
      if (value === null) return '<td>—</td>';
      if (value === undefined) return '<td></td>';
      return c === 'address' ? `<td>${code(value)}</td>` : `<td>${escapeHtml(display(value))}</td>`;
    });
    const short = typeof row.headroom === 'number' && row.headroom < 0;
    return `<tr${short ? ' class="negative"' : ''}>${cells.join('')}</tr>`;
  });
  return `<section id="capacity" aria-labelledby="capacity-heading">
<h2 id="capacity-heading">Capacity <span class="count">(${rows.length})</span></h2>
<div class="table-wrap"><table>
<thead><tr>${head}</tr></thead>
<tbody>
${body.join('\n')}
</tbody>
</table></div>
</section>`;
}

/** Where and when the plan was made, from which manifests, and its digest. */
export function renderFacts(doc: Plan, digest: string | undefined): string {
  const rows: [string, string][] = [
    ['Created', escapeHtml(doc.createdAt)],
    ['Made by', `switchboard ${escapeHtml(doc.tool.version)}`],
    ['Platform API', code(doc.target.baseUrl)],
    ['Instance', code(doc.target.instance)],
  ];
  if (doc.target.routingEngine) rows.push(['Routing engine', code(doc.target.routingEngine)]);
  rows.push(['Manifests digest', code(doc.manifests.digest)]);
  const files = doc.manifests.files.map((f) => `<li><code>${escapeHtml(f)}</code></li>`).join('');
  rows.push([`Manifest files (${doc.manifests.files.length})`, files ? `<ul>${files}</ul>` : 'none']);
  rows.push(['Unchanged objects', String(doc.summary.noop)]);
  for (const [key, value] of Object.entries(doc as unknown as Record<string, unknown>)) {
    if (!PLAN_FIELDS.has(key) && value !== undefined) rows.push([key, code(value)]);
  }
  rows.push(['Plan digest', digest ? code(digest) : 'none']);
  return facts(rows);
}
