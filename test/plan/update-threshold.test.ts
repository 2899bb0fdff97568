import { describe, expect, it } from 'vitest';
import { checkSafety, overwrites, type RailFacts } from '../../src/plan/safety.js';
import { WRITE_ONLY, type Change } from '../../src/plan/types.js';

const update = (i: number, before: Record<string, unknown>, after: Record<string, unknown>): Change => ({
  address: `tenant/t${i}`,
  kind: 'Tenant',
  provider: 'platform',
  action: 'update',
  before,
  after,
  patch: Object.entries(after).map(([k, v]) => ({ op: 'replace' as const, path: `/${k}`, value: v })),
  reason: '',
  dependsOn: [],
  requests: [],
});

function part(changes: Change[], live: number): RailFacts {
  return {
    changes,
    liveCounts: new Map([['Tenant', live]]),
    protectedAddresses: new Set(),
    holdsData: () => false,
    preflight: () => [],
  };
}

describe('the update threshold', () => {
  it('counts an update when it overwrites a live value: filling an empty field does not, a write-only one does', () => {
    expect(overwrites(update(0, { markup: 4 }, { markup: 5 }))).toBe(true);
    expect(overwrites(update(0, { markup: null }, { markup: 5 }))).toBe(false);
    expect(overwrites(update(0, { billingId: '' }, { billingId: 'T-1' }))).toBe(false);
    expect(overwrites(update(0, {}, { markup: 5 }))).toBe(false);
    expect(overwrites(update(0, { markup: null, name: 'a' }, { markup: 5, name: 'b' }))).toBe(true);
    expect(overwrites(update(0, { password: WRITE_ONLY }, { password: '(sensitive)' }))).toBe(true);
    expect(overwrites({ ...update(0, { uc: 'uc_alpha' }, { uc: 'uc_beta' }), action: 'replace' })).toBe(true);
    expect(overwrites({ ...update(0, {}, {}), action: 'create', before: null })).toBe(false);
  });

  it('refuses more than the share of a kind once 10 are live; --max-update-percent moves it', () => {
    const changes = (n: number) => Array.from({ length: n }, (_, i) => update(i, { markup: 1 }, { markup: 2 }));
    const refusal = (n: number, live: number, max?: number) =>
      checkSafety([part(changes(n), live)], {
        maxDeletePercent: 10,
        allowReplace: false,
        maxUpdatePercent: max,
      }).filter((m) => m.code === 'SB_UPDATE_THRESHOLD');
    expect(refusal(3, 10)).toEqual([]); // 30 %: not above
    expect(refusal(4, 10)).toEqual([
      {
        code: 'SB_UPDATE_THRESHOLD',
        message:
          'the plan overwrites values of 4 of 10 live Tenant objects in scope (40.0%), above --max-update-percent 30',
      },
    ]);
    expect(refusal(9, 9)).toEqual([]); // fewer than 10 live
    expect(refusal(4, 10, 40)).toEqual([]);
    expect(refusal(1, 10, 0)).toHaveLength(1);
  });
});
