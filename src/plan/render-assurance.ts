/**
 * The plan's assurance sections (docs/assurance.md) as text and markdown: Emergency
 * coverage, the routing vectors whose answer the plan changes, and the change windows that
 * cover its changes. Pure; every value passes safeText (text) or escapeMd (markdown).
 */
import type { CoverageList, CoverageReport, CoverageScope } from './coverage/types.js';
import { cut, cutName, escapeMd } from './markdown-escape.js';
import { safeText } from './render-common.js';
import type { Plan, RoutingTestsSummary } from './types.js';
import { nextOpensText, type WindowNotice } from './windows.js';
import { countText } from '../core/count-text.js';

/**
 * A scope's numbers not known to have a verified address: those the platform says are not
 * verified, then those it says nothing of (Doc 2 §2.5's `addressVerified` is conditional).
 * The one column the tables and the summary line show for both.
 */
export function notVerified(scope: CoverageScope): CoverageList {
  return {
    count: scope.unverified.count + scope.verificationUnknown.count,
    items: [...scope.unverified.items, ...scope.verificationUnknown.items],
  };
}

/** Names shown inline per list; the rest are counted. */
const INLINE = 5;
const COVERAGE_BUDGET = 8_000;
const VECTORS_BUDGET = 6_000;
const WINDOWS_BUDGET = 4_000;
const TOTAL_BUDGET = COVERAGE_BUDGET + VECTORS_BUDGET + WINDOWS_BUDGET;

/** `+3221234560, +3221234561, … (6)`: the first names of a list, and how many there are. */
export function listText(list: CoverageList, show = INLINE): string {
  if (list.count === 0) return '';
  const shown = list.items.slice(0, show);
  const more = list.count > shown.length ? `; … (${list.count - shown.length} more)` : '';
  return `${shown.join('; ')}${more}`;
}

/** One line per figure of a scope: label, count, some names. */
function scopeLines(scope: CoverageScope): { label: string; count: number; names: string; note?: string }[] {
  const e = scope.effect;
  const lines: { label: string; count: number; names: string; note?: string }[] = [
    {
      label: 'without an address',
      count: scope.withoutAddress.count,
      names: listText(scope.withoutAddress),
      ...(e.withoutAddressAfter !== scope.withoutAddress.count
        ? { note: `${e.withoutAddressAfter} once this plan is applied` }
        : {}),
    },
    { label: 'address not verified', count: scope.unverified.count, names: listText(scope.unverified) },
  ];
  if (scope.verificationUnknown.count > 0)
    lines.push({
      label: 'verification not stated',
      count: scope.verificationUnknown.count,
      names: listText(scope.verificationUnknown),
    });
  lines.push({
    label: 'addresses linked to none',
    count: scope.unusedAddresses.count,
    names: listText(scope.unusedAddresses),
  });
  if (e.linksAdded.count > 0)
    lines.push({ label: 'this plan links', count: e.linksAdded.count, names: listText(e.linksAdded) });
  if (e.linksMoved.count > 0)
    lines.push({ label: 'this plan relinks', count: e.linksMoved.count, names: listText(e.linksMoved) });
  return lines;
}

/**
 * An address the plan changes while numbers use it, in words. `allowed`: the plan was made with
 * --allow-address-in-use (its `options`), so a delete that leaves numbers behind is in it.
 */
export function inUseText(use: CoverageScope['effect']['addressesInUse'][number], allowed = false): string {
  const verb = use.action === 'update' ? 'changes' : use.action === 'delete' ? 'deletes' : 'replaces';
  const n = use.numbers.count;
  const tail =
    use.action === 'update'
      ? ''
      : use.relinked
        ? ' (all relinked by this plan)'
        : allowed
          ? ' (allowed by --allow-address-in-use: numbers it does not relink are left without an address)'
          : ' (refused: SB_ADDRESS_IN_USE)';
  return `this plan ${verb} ${use.address} while ${n} ${n === 1 ? 'number uses' : 'numbers use'} it: ${listText(use.numbers)}${tail}`;
}

/**
 * The Routing tests section's sentence, before its list: how many vectors pass against the
 * declared rows, or, when the rows the apply leaves fail some, how many will fail (never that
 * they pass); then how many answers the plan changes. `count` is the vector count as written.
 */
export function vectorsSummary(tests: RoutingTestsSummary, count: string): string {
  const changes =
    tests.changedCount === 0
      ? 'this plan changes none of their answers'
      : `this plan changes the answer of ${tests.changedCount}`;
  const failing = tests.failingCount ?? 0;
  if (failing === 0)
    return `${count} ${tests.vectors === 1 ? 'vector passes' : 'vectors pass'} against the declared rows; ${changes}`;
  return `${failing} of ${count} ${tests.vectors === 1 ? 'vector' : 'vectors'} will fail once this plan is applied (live rows it keeps answer otherwise); ${changes}`;
}

