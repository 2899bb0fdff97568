import { describe, expect, it } from 'vitest';
import { tierRank } from './sequencer.js';
import { TIERS, type TierName } from './tiers.js';

describe('the order npm test starts its files in', () => {
  it('starts the reliability tier, then e2e, then unit', () => {
    expect(tierRank('reliability')).toBeLessThan(tierRank('e2e'));
    expect(tierRank('e2e')).toBeLessThan(tierRank('unit'));
  });

  it('ranks every tier of test/suite/tiers.ts, so a new tier is not left to the end unnoticed', () => {
    const unranked = tierRank('no such tier');
    for (const tier of Object.keys(TIERS) as TierName[]) expect(tierRank(tier), tier).toBeLessThan(unranked);
  });
});
