/**
 * The plan as a pull-request comment (GitHub-flavoured markdown). Built to be safe with
 * hostile values (every value from the plan is escaped or fenced) and to stay under
 * GitHub's 65,536-character comment limit whatever the plan's size: the summary and the
 * refusals always survive; change blocks are cut first.
 */
import { cut, cutName, escapeMd, fence } from './markdown-escape.js';
import {
  CAPACITY_COLUMNS,
  capacityFigures,
  fieldLines,
  formerName,
  redactChange,
  safeText,
  FORCES_REPLACEMENT,
  type FieldLine,
} from './render-common.js';
import { baselinesSection, changeBaselineLine } from './render-markdown-baselines.js';
import { assuranceMarkdown } from './render-assurance.js';
import { changeSetLine, countChanges, digestLine, policiesFromText, summaryLine, unmanagedLine } from './summary.js';
import type { CapacityRow, Change, Plan, PlanMessage, PolicyChange } from './types.js';

export interface MarkdownOptions {
  /** At most this many change blocks (default 200); the rest is counted. */
  maxChanges?: number;
  /**
   * Where the full plan is, e.g. a link to the CI artifact. Trusted markdown from the
   * caller (not from the plan), inserted as given so a link stays a link.
   */
  artifactHint?: string;
}

/** The whole comment stays under this, leaving GitHub's 65,536 some room. */
export const MARKDOWN_LIMIT = 60_000;
const REFUSALS_BUDGET = 30_000;
const WARNINGS_BUDGET = 8_000;
const CAPACITY_BUDGET = 8_000;
const POLICY_CHANGES_BUDGET = 8_000;
const BLOCK_BUDGET = 6_000;
const LINE_BUDGET = 400;
const FOOTER_RESERVE = 1_000;
/** Left for the change blocks when the sections above are at their largest. */
const ASSURANCE_RESERVE = 2_000;

const BADGES: Record<Change['action'], string> = {
  create: '🟢 create',
  update: '🟡 update',
  replace: '⚠️ <b>replace</b>',
  delete: '🔴 <b>delete</b>',
};

/** The plan as markdown for a pull-request comment. Ends with a newline. */
export function renderMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const maxChanges = Math.max(0, Math.floor(options.maxChanges ?? 200));
  // A fleet-wide edit reads by baseline first (docs/baselines.md), before the capacity it asks.
  const parts = [renderHead(plan), ...renderMessages(plan), baselinesSection(plan)].filter(Boolean);
  if (plan.capacity && plan.capacity.rows.length > 0) parts.push(capacityTable(plan.capacity.rows));
  let used = parts.reduce((n, p) => n + p.length + 1, 0);
  // The assurance sections take what the sections above left of their share, never the footer's.
  for (const part of assuranceMarkdown(plan, Math.max(0, MARKDOWN_LIMIT - FOOTER_RESERVE - used - ASSURANCE_RESERVE))) {
    parts.push(part);
    used += part.length + 1;
  }
  const ordered = destructiveFirst(plan.changes);
  const blocks: string[] = [];
  for (const change of ordered) {
    if (blocks.length >= maxChanges) break;
    const block = renderBlock(redactChange(change));
    if (used + block.length + 1 > MARKDOWN_LIMIT - FOOTER_RESERVE) break;
    blocks.push(block);
    used += block.length + 1;
  }
  if (blocks.length > 0) parts.push('#### Changes', ...blocks);
  const left = ordered.length - blocks.length;
  if (left > 0) {
    const where = options.artifactHint ? `: ${cut(options.artifactHint, 500)}` : '.';
    parts.push(`**${left} more ${left === 1 ? 'change' : 'changes'} in the JSON artifact**${where}`);
  }
  // Always last and never cut (FOOTER_RESERVE): the digests the apply log and the merge's plan show again.
  const seals = [
    digestLine(plan) ? `Plan digest: <code>${plan.digest}</code>` : '',
    changeSetLine(plan) && plan.changeSet
      ? `Change set: <code>${plan.changeSet.digest}</code> (${plan.changeSet.changes} ${plan.changeSet.changes === 1 ? 'change' : 'changes'})`
      : '',
  ].filter(Boolean);
  if (seals.length > 0) parts.push(`<sub>${seals.join('<br>')}</sub>`);
  return `${parts.join('\n\n')}\n`;
}

