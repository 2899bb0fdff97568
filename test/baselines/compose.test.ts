/**
 * Baselines compose with what judges and selects the effective objects (docs/baselines.md,
 * "With the rest"): policy rules see the values a baseline gives, with the baseline's line,
 * and a tenant's override with its own; `--target` selects effective objects by address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDesiredNodes } from '../../src/plan/desired.js';
import { evaluatePolicies } from '../../src/plan/policy/evaluate.js';
import type { PolicyFacts } from '../../src/plan/policy/facts.js';
import { selectTargets } from '../../src/plan/targets.js';
import type { LoadResult } from '../../src/manifest/index.js';
import { baseline, loadCase, said, scratch, tenant } from './helpers.js';

let root: string;
let done: () => Promise<void>;
let loaded: LoadResult;

const POLICY = `apiVersion: switchboard/v1
kind: Policy
metadata: { name: caps }
spec:
  rules:
    - id: geo-cap
      match: { kind: Entitlement, where: { type: { pattern: " geo$" } } }
      limit: { field: entitlement, max: 500 }
`;
const sub = (id: string, extra = '') => `billingId: ${id}
subscriptions:
  - name: main
    billingId: ${id}-MAIN
    uc: uc_alpha${extra}`;

beforeAll(async () => {
  ({ dir: root, done } = await scratch('baseline-compose'));
  loaded = await loadCase(root, {
    'baselines/big.yaml': baseline(
      'big',
      '{ resellers: [north] }',
      `subscriptions:
  - select: { uc: uc_alpha }
    entitlements:
      - { type: BE geo, entitlement: 600 }
      - { type: BE tollfree, entitlement: 2 }`,
    ),
    'policy.yaml': POLICY,
    'a.yaml': tenant('alpha', sub('T-A')),
    'b.yaml': tenant(
      'beta',
      sub('T-B', '\n    entitlements:\n      - { type: BE geo, entitlement: 400 }'),
      'overrides:\n  - { path: "spec.subscriptions[main].entitlements[BE geo].entitlement", reason: small office }',
    ),
    'c.yaml': tenant(
      'gamma',
      sub('T-C', '\n    entitlements:\n      - { type: BE geo, entitlement: 700 }'),
      'overrides:\n  - { path: "spec.subscriptions[main].entitlements[BE geo].entitlement", reason: call centre }',
    ),
  });
  expect(said(loaded.diagnostics)).toEqual([]);
});
afterAll(() => done());

function facts(): PolicyFacts {
  const set = loaded.set;
  return {
    declared: toDesiredNodes(set),
    tables: set.routingTables,
    changes: [],
    liveCounts: new Map(),
    tableLiveCounts: new Map(),
    capacity: [],
    references: new Map(),
    sourceOf: (address, field) => {
      const at = set.sourceOf(address, field);
      return at && `${at.file}:${at.line}:${at.column}`;
    },
  };
}

describe('baselines with the rest', () => {
  it("policy rules see effective values: the baseline's at its line, an override's at the tenant's", async () => {
    const out = await evaluatePolicies(loaded.policies, facts(), { allowPolicy: [] });
    expect(out.errors.map((e) => [e.rule, e.address, e.source?.replace(/^.*\/case-[^/]+\//, '')])).toEqual([
      ['geo-cap', 'tenant/alpha/subscription/main/entitlement/BE geo', 'baselines/big.yaml:10:29'],
      ['geo-cap', 'tenant/gamma/subscription/main/entitlement/BE geo', 'c.yaml:15:27'],
    ]);
  });

  it('--target selects the effective objects, those a baseline gives included', () => {
    const selected = selectTargets(toDesiredNodes(loaded.set), ['tenant/alpha/subscription/main/entitlement/*'], []);
    expect(selected.map((n) => n.address)).toEqual(
      expect.arrayContaining([
        'tenant/alpha/subscription/main/entitlement/BE geo',
        'tenant/alpha/subscription/main/entitlement/BE tollfree',
      ]),
    );
    expect(selected.some((n) => n.address.startsWith('tenant/beta'))).toBe(false);
  });
});
