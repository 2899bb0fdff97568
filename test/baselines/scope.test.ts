/**
 * `plan --changed-since` and baselines (src/manifest/baselines/scope.ts): which documents a
 * changed document puts in scope through the baselines' selectors.
 */
import { describe, expect, it } from 'vitest';
import { baselineScope } from '../../src/manifest/baselines/scope.js';
import type { DocumentRecord } from '../../src/manifest/index.js';

const record = (address: string, kind: string, extra: Partial<DocumentRecord> = {}): DocumentRecord => ({
  address,
  file: 'm.yaml',
  absolute: '/repo/m.yaml',
  digest: `sha256:${address}`,
  dataFiles: [],
  objects: [{ address, kind }],
  ...extra,
});

const gold = (selector: Record<string, unknown>) => record('baseline/gold', 'Baseline', { selector });
const tenant = (name: string, ancestors: Record<string, string>) =>
  record(`tenant/${name}`, 'Tenant', { selection: { ancestors } });

describe('a changed owner puts the documents under it in scope', () => {
  const now = [
    record('reseller/north', 'Reseller'),
    tenant('acme', { Reseller: 'north', Group: 'demo-group' }),
    tenant('globex', { Reseller: 'south', Group: 'demo-group' }),
  ];

  it('a reseller, when a baseline selects by group: its group decides what the selector takes', () => {
    expect(baselineScope(['reseller/north'], [], [gold({ groups: ['demo-group'] }), ...now])).toEqual(['tenant/acme']);
  });

  it('a reseller removed since the commit: its tenants as they were', () => {
    const before = [record('reseller/north', 'Reseller'), tenant('acme', { Reseller: 'north', Group: 'demo-group' })];
    const after = [gold({ groups: ['demo-group'] }), tenant('acme', { Reseller: 'north' })];
    expect(baselineScope(['reseller/north'], before, after)).toEqual(['tenant/acme']);
  });

  it('nothing, when no baseline selects by an owner', () => {
    expect(baselineScope(['reseller/north'], [], [gold({ labels: { offer: 'office' } }), ...now])).toEqual([]);
    expect(baselineScope(['reseller/north'], [], now)).toEqual([]);
  });
});