function renderHead(plan: Plan): string {
  const counts = countChanges(plan.changes);
  const s = plan.summary;
  const target = `<code>${escapeMd(cut(plan.target.baseUrl, 200))}</code>, instance <code>${escapeMd(cut(plan.target.instance, 100))}</code>`;
  const lines = [
    '### switchboard plan',
    '',
    `**${summaryLine(counts)}** <sub>Target: ${target}</sub>`,
    '',
    '| create | update | replace | delete | noop | unmanaged |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${counts.create} | ${counts.update} | ${counts.replace} | ${counts.delete} | ${s.noop} | ${s.unmanaged} |`,
  ];
  const unmanaged = unmanagedLine(s.unmanaged);
  if (unmanaged) lines.push('', `_${unmanaged}_`);
  return lines.join('\n');
}

function renderMessages(plan: Plan): string[] {
  const parts: string[] = [];
  if (plan.errors.length > 0) {
    const title = '**Refused: this plan will not be applied.**';
    parts.push(alert('CAUTION', title, plan.errors, REFUSALS_BUDGET, 'refusals'));
  }
  if (plan.warnings.length > 0) {
    parts.push(alert('WARNING', '**Warnings**', plan.warnings, WARNINGS_BUDGET, 'warnings'));
  }
  if (plan.policy && plan.policy.overrides.length > 0) {
    const ids = plan.policy.overrides.map((id) => `<code>${escapeMd(cut(id, 200))}</code>`).join(', ');
    parts.push(`> [!IMPORTANT]\n> **Policy rules overridden for this plan** (--allow-policy): ${ids}`);
  }
  if (plan.policiesFrom) parts.push(policyChangesTable(plan));
  return parts;
}

const EFFECT_BADGES: Record<PolicyChange['effect'], string> = {
  looser: '⚠️ **looser**',
  mixed: '⚠️ **looser and stricter**',
  unclear: '❓ **unclear**',
  stricter: 'stricter',
  neutral: 'neutral',
};

/**
 * The Policy changes of a `--policies-from` plan: what the pull request does to the rules
 * that judge it (the plan is judged by those at the ref). Loosening rules first, cut to its
 * budget (the JSON plan has them all).
 */
function policyChangesTable(plan: Plan): string {
  const from = plan.policiesFrom as NonNullable<Plan['policiesFrom']>;
  const judged = `judged by ${escapeMd(cut(policiesFromText(from), 400))}`;
  const changes = plan.policyChanges ?? [];
  if (changes.length === 0)
    return `#### Policy changes

None: the manifests change no Policy rule. This plan is ${judged}.`;
  const attention = changes.some((c) => c.effect !== 'stricter' && c.effect !== 'neutral');
  const lines = [
    '#### Policy changes',
    '',
    `> [!${attention ? 'WARNING' : 'NOTE'}]`,
    `> This change edits the Policy rules that judge plans${attention ? ', and loosens some' : ''}. This plan is ${judged}, not by the edited rules; once merged, the edited rules judge every plan.`,
    '',
    '| rule | policy | change | effect | what |',
    '|---|---|---|---|---|',
  ];
  const rank = (c: PolicyChange) => (c.effect === 'stricter' || c.effect === 'neutral' ? 1 : 0);
  let used = 0;
  let listed = 0;
  for (const c of [...changes].sort((a, b) => rank(a) - rank(b))) {
    const what = c.details.map((d) => escapeMd(cut(d, 300))).join('; ');
    const line = `| <code>${escapeMd(cut(c.rule, 200))}</code> | ${escapeMd(cut(c.policy, 200))} | ${c.change} | ${EFFECT_BADGES[c.effect]} | ${what} |`;
    if (used + line.length > POLICY_CHANGES_BUDGET) break;
    lines.push(line);
    used += line.length + 1;
    listed += 1;
  }
  if (listed < changes.length)
    lines.push('', `_… and ${changes.length - listed} more policy changes in the JSON artifact_`);
  return lines.join('\n');
}

/**
 * The Capacity section as a table, rows with a warning first, cut to its budget (the JSON
 * plan has every row).
 */
function capacityTable(rows: readonly CapacityRow[]): string {
  const ordered = [...rows.filter((r) => r.warning), ...rows.filter((r) => !r.warning)];
  const lines = [
    '#### Capacity',
    '',
    `| object | capacity | ${CAPACITY_COLUMNS.join(' | ')} |`,
    `|---|---|${CAPACITY_COLUMNS.map(() => '---:').join('|')}|`,
  ];
  let used = 0;
  let listed = 0;
  for (const row of ordered) {
    const figures = capacityFigures(row).map((v) => (v === undefined ? '' : String(v)));
    const last = figures.length - 1;
    if (row.warning) figures[last] = `⚠️ ${figures[last] ?? ''} (${escapeMd(cut(row.warning, 200))})`;
    const line = `| <code>${escapeMd(cutName(row.scope ?? row.address, LINE_BUDGET))}</code> | ${escapeMd(cut(row.subject, 200))} | ${figures.join(' | ')} |`;
    if (used + line.length > CAPACITY_BUDGET) break;
    lines.push(line);
    used += line.length + 1;
    listed += 1;
  }
  if (listed < rows.length) lines.push('', `_… and ${rows.length - listed} more rows in the JSON artifact_`);
  return lines.join('\n');
}