/** `+3221234567 (carriers-behaviour): expects carrier trunk-7; the row prefix=+322123 answered carrier rogue`. */
function failingText(f: NonNullable<RoutingTestsSummary['failing']>[number]): string {
  return `${f.vector} (${f.test}): ${f.message}`;
}

/** `+3221234567 (routes-behaviour): trunk-7 → trunk-9`. */
function vectorText(c: RoutingTestsSummary['changed'][number]): string {
  return `${c.vector} (${c.test}): ${c.before} → ${c.after}`;
}

/** `1,004 changes apply only inside window X (schedule): next opens …`. */
export function noticeText(n: WindowNotice): string {
  const what = `${countText(n.changes)} ${n.changes === 1 ? 'change' : 'changes'}`;
  if (n.open && !n.frozen) return `${what} inside change window ${n.window} (${n.schedule}): open now`;
  return `${what} ${n.changes === 1 ? 'applies' : 'apply'} only inside change window ${n.window} (${n.schedule}): ${nextOpensText(n)}`;
}

type Paint = (style: 'yellow' | 'bold' | 'dim', s: string) => string;

/** The sections as lines of the text plan (each followed by a blank line), in the plan's order. */
export function assuranceText(plan: Plan, paint: Paint): string[] {
  const out: string[] = [];
  if (plan.coverage) out.push(...coverageText(plan.coverage, paint, allowsInUse(plan)), '');
  if (plan.routingTests) out.push(...vectorsText(plan.routingTests, paint), '');
  if (plan.changeWindows && plan.changeWindows.length > 0) out.push(...windowsText(plan.changeWindows, paint), '');
  return out;
}

/** Whether the plan was made with --allow-address-in-use. */
export function allowsInUse(plan: Plan): boolean {
  return plan.options?.allowAddressInUse === true;
}

function coverageText(report: CoverageReport, paint: Paint, allowed: boolean): string[] {
  const lines = [paint('bold', 'Emergency coverage (numbers and their emergency addresses):')];
  if (report.scopes.length === 0) lines.push('  no subscription in scope holds numbers the manifests declare');
  for (const scope of report.scopes) {
    // Only the figures that say something: a subscription whose numbers all have a verified address is one line.
    const figures = scopeLines(scope).filter((f) => f.count > 0 || f.note !== undefined);
    const inUse = scope.effect.addressesInUse;
    const n = scope.numbers;
    const head = `  ${safeText(scope.address)}: ${n === 0 ? 'no numbers' : `${n} ${n === 1 ? 'number' : 'numbers'}`}`;
    const allGood = n > 0 && figures.length === 0 && inUse.length === 0;
    lines.push(allGood ? `${head}, each with a verified emergency address` : head);
    const width = Math.max(0, ...figures.map((f) => f.label.length));
    for (const f of figures) {
      const names = f.names ? `  ${safeText(f.names)}` : '';
      const note = f.note ? ` (${f.note})` : '';
      const line = `      ${f.label.padEnd(width)}  ${String(f.count).padStart(4)}${names}${note}`;
      const attention =
        f.label === 'without an address' || f.label.startsWith('address not') || f.label.startsWith('verification');
      lines.push(attention ? paint('yellow', line) : line);
    }
    for (const use of inUse) lines.push(paint('yellow', `      ! ${safeText(inUseText(use, allowed))}`));
  }
  return lines;
}

function vectorsText(tests: RoutingTestsSummary, paint: Paint): string[] {
  const failing = tests.failing ?? [];
  const failingCount = tests.failingCount ?? failing.length;
  const listed = failingCount + tests.changedCount > 0;
  const head = `Routing tests: ${vectorsSummary(tests, countText(tests.vectors))}${listed ? ':' : '.'}`;
  const lines = [failingCount > 0 ? paint('yellow', paint('bold', head)) : paint('bold', head)];
  for (const f of failing)
    lines.push(paint('yellow', `  ✗ ${safeText(failingText(f))}`) + `  ${paint('dim', `(${safeText(f.source)})`)}`);
  if (failingCount > failing.length)
    lines.push(paint('dim', `  … and ${failingCount - failing.length} more that will fail — see the JSON plan`));
  for (const c of tests.changed)
    lines.push(`  ~ ${safeText(vectorText(c))}  ${paint('dim', `(${safeText(c.source)})`)}`);
  if (tests.changedCount > tests.changed.length)
    lines.push(paint('dim', `  … and ${tests.changedCount - tests.changed.length} more — see the JSON plan`));
  return lines;
}

