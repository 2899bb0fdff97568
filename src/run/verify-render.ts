/**
 * What `apply`, `verify` and `demo` say about the live verification of the RoutingTest vectors and
 * an emergency change (docs/assurance.md), as text and as members of the JSON summary.
 */
import type { RunRecord } from '../apply/journal.js';
import { safeText } from '../plan/render-common.js';
import type { Verification } from './verify.js';

/** Failures listed by name; the rest are counted (the journal has every one). */
const LISTED = 50;

/**
 * The verification as text: passed, or each vector that did not pass with what it expected and
 * what answered; a stopped run says how many vectors it did not search.
 */
export function renderVerification(v: Verification, journal?: string): string {
  const lines: string[] = [''];
  const ran = `${v.vectors} ${v.vectors === 1 ? 'vector' : 'vectors'} of ${v.tests} ${v.tests === 1 ? 'RoutingTest' : 'RoutingTests'}`;
  if (v.notSearched > 0)
    lines.push(
      `Verification interrupted: of ${ran}, ${v.passed} passed, ${v.failures.length} did not pass and ${v.notSearched} were not searched (the run was interrupted).`,
    );
  else if (v.failures.length === 0)
    lines.push(`Verification passed: ${ran}, searched in the live routing engine (${v.requests} requests).`);
  else lines.push(`Verification failed: ${v.failures.length} of ${ran} did not pass against the live routing engine:`);
  for (const f of v.failures.slice(0, LISTED))
    lines.push(
      `  ✗ ${safeText(f.vector)} (${safeText(f.test)}, ${safeText(f.source)}): ${f.outcome === 'error' ? 'search failed: ' : ''}${safeText(f.message)}`,
    );
  if (v.failures.length > LISTED) lines.push(`  … and ${v.failures.length - LISTED} more (in the journal)`);
  if (journal) lines.push(`Journal: ${journal}`);
  return `${lines.join('\n')}\n`;
}

/** What a verification came to: `passed`, `failed`, or `interrupted` (a stopped run left vectors unsearched). */
function verificationOutcome(v: Verification): 'passed' | 'failed' | 'interrupted' {
  if (v.notSearched > 0) return 'interrupted';
  return v.failures.length === 0 ? 'passed' : 'failed';
}

/** The `verification` member of a JSON summary (none without a verification). */
export function verificationJson(v: Verification | undefined): { verification?: Record<string, unknown> } {
  if (!v) return {};
  return {
    verification: {
      outcome: verificationOutcome(v),
      tests: v.tests,
      vectors: v.vectors,
      passed: v.passed,
      notSearched: v.notSearched,
      requests: v.requests,
      failures: v.failures,
    },
  };
}

/** `Emergency change INC-42: 3 changes applied outside change window routing-nights.` (nothing without a ticket). */
export function emergencyLine(record: Pick<RunRecord, 'emergencyChange'>): string {
  const e = record.emergencyChange;
  if (!e) return '';
  const outside =
    e.changes === 0
      ? 'no change was outside its change window'
      : `${e.changes} ${e.changes === 1 ? 'change' : 'changes'} applied outside change window ${e.windows.join(', ')}`;
  return `Emergency change ${safeText(e.ticket)}: ${outside} (recorded in the journal).\n`;
}

/** The `emergencyChange` member of a JSON summary. */
export function emergencyJson(record: Pick<RunRecord, 'emergencyChange'>): {
  emergencyChange?: RunRecord['emergencyChange'];
} {
  return record.emergencyChange ? { emergencyChange: record.emergencyChange } : {};
}
