import { pathForDisplay } from '../core/display-path.js';
import { safeText } from '../core/safe-text.js';
import type { RunRecord } from './journal.js';
import type { ApplyResult } from './types.js';

/** Lists at most this many skipped changes by name; the rest are counted. */
const MAX_SKIPPED_LISTED = 20;

/** A run that did not apply its whole plan: a change failed or was skipped, or an error stopped it (its journal). */
export function isIncomplete(result: ApplyResult): boolean {
  return result.failed + result.skipped > 0 || (result.errors?.length ?? 0) > 0;
}

/**
 * The closing summary of `apply` (stdout): the counts, every failure with the platform's
 * message and the manifest position it comes from, and what was skipped because of it.
 * Changes of unknown outcome (sent, and no answer said what was done) are failures marked `?`, and the counts say
 * how many there were: the journal's `unknown` lines, which the next plan settles.
 */
export function renderSummary(result: ApplyResult, journalPath?: string, plan?: RunRecord['plan']): string {
  const lines: string[] = [];
  const failed = result.results.filter((r) => r.outcome.status === 'failed');
  const skipped = result.results.filter((r) => r.outcome.status === 'skipped');
  const unsent = result.unsent ?? [];
  const unknownGroups = result.unknownGroups ?? [];
  if (failed.length > 0 || unsent.length > 0 || unknownGroups.length > 0) {
    lines.push('', 'Failed:');
    for (const { change, outcome } of failed) {
      if (outcome.status !== 'failed') continue;
      const mark = outcome.unknown ? '?' : '✗';
      lines.push(`  ${mark} ${change.action} ${change.address}${change.source ? ` (${change.source})` : ''}`);
      lines.push(`      ${outcome.message}${outcome.unknown ? ` ${UNKNOWN_NOTE}` : ''}`);
    }
    // Changes sent without an answer, and changes a system was gone for: one line each, not one per change.
    for (const u of unknownGroups)
      lines.push(
        `  ? ${u.count} ${u.what} of unknown outcome (sent, not confirmed)`,
        `      ${u.reason} ${UNKNOWN_NOTE}`,
      );
    for (const u of unsent) lines.push(`  ✗ ${u.count} ${u.what} not sent`, `      ${u.reason}`);
  }
  if (skipped.length > 0) {
    lines.push('', 'Skipped:');
    for (const { change, outcome } of skipped.slice(0, MAX_SKIPPED_LISTED)) {
      if (outcome.status === 'skipped') lines.push(`  - ${change.action} ${change.address}: ${outcome.reason}`);
    }
    if (skipped.length > MAX_SKIPPED_LISTED) lines.push(`  … and ${skipped.length - MAX_SKIPPED_LISTED} more`);
  }
  if (result.errors && result.errors.length > 0) {
    lines.push('', 'Stopped:');
    for (const error of result.errors) lines.push(`  ✗ ${error.message} (${error.code}): nothing was started after it`);
  }
  if (result.notes && result.notes.length > 0) lines.push('', 'Notes:', ...result.notes.map((n) => `  ${n}`));
  const seconds = (result.elapsedMs / 1000).toFixed(1);
  const unknown = result.unknown ?? 0;
  const ofThem = unknown > 0 ? ` (${unknown} of unknown outcome: sent, not confirmed)` : '';
  lines.push('');
  lines.push(
    `Apply ${isIncomplete(result) ? 'incomplete' : 'complete'}: ${result.applied} applied, ${result.failed} failed${ofThem}, ${result.skipped} skipped (${result.requests} requests, ${seconds} s).`,
  );
  if (journalPath) lines.push(`Journal: ${pathForDisplay(journalPath)}`);
  if (plan) lines.push(planLine(plan));
  if (isIncomplete(result)) {
    lines.push('Fix the failures and run apply again: what was applied is matched by identity and not repeated.');
  }
  // Addresses, positions and platform messages, printed as the renderers print them: one line each.
  return `${lines.map(safeText).join('\n')}\n`;
}

/** What a change of unknown outcome needs: the next plan reads what it did. */
const UNKNOWN_NOTE = '(it may have been applied: plan again to see what it did)';

/** `Plan digest: sha256:… (plan.json)`: which reviewed plan this run applied, as the journal records it. */
function planLine(plan: RunRecord['plan']): string {
  const from = plan.source === 'file' ? plan.file : plan.source;
  return plan.digest ? `Plan digest: ${plan.digest} (${from})` : `Plan digest: none (${from} carries no digest)`;
}

/** What `apply --format json` prints: the run's outcome as one JSON document, for CI scripts. */
export interface ApplySummaryJson {
  /** `complete`, `incomplete` (a failure, a skip, or an error while applying), `nothing to do`, `refused`, `cancelled`, `error`. */
  outcome: 'complete' | 'incomplete' | 'nothing to do' | 'refused' | 'cancelled' | 'error';
  applied: number;
  /** Changes not applied for certain, `unknown` included. */
  failed: number;
  /** Of `failed`: changes whose request was sent and got no answer (they may have been applied). */
  unknown: number;
  skipped: number;
  /** Every failed change, with the error's code and the platform's message; `unknown` when sent without an answer. */
  failures: { address: string; action: string; code?: string; message: string; source?: string; unknown?: true }[];
  /** Skipped changes, with why (a routing table's unsent rows are counted in `skipped` only). */
  skips: { address: string; action: string; reason: string }[];
  requests: number;
  durationMs: number;
  journal: string | null;
  plan: RunRecord['plan'] | null;
  /**
   * Refusals (outcome `refused`), the error that stopped the run before it applied (`error`),
   * or while it applied (`incomplete`: a journal that could not be written), with their codes.
   */
  errors: { code: string; message: string; address?: string }[];
}

/** The JSON summary of an apply that ran (every failure and skip listed). */
export function summaryJson(result: ApplyResult, journal: string, plan: RunRecord['plan']): ApplySummaryJson {
  const failures: ApplySummaryJson['failures'] = [];
  const skips: ApplySummaryJson['skips'] = [];
  for (const { change, outcome } of result.results) {
    const what = { address: change.address, action: change.action };
    if (outcome.status === 'failed') {
      failures.push({
        ...what,
        ...(outcome.code ? { code: outcome.code } : {}),
        message: outcome.message,
        ...(change.source ? { source: change.source } : {}),
        ...(outcome.unknown ? { unknown: true as const } : {}),
      });
    } else if (outcome.status === 'skipped') skips.push({ ...what, reason: outcome.reason });
  }
  return {
    outcome: isIncomplete(result) ? 'incomplete' : 'complete',
    applied: result.applied,
    failed: result.failed,
    unknown: result.unknown ?? 0,
    skipped: result.skipped,
    failures,
    skips,
    requests: result.requests,
    durationMs: Math.round(result.elapsedMs),
    journal,
    plan,
    errors: [...(result.errors ?? [])],
  };
}

/** The JSON summary of an apply that sent nothing (nothing to do, refused, cancelled, an error). */
export function emptySummaryJson(
  outcome: Exclude<ApplySummaryJson['outcome'], 'complete' | 'incomplete'>,
  plan: RunRecord['plan'] | null,
  errors: ApplySummaryJson['errors'] = [],
): ApplySummaryJson {
  const none = { applied: 0, failed: 0, unknown: 0, skipped: 0, failures: [], skips: [], requests: 0, durationMs: 0 };
  return { outcome, ...none, journal: null, plan, errors };
}