function windowsText(notices: readonly WindowNotice[], paint: Paint): string[] {
  const lines = [paint('bold', 'Change windows:')];
  for (const n of notices) {
    const closed = !n.open || n.frozen !== undefined;
    lines.push(closed ? paint('yellow', `  ! ${safeText(noticeText(n))}`) : `  ✓ ${safeText(noticeText(n))}`);
    if (closed)
      lines.push(
        paint('dim', `      ${safeText(n.addresses.join(', '))}${n.changes > n.addresses.length ? ', …' : ''}`),
      );
  }
  return lines;
}

/**
 * The sections as markdown blocks of the pull-request comment, each within its share of
 * `room` (what the comment's limit leaves them, at most the sum of their own budgets).
 */
export function assuranceMarkdown(plan: Plan, room: number): string[] {
  const share = Math.min(1, room / TOTAL_BUDGET);
  const parts: string[] = [];
  if (plan.changeWindows && plan.changeWindows.length > 0)
    parts.push(windowsMarkdown(plan.changeWindows, Math.floor(WINDOWS_BUDGET * share)));
  if (plan.coverage)
    parts.push(coverageMarkdown(plan.coverage, Math.floor(COVERAGE_BUDGET * share), allowsInUse(plan)));
  if (plan.routingTests) parts.push(vectorsMarkdown(plan.routingTests, Math.floor(VECTORS_BUDGET * share)));
  return parts;
}

function budgeted(head: string[], rows: string[], budget: number, noun: string): string {
  const lines = [...head];
  let used = 0;
  let listed = 0;
  for (const row of rows) {
    if (used + row.length > budget) break;
    lines.push(row);
    used += row.length + 1;
    listed += 1;
  }
  if (listed < rows.length) lines.push('', `_… and ${rows.length - listed} more ${noun} in the JSON artifact_`);
  return lines.join('\n');
}

function coverageMarkdown(report: CoverageReport, budget: number, allowed: boolean): string {
  const head = [
    '#### Emergency coverage',
    '',
    '| subscription | numbers | without an address | not verified | addresses linked to none | this plan |',
    '|---|---:|---|---|---|---|',
  ];
  const cell = (l: CoverageList) => (l.count === 0 ? '0' : `${l.count}: ${escapeMd(cut(listText(l, 3), 300))}`);
  const rows = report.scopes.map((s) => {
    const e = s.effect;
    const effect = [
      e.linksAdded.count > 0 ? `links ${e.linksAdded.count}` : '',
      e.linksMoved.count > 0 ? `relinks ${e.linksMoved.count}` : '',
      e.withoutAddressAfter !== s.withoutAddress.count ? `${e.withoutAddressAfter} without an address after` : '',
      ...e.addressesInUse.map((u) => `⚠️ ${escapeMd(cut(inUseText(u, allowed), 400))}`),
    ].filter(Boolean);
    const unverified = notVerified(s);
    return `| <code>${escapeMd(cutName(s.address, 300))}</code> | ${s.numbers} | ${cell(s.withoutAddress)} | ${cell(unverified)} | ${cell(s.unusedAddresses)} | ${effect.join('<br>') || '—'} |`;
  });
  if (rows.length === 0)
    return '#### Emergency coverage\n\nNo subscription in scope holds numbers the manifests declare.';
  return budgeted(head, rows, budget, 'subscriptions');
}

function vectorsMarkdown(tests: RoutingTestsSummary, budget: number): string {
  const failing = tests.failing ?? [];
  const summary = vectorsSummary(tests, String(tests.vectors));
  if (tests.changedCount === 0 && failing.length === 0) return `#### Routing tests\n\n${summary}.`;
  const head = ['#### Routing tests', '', `${failing.length > 0 ? '⚠️ ' : ''}${summary}:`, ''];
  const failRows = failing.map(
    (f) =>
      `- ❌ <code>${escapeMd(cut(f.vector, 100))}</code> (${escapeMd(cut(f.test, 100))}): ${escapeMd(cut(f.message, 400))}`,
  );
  const rows = tests.changed.map(
    (c) =>
      `- <code>${escapeMd(cut(c.vector, 100))}</code> (${escapeMd(cut(c.test, 100))}): ${escapeMd(cut(c.before, 200))} → ${escapeMd(cut(c.after, 200))}`,
  );
  return budgeted(head, [...failRows, ...rows], budget, 'vectors');
}

function windowsMarkdown(notices: readonly WindowNotice[], budget: number): string {
  const closed = notices.some((n) => !n.open || n.frozen !== undefined);
  const head = [
    '#### Change windows',
    '',
    ...(closed
      ? [
          '> [!IMPORTANT]',
          '> Some changes apply only inside a change window that is closed now: apply refuses them until it opens.',
          '',
        ]
      : []),
  ];
  const rows = notices.map((n) => `- ${!n.open || n.frozen ? '⏳' : '✅'} ${escapeMd(cut(noticeText(n), 600))}`);
  return budgeted(head, rows, budget, 'windows');
}
