/**
 * The human plan (docs/plans.md), Terraform-like: refusals and warnings first,
 * one block per change, the closing summary line. Pure: plan in, string out.
 */
import {
  FORCES_REPLACEMENT,
  CAPACITY_COLUMNS,
  capacityFigures,
  capacityGroups,
  fieldLines,
  foldCollections,
  formerName,
  formatByAction,
  redactChange,
  safeText,
  type FieldLine,
  type RenderItem,
} from './render-common.js';
import { baselineTextLines } from './render-text-baselines.js';
import { assuranceText } from './render-assurance.js';
import { changeSetLine, countChanges, digestLine, policiesFromText, summaryLine, unmanagedLine } from './summary.js';
import type { CapacityRow, Change, Plan, PlanMessage, PolicyChange } from './types.js';

export interface TextOptions {
  /** ANSI colours (on a TTY only; the CLI decides). */
  color: boolean;
  /** Fold a collection (same kind, same parent address) with more changes than this. Default 20. */
  maxRowsPerCollection?: number;
}

/** How many changes of a folded collection are still listed. */
const FOLDED_SHOWN = 10;
const DEFAULT_MAX_ROWS = 20;

const MARKERS: Record<Change['action'], string> = { create: '  +', update: '  ~', delete: '  -', replace: '-/+' };

type Style = 'green' | 'yellow' | 'red' | 'magenta' | 'bold' | 'dim';
const ANSI: Record<Style, string> = {
  green: '\u001b[32m',
  yellow: '\u001b[33m',
  red: '\u001b[31m',
  magenta: '\u001b[35m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
};
const ACTION_STYLE: Record<Change['action'], Style> = {
  create: 'green',
  update: 'yellow',
  delete: 'red',
  replace: 'magenta',
};

type Paint = (style: Style, s: string) => string;

/** The plan as text for a terminal or a CI log. Ends with a newline. */
export function renderText(plan: Plan, options: TextOptions): string {
  const paint: Paint = options.color ? (style, s) => `${ANSI[style]}${s}\u001b[0m` : (_style, s) => s;
  const maxRows = Math.max(1, Math.floor(options.maxRowsPerCollection ?? DEFAULT_MAX_ROWS));
  const shown = Math.min(FOLDED_SHOWN, maxRows);
  const out: string[] = [];
  if (plan.errors.length > 0) {
    out.push(paint('red', paint('bold', 'Refused: this plan will not be applied.')));
    for (const m of plan.errors) out.push(paint('red', `  ✗ ${formatMessage(m)}`));
    out.push('');
  }
  if (plan.warnings.length > 0) {
    out.push(paint('yellow', paint('bold', 'Warnings:')));
    for (const m of plan.warnings) out.push(paint('yellow', `  ! ${formatMessage(m)}`));
    out.push('');
  }
  if (plan.policy && plan.policy.overrides.length > 0) {
    const ids = plan.policy.overrides.map(safeText).join(', ');
    out.push(paint('yellow', `Policy rules overridden for this plan (--allow-policy): ${ids}`), '');
  }
  if (plan.policiesFrom) out.push(...renderPolicyChanges(plan, paint), '');
  out.push(...baselineTextLines(plan));
  if (plan.changes.length > 0) {
    out.push('switchboard will perform the following actions:', '');
    for (const item of foldCollections(plan.changes, maxRows, shown)) out.push(...renderItem(item, paint), '');
  }
  if (plan.capacity && plan.capacity.rows.length > 0) out.push(...renderCapacity(plan.capacity.rows, paint), '');
  out.push(...assuranceText(plan, paint));
  out.push(summaryLine(countChanges(plan.changes)));
  const unmanaged = unmanagedLine(plan.summary.unmanaged);
  if (unmanaged) out.push(unmanaged);
  const digest = digestLine(plan);
  if (digest) out.push(paint('dim', digest));
  const changeSet = changeSetLine(plan);
  if (changeSet) out.push(paint('dim', changeSet));
  return `${out.join('\n')}\n`;
}

const EFFECT_MARKS: Record<PolicyChange['effect'], string> = {
  looser: '!',
  mixed: '!',
  unclear: '?',
  stricter: '+',
  neutral: ' ',
};

/** The Policy changes section of a `--policies-from` plan: one line per rule that differs. */
function renderPolicyChanges(plan: Plan, paint: Paint): string[] {
  const from = policiesFromText(plan.policiesFrom as NonNullable<Plan['policiesFrom']>);
  const changes = plan.policyChanges ?? [];
  if (changes.length === 0) return [`Policies: judged by ${safeText(from)}; the manifests change none of them.`];
  const lines = [paint('bold', `Policy changes (this plan is judged by ${safeText(from)}, not by these):`)];
  for (const c of changes) {
    const head = `  ${EFFECT_MARKS[c.effect]} ${c.effect.padEnd(8)} ${safeText(c.rule)} (${safeText(c.policy)}): ${c.change}`;
    const where = c.source ? ` (at ${safeText(c.source)})` : '';
    const line = `${head}: ${c.details.map(safeText).join('; ')}${where}`;
    lines.push(c.effect === 'stricter' || c.effect === 'neutral' ? line : paint('yellow', line));
  }
  return lines;
}

