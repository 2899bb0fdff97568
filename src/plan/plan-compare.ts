/**
 * `show PLAN_FILE --compare-with OTHER`: whether two plans do the same (their change sets,
 * change-set.ts), and what differs: for a CI job that applies a plan made after a merge and
 * must say whether it is the one reviewed on the pull request. OTHER is another plan file,
 * or only the change-set digest a review recorded (`sha256:…`: then no difference can be
 * listed). Rendered as text, markdown (a job summary) or JSON; pure.
 */
import { canonicalJson } from '../core/canonical-json.js';
import { compareChangeSets, type ChangeDifference } from './change-set.js';
import { cut, escapeMd } from './markdown-escape.js';
import { safeText } from './render-common.js';
import type { Plan } from './types.js';

/** One side of the comparison. */
export interface ComparedPlan {
  /** The file, or the digest as given. */
  name: string;
  /** The plan's own digest (absent when only a change-set digest was given). */
  digest?: string;
  changeSet: { digest: string; changes?: number };
}

export interface PlanComparison {
  same: boolean;
  plan: ComparedPlan;
  other: ComparedPlan;
  /** The same changes in another order. */
  reordered: boolean;
  /** By address: `in` is `plan`, `other` (only there) or `both` (fields differ). Empty when only a digest was given. */
  differences: {
    address: string;
    in: 'plan' | 'other' | 'both';
    actions: { plan?: string; other?: string };
    fields: { field: string; plan: unknown; other: unknown }[];
  }[];
}

/** At most this many differences listed (the JSON form has them all). */
const MAX_LISTED = 200;
const VALUE_BUDGET = 300;

function side(name: string, plan: Plan): ComparedPlan {
  return {
    name,
    ...(plan.digest ? { digest: plan.digest } : {}),
    changeSet: { digest: plan.changeSet?.digest ?? '', changes: plan.changes.length },
  };
}

/** Compares two plan files (both read and checked: their changes are as sealed). */
export function comparePlans(name: string, plan: Plan, otherName: string, other: Plan): PlanComparison {
  const result = compareChangeSets(plan.changes, other.changes);
  return {
    same: result.same,
    plan: side(name, plan),
    other: side(otherName, other),
    reordered: result.reordered,
    differences: result.differences.map(renamed),
  };
}

/** Compares a plan file with a change-set digest alone. */
export function compareWithDigest(name: string, plan: Plan, digest: string): PlanComparison {
  return {
    same: plan.changeSet?.digest === digest,
    plan: side(name, plan),
    other: { name: digest, changeSet: { digest } },
    reordered: false,
    differences: [],
  };
}

function renamed(d: ChangeDifference): PlanComparison['differences'][number] {
  return {
    address: d.address,
    in: d.in === 'first' ? 'plan' : d.in === 'second' ? 'other' : 'both',
    actions: {
      ...(d.actions.first ? { plan: d.actions.first } : {}),
      ...(d.actions.second ? { other: d.actions.second } : {}),
    },
    fields: d.fields.map((f) => ({ field: f.field, plan: f.first, other: f.second })),
  };
}

function value(v: unknown): string {
  const text = safeText(canonicalJson(v));
  return text.length > VALUE_BUDGET ? `${text.slice(0, VALUE_BUDGET - 1)}…` : text;
}

function count(p: ComparedPlan): string {
  return p.changeSet.changes === undefined ? '' : ` (${p.changeSet.changes} changes)`;
}

/** The comparison for a terminal or a CI log. */
export function renderComparisonText(c: PlanComparison): string {
  const names = [safeText(c.plan.name), safeText(c.other.name)];
  const width = Math.max(...names.map((n) => n.length));
  const lines = [
    c.same ? `Same change set: ${c.plan.changeSet.digest}${count(c.plan)}` : 'The change sets differ:',
    `  ${(names[0] ?? '').padEnd(width)}  change set ${c.plan.changeSet.digest}${count(c.plan)}`,
    `  ${(names[1] ?? '').padEnd(width)}  change set ${c.other.changeSet.digest}${count(c.other)}`,
  ];
  if (c.reordered) lines.push('  the same changes, in another order');
  for (const d of c.differences.slice(0, MAX_LISTED)) {
    const address = safeText(d.address);
    if (d.in === 'plan') lines.push(`  - ${address}: ${d.actions.plan ?? ''} only in ${names[0] ?? ''}`);
    else if (d.in === 'other') lines.push(`  + ${address}: ${d.actions.other ?? ''} only in ${names[1] ?? ''}`);
    else for (const f of d.fields) lines.push(`  ~ ${address}: ${f.field}: ${value(f.plan)} → ${value(f.other)}`);
  }
  if (c.differences.length > MAX_LISTED)
    lines.push(`  … and ${c.differences.length - MAX_LISTED} more (--format json)`);
  return `${lines.join('\n')}\n`;
}

/** The comparison as markdown (a job summary, a comment): inert whatever the values. */
export function renderComparisonMarkdown(c: PlanComparison): string {
  const name = (p: ComparedPlan) =>
    `<code>${escapeMd(cut(p.name, 200))}</code> (change set <code>${p.changeSet.digest}</code>${count(p)})`;
  const head = c.same
    ? `**Same change set**: ${name(c.plan)} does what ${name(c.other)} does.`
    : `**The change sets differ**: ${name(c.plan)} and ${name(c.other)}.`;
  const parts = [head];
  if (c.reordered) parts.push('The same changes, in another order.');
  if (c.differences.length > 0) {
    const rows = ['| address | in | what differs |', '|---|---|---|'];
    for (const d of c.differences.slice(0, MAX_LISTED)) {
      const where = d.in === 'both' ? 'both' : `only ${d.in === 'plan' ? c.plan.name : c.other.name}`;
      const what =
        d.in === 'both'
          ? d.fields
              .map(
                (f) => `${f.field}: <code>${escapeMd(value(f.plan))}</code> → <code>${escapeMd(value(f.other))}</code>`,
              )
              .join('<br>')
          : escapeMd(d.actions.plan ?? d.actions.other ?? '');
      rows.push(`| <code>${escapeMd(cut(d.address, 400))}</code> | ${escapeMd(cut(where, 200))} | ${what} |`);
    }
    if (c.differences.length > MAX_LISTED) rows.push('', `_… and ${c.differences.length - MAX_LISTED} more_`);
    parts.push(rows.join('\n'));
  }
  return `${parts.join('\n\n')}\n`;
}

/** The comparison as one JSON document. */
export function renderComparisonJson(c: PlanComparison): string {
  return `${JSON.stringify(c, null, 2)}\n`;
}
