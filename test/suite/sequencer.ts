/**
 * The order `npm test` starts its files in: the reliability tier first, then e2e, then unit.
 * vitest's own order puts the projects alphabetically (e2e, reliability, unit), so the chaos
 * test, the longest file and mostly waiting for faults and backoffs, started near the end
 * and could outlast everything else; started first, it runs beside the rest. Within a tier,
 * vitest's order stays (files that failed or took longest last time first, else the largest).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import type { TierName } from './tiers.js';

const ORDER: readonly TierName[] = ['reliability', 'e2e', 'unit'];

export function tierRank(project: string): number {
  const rank = ORDER.indexOf(project as TierName);
  return rank < 0 ? ORDER.length : rank;
}

export class TierSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: vitest's order is kept within a tier.
    return sorted.sort((a, b) => tierRank(a.project.name) - tierRank(b.project.name));
  }
}