/** `SB_CODE address: message (role: name) (rule id, file:line:col)` for one refusal or warning. */
function formatMessage(m: PlanMessage): string {
  const where = m.address ? ` ${safeText(m.address)}:` : ':';
  const role = m.role ? ` (role: ${safeText(m.role)})` : '';
  const origin = [m.rule ? `rule ${safeText(m.rule)}` : '', m.source ? `at ${safeText(m.source)}` : ''].filter(Boolean);
  return `${safeText(m.code)}${where} ${safeText(m.message)}${role}${origin.length > 0 ? ` (${origin.join(', ')})` : ''}`;
}

/**
 * The Capacity section: per touched object, one line per capacity with its figures in
 * aligned columns, and the low-headroom warning after the line.
 */
function renderCapacity(rows: readonly CapacityRow[], paint: Paint): string[] {
  const cells = rows.map((row) => ({
    row,
    subject: safeText(row.subject),
    figures: capacityFigures(row).map((v, i) => (v === undefined ? '' : `${CAPACITY_COLUMNS[i]} ${v}`)),
  }));
  const subjectWidth = Math.max(...cells.map((c) => c.subject.length));
  const widths = CAPACITY_COLUMNS.map((_, i) => Math.max(...cells.map((c) => c.figures[i]?.length ?? 0)));
  const lines = ['Capacity (what the plan leaves, against what the platform reports):'];
  // A group's rows are in the order of `rows`: their cells by row, not a scan of every cell
  // per group (2,000 groups of a new estate made that 4,000,000 steps).
  const cellOf = new Map(cells.map((c) => [c.row, c]));
  for (const group of capacityGroups(rows)) {
    lines.push(`  ${safeText(group.scope)}`);
    for (const { row, subject, figures } of group.rows.map((r) => cellOf.get(r) as (typeof cells)[number])) {
      const columns = figures.map((f, i) => f.padEnd(widths[i] ?? 0)).filter((_, i) => (widths[i] ?? 0) > 0);
      const line = `      ${[subject.padEnd(subjectWidth), ...columns].join('  ')}`.trimEnd();
      lines.push(row.warning ? paint('yellow', `${line}  ! ${safeText(row.warning)}`) : line);
    }
  }
  return lines;
}

function renderItem(item: RenderItem, paint: Paint): string[] {
  if (item.type === 'more') {
    const counts = formatByAction(item.byAction);
    return [paint('dim', `  … and ${item.hidden} more ${safeText(item.kind)} changes (${counts}) — see the JSON plan`)];
  }
  return renderChange(redactChange(item.change), paint);
}

function renderChange(change: Change, paint: Paint): string[] {
  const style = ACTION_STYLE[change.action];
  const id = change.id === undefined ? '' : `, id ${safeText(change.id)}`;
  const head = `${MARKERS[change.action]} ${safeText(change.address)}`;
  const former = formerName(change);
  const renamed = former === undefined ? '' : ` ${paint(style, `(renamed from ${safeText(former)})`)}`;
  const lines = [`${paint(style, paint('bold', head))}${renamed} ${paint('dim', `(${safeText(change.kind)}${id})`)}`];
  const fields = change.action === 'delete' ? [] : fieldLines(change);
  const forcing = new Set(change.replacedBy ?? []);
  for (const line of fields) {
    const forces = forcing.has(line.field) ? paint('magenta', `  ${FORCES_REPLACEMENT}`) : '';
    lines.push(`      ${renderField(line, paint)}${forces}`);
  }
  // Deletes and replaces always say why; so does a change whose values cannot be shown
  // (only sensitive fields, e.g. a write-only password whose digest changed).
  const opaque = fields.every((f) => f.sensitive);
  if ((change.action === 'delete' || change.action === 'replace' || opaque) && change.reason) {
    lines.push(paint('dim', `      # ${safeText(change.reason)}`));
  }
  return lines;
}

function renderField(line: FieldLine, paint: Paint): string {
  const name = safeText(line.field);
  switch (line.type) {
    case 'add':
      return paint('green', `+ ${name} = ${line.after}`);
    case 'remove':
      return paint('red', `- ${name}`);
    case 'change':
      return `${name}: ${line.before} → ${line.after}`;
  }
}
