import type { ApplyResult } from './types.js';

/** Lists at most this many skipped changes by name; the rest are counted. */
const MAX_SKIPPED_LISTED = 20;

/**
 * The closing summary of `apply` (stdout): the counts, every failure with the platform's
 * message and the manifest position it comes from, and what was skipped because of it.
 */
export function renderSummary(result: ApplyResult, journalPath?: string): string {
  const lines: string[] = [];
  const failed = result.results.filter((r) => r.outcome.status === 'failed');
  const skipped = result.results.filter((r) => r.outcome.status === 'skipped');
  const unsent = result.unsent ?? [];
  if (failed.length > 0 || unsent.length > 0) {
    lines.push('', 'Failed:');
    for (const { change, outcome } of failed) {
      if (outcome.status !== 'failed') continue;
      lines.push(`  ✗ ${change.action} ${change.address}${change.source ? ` (${change.source})` : ''}`);
      lines.push(`      ${outcome.message}`);
    }
    // Changes a system was gone for: one line, not one per change.
    for (const u of unsent) lines.push(`  ✗ ${u.count} ${u.what} not sent`, `      ${u.reason}`);
  }
  if (skipped.length > 0) {
    lines.push('', 'Skipped:');
    for (const { change, outcome } of skipped.slice(0, MAX_SKIPPED_LISTED)) {
      if (outcome.status === 'skipped') lines.push(`  - ${change.action} ${change.address}: ${outcome.reason}`);
    }
    if (skipped.length > MAX_SKIPPED_LISTED) lines.push(`  … and ${skipped.length - MAX_SKIPPED_LISTED} more`);
  }
  if (result.notes && result.notes.length > 0) lines.push('', 'Notes:', ...result.notes.map((n) => `  ${n}`));
  const seconds = (result.elapsedMs / 1000).toFixed(1);
  lines.push('');
  lines.push(
    `Apply ${result.failed + result.skipped > 0 ? 'incomplete' : 'complete'}: ${result.applied} applied, ${result.failed} failed, ${result.skipped} skipped (${result.requests} requests, ${seconds} s).`,
  );
  if (journalPath) lines.push(`Journal: ${journalPath}`);
  if (result.failed + result.skipped > 0) {
    lines.push('Fix the failures and run apply again: what was applied is matched by identity and not repeated.');
  }
  return `${lines.join('\n')}\n`;
}
