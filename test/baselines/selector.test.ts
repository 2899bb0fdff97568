/**
 * Which tenants a Baseline selects (docs/baselines.md, "Selecting tenants"): by reseller, by
 * group (named by the tenant, or by its reseller's document), and by labels as Kubernetes
 * label selectors match them (a value, in, notIn, which an absent label matches, exists),
 * every criterion at once; and the selector as plans print it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadResult } from '../../src/manifest/index.js';
import { baseline, loadCase, said, scratch } from './helpers.js';

let root: string;
let done: () => Promise<void>;
let loaded: LoadResult;

const reseller = (name: string, group: string) =>
  `apiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: ${name}, group: ${group} }\nspec: { billingId: R-${name} }\n`;
const tenant = (name: string, owner: string, labels = '') =>
  `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: ${name}, ${owner}${labels ? `, labels: ${labels}` : ''} }\n` +
  `spec:\n  billingId: T-${name}\n  subscriptions:\n    - { name: main, billingId: T-${name}-MAIN, uc: uc_alpha }\n`;
/** A baseline giving its own entitlement type, so that no two of them set one value. */
const giving = (name: string, selector: string, type: string) =>
  baseline(
    name,
    selector,
    `subscriptions:\n  - select: { uc: uc_alpha }\n    entitlements: [{ type: ${type}, entitlement: 1 }]`,
  );

const SELECTORS: [string, string, string[], string][] = [
  ['by-reseller', '{ resellers: [north] }', ['t-a', 't-b'], 'resellers: north'],
  ['by-group', '{ groups: [g1] }', ['t-a', 't-b', 't-d'], 'groups: g1'],
  ['label-value', '{ labels: { offer: office } }', ['t-a'], 'labels: offer=office'],
  ['label-in', '{ labels: { tier: { in: [gold, silver] } } }', ['t-a'], 'labels: tier in (gold, silver)'],
  ['label-not-in', '{ labels: { tier: { notIn: [trial] } } }', ['t-a', 't-b', 't-d'], 'labels: tier notin (trial)'],
  ['label-absent', '{ labels: { offer: { exists: false } } }', ['t-c', 't-d'], 'labels: !offer'],
  ['all-of', '{ groups: [g1], labels: { offer: { exists: true } } }', ['t-a', 't-b'], 'groups: g1; labels: offer'],
  ['everyone', '{}', ['t-a', 't-b', 't-c', 't-d'], 'every document'],
];
const TYPES = ['BE geo', 'BE tollfree', 'NL geo', 'FR geo', 'DE geo', 'BE mobile', 'BE premium', 'NL tollfree'];

beforeAll(async () => {
  ({ dir: root, done } = await scratch('baseline-selector'));
  loaded = await loadCase(root, {
    'resellers.yaml': `${reseller('north', 'g1')}---\n${reseller('south', 'g2')}`,
    'a.yaml': tenant('t-a', 'reseller: north', '{ offer: office, tier: gold }'),
    'b.yaml': tenant('t-b', 'reseller: north', '{ offer: shop }'),
    'c.yaml': tenant('t-c', 'reseller: south', '{ tier: trial }'),
    'd.yaml': tenant('t-d', 'group: g1'),
    ...Object.fromEntries(
      SELECTORS.map(([name, selector], i) => [`baselines/${name}.yaml`, giving(name, selector, TYPES[i] ?? '')]),
    ),
  });
});
afterAll(() => done());

describe('selectors', () => {
  it('select by reseller, by group through the reseller document, by labels, all criteria at once', () => {
    expect(said(loaded.diagnostics)).toEqual([]);
    for (const [name, , tenants, text] of SELECTORS) {
      expect(loaded.baselines?.selectedBy(name).sort(), name).toEqual(tenants.map((t) => `tenant/${t}`));
      expect(loaded.baselines?.selectorOf(name), name).toBe(text);
    }
  });

  it('a selected tenant declares what its baselines give; an unselected one does not', () => {
    const types = (t: string) =>
      TYPES.filter((type) => loaded.set.get(`tenant/${t}/subscription/main/entitlement/${type}`) !== undefined);
    SELECTORS.forEach(([, , tenants], i) => {
      for (const t of ['t-a', 't-b', 't-c', 't-d'])
        expect(types(t).includes(TYPES[i] ?? ''), `${t} ${TYPES[i]}`).toBe(tenants.includes(t));
    });
  });
});
