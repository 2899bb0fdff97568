import { FOLDED_AWAY } from '../../core/values.js';
import type { PlanMessage } from '../../plan/types.js';
import type { RowDiff } from '../../routing/index.js';

/** Lookalike keys listed by name up to this many per table; the rest are counted. */
const MAX_LOOKALIKES_LISTED = 20;

/**
 * A warning per created row whose key a live row's equals once folded (`foldIdentity`), and
 * per group of created rows whose keys equal each other so: most likely one row spelt two
 * ways, which the plan would otherwise duplicate (or, with prune, respell) without a word.
 */
export function lookalikeWarnings(diff: RowDiff, address: (key: string) => string, warnings: PlanMessage[]): void {
  const at = (source: string | undefined) => (source ? ` (${source})` : '');
  const all = [...diff.lookalikes.map((l) => ({ live: l })), ...diff.spelledAlike.map((group) => ({ group }))];
  for (const item of all.slice(0, MAX_LOOKALIKES_LISTED)) {
    if ('live' in item) {
      const l = item.live;
      const ending = l.liveDeleted
        ? ', and this plan deletes the live row (prune): the row changes spelling. If that is not meant, declare ' +
          'the live spelling'
        : '. If they are one row, declare the live spelling (or fix the live row); otherwise the table will hold both';
      warnings.push({
        code: 'SB_KEY_LOOKALIKE',
        address: address(l.key),
        message:
          `created${at(l.source)} next to the live row ${l.liveKey} (id ${l.liveId}): the keys differ only by ` +
          `${FOLDED_AWAY}${ending}`,
      });
      continue;
    }
    const [first, ...others] = item.group as [{ key: string; source?: string }, ...{ key: string; source?: string }[]];
    warnings.push({
      code: 'SB_KEY_LOOKALIKE',
      address: address(first.key),
      message:
        `created${at(first.source)}, and so ${others.map((o) => `${JSON.stringify(o.key)}${at(o.source)}`).join(', ')}: ` +
        `the keys differ only by ${FOLDED_AWAY}. If they are one row, declare it once; otherwise the ` +
        `table will hold ${item.group.length} rows`,
    });
  }
  const more = all.length - MAX_LOOKALIKES_LISTED;
  if (more > 0) {
    warnings.push({
      code: 'SB_KEY_LOOKALIKE',
      message: `… and ${more} more created rows whose keys differ from another's only by ${FOLDED_AWAY}`,
    });
  }
}