/** A GitHub alert block listing messages, cut to `budget` characters. */
function alert(type: string, title: string, messages: PlanMessage[], budget: number, noun: string): string {
  const lines = [`> [!${type}]`, `> ${title}`];
  let used = 0;
  let listed = 0;
  for (const m of messages) {
    const line = `> - ${formatMessage(m)}`;
    if (used + line.length > budget) break;
    lines.push(line);
    used += line.length + 1;
    listed += 1;
  }
  if (listed < messages.length) lines.push(`> - … and ${messages.length - listed} more ${noun} in the JSON artifact`);
  return lines.join('\n');
}

function formatMessage(m: PlanMessage): string {
  const where = m.address ? ` <code>${escapeMd(cutName(m.address, LINE_BUDGET))}</code>` : '';
  const role = m.role ? ` (role <code>${escapeMd(cut(m.role, 200))}</code>)` : '';
  const origin = [
    m.rule ? `rule <code>${escapeMd(cut(m.rule, 200))}</code>` : '',
    m.source ? `at <code>${escapeMd(cutName(m.source, LINE_BUDGET))}</code>` : '',
  ].filter(Boolean);
  const tail = origin.length > 0 ? ` (${origin.join(', ')})` : '';
  return `<code>${escapeMd(cut(m.code, 100))}</code>${where}: ${escapeMd(cut(m.message, 1_000))}${role}${tail}`;
}

/** Replaces and deletes first, so a size cut never hides them behind harmless changes. */
function destructiveFirst(changes: readonly Change[]): Change[] {
  const risky = changes.filter((c) => c.action === 'replace' || c.action === 'delete');
  const rest = changes.filter((c) => c.action === 'create' || c.action === 'update');
  return [...risky, ...rest];
}

function renderBlock(change: Change): string {
  const id = change.id === undefined ? '' : `, id ${escapeMd(cut(change.id, 100))}`;
  const former = formerName(change);
  const renamed = former === undefined ? '' : ` renamed from <code>${escapeMd(cutName(former, LINE_BUDGET))}</code>`;
  const summary = `${BADGES[change.action]} <code>${escapeMd(cutName(change.address, LINE_BUDGET))}</code>${renamed} (${escapeMd(cut(change.kind, 100))}${id})`;
  const body: string[] = [];
  if (change.reason) body.push(`<i>Reason:</i> ${escapeMd(cut(change.reason, 1_000))}`);
  if (change.source) body.push(`<i>Declared at:</i> <code>${escapeMd(cutName(change.source, LINE_BUDGET))}</code>`);
  const fromBaseline = changeBaselineLine(change);
  if (fromBaseline) body.push(fromBaseline);
  const diff = diffLines(fieldLines(change), new Set(change.replacedBy ?? []));
  if (diff.length > 0) body.push(fencedDiff(diff));
  return [`<details><summary>${summary}</summary>`, '', body.join('\n\n'), '', '</details>'].join('\n');
}

function diffLines(fields: FieldLine[], forcing: ReadonlySet<string>): string[] {
  const lines: string[] = [];
  for (const f of fields) {
    const name = safeText(f.field);
    const forces = forcing.has(f.field) ? `  ${FORCES_REPLACEMENT}` : '';
    if (f.type === 'add') lines.push(`+ ${name}: ${f.after}`);
    else if (f.type === 'remove') lines.push(`- ${name}: ${f.before}`);
    else lines.push(`- ${name}: ${f.before}`, `+ ${name}: ${f.after}${forces}`);
  }
  return lines.map((l) => cut(l, LINE_BUDGET));
}

/** A ```diff block of at most BLOCK_BUDGET characters. */
function fencedDiff(lines: string[]): string {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > BLOCK_BUDGET) {
      kept.push(`# … ${lines.length - kept.length} more lines in the JSON artifact`);
      break;
    }
    kept.push(line);
    used += line.length + 1;
  }
  const text = kept.join('\n');
  const f = fence(text);
  return `${f}diff\n${text}\n${f}`;
}
