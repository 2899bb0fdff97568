/**
 * The merge rules of docs/baselines.md, one kind of value at a time, through the loader:
 * what a document ends up declaring (its objects' fields), where each value is said to come
 * from, and the diagnostics with file:line:col.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explain } from '../../src/manifest/index.js';
import { baseline, loadCase, said, scratch, tenant } from './helpers.js';

let root: string;
let done: () => Promise<void>;
beforeAll(async () => ({ dir: root, done } = await scratch('baseline-merge')));
afterAll(() => done());

const OFFICE = baseline(
  'be-office',
  '{ resellers: [north] }',
  `markup: 5
subscriptions:
  - select: { uc: uc_alpha }
    entitlements:
      - { type: BE tollfree, entitlement: 2 }
    templates:
      - { sku: TPL-STD, name: Standard user, description: Office, location: BE, vrp: vrp-std, licenses: [LIC-A] }`,
);

const SUB = `billingId: T-A
subscriptions:
  - name: main
    billingId: T-A-MAIN
    uc: uc_alpha`;

describe('scalars are replaced', () => {
  it('a document without the field gets the baseline value, at the baseline line', async () => {
    const r = await loadCase(root, { 'b.yaml': OFFICE, 't.yaml': tenant('acme', SUB) });
    expect(said(r.diagnostics)).toEqual([]);
    expect(r.set.get('tenant/acme')?.fields['markup']).toBe(5);
    expect(r.set.sourceOf('tenant/acme', 'markup')).toMatchObject({ file: 'b.yaml', line: 7 });
  });

  it('an equal value needs no override; a different one without an override is an error naming both files', async () => {
    const same = await loadCase(root, { 'b.yaml': OFFICE, 't.yaml': tenant('acme', `markup: 5\n${SUB}`) });
    expect(same.ok).toBe(true);
    const differs = await loadCase(root, { 'b.yaml': OFFICE, 't.yaml': tenant('acme', `markup: 7\n${SUB}`) });
    expect(said(differs.diagnostics)).toEqual([
      't.yaml:7:11: error SB_BASELINE_OVERRIDE: spec.markup is 7 here, but baseline be-office sets 5 (b.yaml:7:13): ' +
        'declare the difference in metadata.overrides (- { path: spec.markup, reason: … }), or leave the value to the baseline',
    ]);
    expect(differs.set.get('tenant/acme')).toBeUndefined();
  });

  it('an override keeps the document value, and explain gives its reason and the baseline value', async () => {
    const r = await loadCase(root, {
      'b.yaml': OFFICE,
      't.yaml': tenant('acme', `markup: 7\n${SUB}`, 'overrides:\n  - { path: spec.markup, reason: contract 2026-114 }'),
    });
    expect(said(r.diagnostics)).toEqual([]);
    const object = r.set.get('tenant/acme');
    expect(object?.fields['markup']).toBe(7);
    const markup = explain(r.set, r.baselines, 'tenant/acme')?.objects[0]?.fields.find((f) => f.name === 'markup');
    expect(markup).toMatchObject({
      from: 'override',
      baseline: 'be-office',
      reason: 'contract 2026-114',
      baselineValue: 5,
      path: 'spec.markup',
      position: { file: 't.yaml', line: 9 },
    });
  });
});

describe('keyed lists merge by their kind identity', () => {
  it('entitlements by type: the baseline adds its items, the document keeps its own, equal items merge', async () => {
    const r = await loadCase(root, {
      'b.yaml': OFFICE,
      't.yaml': tenant('acme', `${SUB}\n    entitlements:\n      - { type: BE geo, entitlement: 10 }`),
    });
    expect(r.ok).toBe(true);
    const main = 'tenant/acme/subscription/main';
    expect(r.set.get(`${main}/entitlement/BE geo`)?.fields).toEqual({ type: 'BE geo', entitlement: 10 });
    expect(r.set.get(`${main}/entitlement/BE tollfree`)?.fields).toEqual({ type: 'BE tollfree', entitlement: 2 });
    // The whole item is the baseline's: its object points at the baseline's line.
    expect(r.set.sourceOf(`${main}/entitlement/BE tollfree`)).toMatchObject({ file: 'b.yaml', line: 11 });
    expect(r.set.get(main)?.declaredCollections).toEqual(['entitlements', 'templates']);
  });

  it('templates by sku: a partial item of the document gets the other fields from the baseline', async () => {
    const r = await loadCase(root, {
      'b.yaml': OFFICE,
      't.yaml': tenant(
        'acme',
        `${SUB}\n    templates:\n      - { sku: TPL-STD, vrp: vrp-gold }`,
        'overrides:\n  - { path: "spec.subscriptions[main].templates[TPL-STD].vrp", reason: gold customer }',
      ),
    });
    expect(said(r.diagnostics)).toEqual([]);
    const address = 'tenant/acme/subscription/main/template/TPL-STD';
    expect(r.set.get(address)?.fields).toEqual({
      sku: 'TPL-STD',
      vrp: 'vrp-gold',
      name: 'Standard user',
      description: 'Office',
      location: 'BE',
      licenses: ['LIC-A'],
    });
    expect(r.set.sourceOf(address)).toMatchObject({ file: 't.yaml', line: 15 });
    expect(r.set.sourceOf(address, 'vrp')).toMatchObject({ file: 't.yaml', line: 15 });
    expect(r.set.sourceOf(address, 'name')).toMatchObject({ file: 'b.yaml', line: 13 });
  });

  it('a list-valued field is one value: replaced whole, so a different list needs an override', async () => {
    const r = await loadCase(root, {
      'b.yaml': OFFICE,
      't.yaml': tenant('acme', `${SUB}\n    templates:\n      - { sku: TPL-STD, licenses: [LIC-A, LIC-B] }`),
    });
    expect(said(r.diagnostics)).toEqual([
      expect.stringContaining(
        't.yaml:13:37: error SB_BASELINE_OVERRIDE: spec.subscriptions[main].templates[TPL-STD].licenses is ["LIC-A","LIC-B"] here, but baseline be-office sets ["LIC-A"] (b.yaml:13:',
      ),
    ]);
  });

  it('block lists by name and their prefixes by prefix, under trunk groups by id', async () => {
    const b = baseline(
      'blocks',
      '{}',
      `subscriptions:
  - select: { uc: uc_alpha }
    trunkGroups:
      - id: 7
        blockList:
          - name: no-premium
            country: Belgium
            countryCode: "32"
            isoCode: BE
            prefixes: [{ prefix: "+32900", isExact: false }]`,
    );
    const own = `${SUB}
    trunkGroups:
      - id: 7
        blockList:
          - name: no-premium
            prefixes: [{ prefix: "+32903", isExact: false }]
          - { name: own-list, country: Belgium, countryCode: "32", isoCode: BE }`;
    const r = await loadCase(root, { 'b.yaml': b, 't.yaml': tenant('acme', own) });
    expect(said(r.diagnostics)).toEqual([]);
    const list = 'tenant/acme/subscription/main/trunkgroup/7/block_list/no-premium';
    expect(r.set.get(list)?.fields).toEqual({
      name: 'no-premium',
      country: 'Belgium',
      countryCode: '32',
      isoCode: 'BE',
    });
    expect(r.set.get(`${list}/prefix/+32900`)).toBeDefined();
    expect(r.set.get(`${list}/prefix/+32903`)).toBeDefined();
    expect(r.set.get('tenant/acme/subscription/main/trunkgroup/7/block_list/own-list')).toBeDefined();
  });

  it('a map keyed by identity (numbers by number) merges by key', async () => {
    const b = baseline(
      'numbers',
      '{}',
      `subscriptions:
  - name: main
    numbers:
      "+3221234562": { address: "Rue Haute 10, 1000 Brussels, Belgium" }`,
    );
    const r = await loadCase(root, {
      'b.yaml': b,
      't.yaml': tenant(
        'acme',
        `${SUB}\n    numbers:\n      "+3221234563": { address: "Meir 22, 2000 Antwerpen, Belgium" }`,
      ),
    });
    expect(said(r.diagnostics)).toEqual([]);
    expect(r.set.get('tenant/acme/subscription/main/number/+3221234562')?.fields['address']).toBe(
      'Rue Haute 10, 1000 Brussels, Belgium',
    );
    expect(r.set.get('tenant/acme/subscription/main/number/+3221234563')?.fields['address']).toBe(
      'Meir 22, 2000 Antwerpen, Belgium',
    );
  });
});

describe('a baseline item leaves a document only through an explicit override', () => {
  const remove =
    'overrides:\n  - { path: "spec.subscriptions[main].templates[TPL-STD]", reason: no templates, remove: true }';

  it('remove: true leaves the item out, and explain lists it', async () => {
    const r = await loadCase(root, { 'b.yaml': OFFICE, 't.yaml': tenant('acme', SUB, remove) });
    expect(said(r.diagnostics)).toEqual([]);
    expect(r.set.get('tenant/acme/subscription/main/template/TPL-STD')).toBeUndefined();
    expect(explain(r.set, r.baselines, 'tenant/acme')?.overrides).toEqual([
      expect.objectContaining({
        path: 'spec.subscriptions[main].templates[TPL-STD]',
        remove: true,
        reason: 'no templates',
      }),
    ]);
  });

  it('remove: true reaches inside an item the document does not declare, given by one baseline', async () => {
    const standard = baseline(
      'be-standard',
      '{ resellers: [north] }',
      `subscriptions:
  - name: main
    billingId: S-MAIN
    uc: uc_alpha
    entitlements:
      - { type: BE geo, entitlement: 10 }
      - { type: BE mobile, entitlement: 5 }`,
    );
    const leaveOut = (path: string) => `overrides:\n  - { path: "${path}", reason: no mobile, remove: true }`;
    const item = await loadCase(root, {
      'b.yaml': standard,
      't.yaml': tenant('acme', 'billingId: T-A', leaveOut('spec.subscriptions[main].entitlements[BE mobile]')),
    });
    expect(said(item.diagnostics)).toEqual([]);
    expect(item.set.get('tenant/acme/subscription/main/entitlement/BE geo')?.fields['entitlement']).toBe(10);
    expect(item.set.get('tenant/acme/subscription/main/entitlement/BE mobile')).toBeUndefined();
    const field = await loadCase(root, {
      'b.yaml': standard,
      't.yaml': tenant(
        'acme',
        'billingId: T-A',
        leaveOut('spec.subscriptions[main].entitlements[BE mobile].entitlement'),
      ),
    });
    expect(said(field.diagnostics)).toEqual([]);
    expect(field.set.get('tenant/acme/subscription/main/entitlement/BE mobile')?.fields).not.toHaveProperty(
      'entitlement',
    );
  });

  it('remove: true on an item the document declares is an error at the item', async () => {
    const r = await loadCase(root, {
      'b.yaml': OFFICE,
      't.yaml': tenant('acme', `${SUB}\n    templates:\n      - { sku: TPL-STD, vrp: other }`, remove),
    });
    expect(said(r.diagnostics)).toEqual([
      't.yaml:15:11: error SB_BASELINE: the override of spec.subscriptions[main].templates[TPL-STD] (metadata.overrides[0]) ' +
        "removes the baseline's value, but this tenant declares one: leave the value out, or drop remove: true to replace the baseline's",
      expect.stringMatching(
        /^t\.yaml:15:32: error SB_BASELINE_OVERRIDE: spec\.subscriptions\[main\]\.templates\[TPL-STD\]\.vrp is "other"/,
      ),
    ]);
  });

  it('remove: true on a field the document declares is an error at the value, even at the baseline value', async () => {
    for (const markup of [5, 7]) {
      const r = await loadCase(root, {
        'b.yaml': OFFICE,
        't.yaml': tenant(
          'acme',
          `markup: ${markup}\n${SUB}`,
          'overrides:\n  - { path: spec.markup, reason: x, remove: true }',
        ),
      });
      expect(said(r.diagnostics), `markup ${markup}`).toEqual([
        `t.yaml:9:11: error SB_BASELINE: the override of spec.markup (metadata.overrides[0]) removes the baseline's ` +
          "value, but this tenant declares one: leave the value out, or drop remove: true to replace the baseline's",
      ]);
    }
  });

  it('remove: true on a field leaves it unmanaged', async () => {
    const r = await loadCase(root, {
      'b.yaml': OFFICE,
      't.yaml': tenant('acme', SUB, 'overrides:\n  - { path: spec.markup, reason: billed elsewhere, remove: true }'),
    });
    expect(said(r.diagnostics)).toEqual([]);
    expect(r.set.get('tenant/acme')?.fields).not.toHaveProperty('markup');
  });
});

describe('a collection whose every baseline item an override removes', () => {
  it('is still declared (empty), so what is live in it is pruned with prune: true', async () => {
    const given = baseline(
      'be-geo',
      '{ resellers: [north] }',
      'subscriptions:\n  - select: { uc: uc_alpha }\n    entitlements:\n      - { type: BE geo, entitlement: 10 }',
    );
    const removed =
      'overrides:\n  - { path: "spec.subscriptions[main].entitlements[BE geo]", reason: no geo, remove: true }';
    const r = await loadCase(root, { 'b.yaml': given, 't.yaml': tenant('acme', SUB, removed) });
    expect(said(r.diagnostics)).toEqual([]);
    expect(r.set.get('tenant/acme/subscription/main/entitlement/BE geo')).toBeUndefined();
    // As a tenant writing `entitlements: []` would: declared, and nothing in it.
    expect(r.set.get('tenant/acme/subscription/main')?.declaredCollections).toEqual(['entitlements']);
  });
});

describe('select applies to the items a document declares', () => {
  it('only matching subscriptions get the values, and a document without them declares no collection', async () => {
    const r = await loadCase(root, {
      'b.yaml': OFFICE,
      't.yaml': tenant('acme', `${SUB}\n  - { name: lab, billingId: T-A-LAB, uc: uc_beta }`),
      'u.yaml': tenant('bare', 'billingId: T-B'),
    });
    expect(said(r.diagnostics)).toEqual([]);
    expect(r.set.get('tenant/acme/subscription/main/template/TPL-STD')).toBeDefined();
    expect(r.set.get('tenant/acme/subscription/lab/template/TPL-STD')).toBeUndefined();
    // No subscriptions key is made up for a tenant that has none: nothing would be pruned because of a baseline.
    expect(r.set.get('tenant/bare')?.declaredCollections).toEqual([]);
  });
});

describe('an override of a value the tenant leaves to the baseline', () => {
  it("is stale because the value is the baseline's, and says so", async () => {
    const r = await loadCase(root, {
      'b.yaml': OFFICE,
      't.yaml': tenant('acme', SUB, 'overrides:\n  - { path: spec.markup, reason: discount }'),
    });
    expect(said(r.diagnostics)).toEqual([
      expect.stringMatching(/SB_BASELINE_STALE_OVERRIDE: .*spec\.markup is what baseline be-office sets/),
    ]);
  });
});

describe('stale overrides are warnings at the override', () => {
  it('an override whose value equals the baseline, one of a path no baseline sets, one of an unselected document', async () => {
    const overrides = [
      'overrides:',
      '  - { path: spec.markup, reason: was different }',
      '  - { path: "spec.subscriptions[main].uc", reason: nothing sets it }',
    ].join('\n');
    const r = await loadCase(root, {
      'b.yaml': OFFICE,
      't.yaml': tenant('acme', `markup: 5\n${SUB}`, overrides),
      'u.yaml': tenant('south-one', 'billingId: T-S', 'overrides:\n  - { path: spec.markup, reason: old }', 'south'),
    });
    expect(said(r.diagnostics)).toEqual([
      't.yaml:7:7: warning SB_BASELINE_STALE_OVERRIDE: stale override: spec.markup is what baseline be-office sets: it no longer differs; remove the override',
      't.yaml:8:7: warning SB_BASELINE_STALE_OVERRIDE: stale override: no baseline that selects this tenant sets spec.subscriptions[main].uc; remove the override',
      'u.yaml:7:7: warning SB_BASELINE_STALE_OVERRIDE: stale override: no baseline selects this tenant, so spec.markup differs from none; remove the override',
    ]);
    expect(r.ok).toBe(true);
  });

  it('an override path that does not parse is an error at its path', async () => {
    const r = await loadCase(root, {
      'b.yaml': OFFICE,
      't.yaml': tenant('acme', SUB, 'overrides:\n  - { path: "subscriptions[main", reason: typo }'),
    });
    expect(said(r.diagnostics)).toEqual(['t.yaml:7:15: error SB_BASELINE: not a path: a "[" is never closed with "]"']);
  });
});

describe('two baselines setting one value of one document', () => {
  const premium = baseline('be-premium', '{ labels: { tier: premium } }', 'markup: 8');

  it('is an error at the second baseline naming both, said once for every document', async () => {
    const r = await loadCase(root, {
      'b.yaml': OFFICE,
      'p.yaml': premium,
      't.yaml': tenant('acme', SUB, 'labels: { tier: premium }'),
      'u.yaml': tenant('globex', 'billingId: T-G', 'labels: { tier: premium }'),
    });
    expect(said(r.diagnostics)).toEqual([
      'p.yaml:7:13: error SB_BASELINE_CONFLICT: baselines be-office (b.yaml:7:13) and be-premium both set spec.markup: ' +
        'a value of a tenant has one baseline; narrow a selector or a select, or keep the value in one baseline (for tenant/acme and 1 more)',
    ]);
  });

  it('merges items both give when they set different fields', async () => {
    const names = baseline(
      'names',
      '{}',
      'subscriptions:\n  - select: { uc: uc_alpha }\n    templates: [{ sku: TPL-STD, name: Standard user }]',
    );
    const vrps = baseline(
      'vrps',
      '{}',
      'subscriptions:\n  - select: { uc: uc_alpha }\n    templates: [{ sku: TPL-STD, description: Office, location: BE, vrp: v }]',
    );
    const r = await loadCase(root, { 'n.yaml': names, 'v.yaml': vrps, 't.yaml': tenant('acme', SUB) });
    expect(said(r.diagnostics)).toEqual([]);
    const address = 'tenant/acme/subscription/main/template/TPL-STD';
    expect(r.set.get(address)?.fields).toEqual({
      sku: 'TPL-STD',
      name: 'Standard user',
      description: 'Office',
      location: 'BE',
      vrp: 'v',
    });
    expect(r.set.sourceOf(address, 'name')?.file).toBe('n.yaml');
    expect(r.set.sourceOf(address, 'vrp')?.file).toBe('v.yaml');
  });
});

describe('what a baseline cannot say', () => {
  it('an item with both its identity and select, twice the same item, a name used twice', async () => {
    const b = baseline(
      'bad',
      '{}',
      `subscriptions:
  - name: main
    select: { uc: uc_alpha }
  - select: { uc: uc_beta }
    templates: [{ sku: A, vrp: x }, { sku: A, vrp: y }]`,
    );
    const r = await loadCase(root, {
      'b.yaml': b,
      'c.yaml': baseline('twice', '{}', 'markup: 1'),
      'd.yaml': baseline('twice', '{}', 'markup: 2'),
    });
    expect(said(r.diagnostics)).toEqual([
      'b.yaml:9:9: error SB_BASELINE: an item gives either name or select, not both',
      'b.yaml:11:41: error SB_BASELINE: templates[A] is given twice in this list (first at item 0)',
      "d.yaml:3:19: error SB_BASELINE: baseline twice is declared twice (first at c.yaml:3:19): a baseline's name is unique",
    ]);
  });

  it('a value the effective document may not hold is reported once at the baseline line, for every document', async () => {
    const b = baseline(
      'partial',
      '{}',
      'subscriptions:\n  - select: { uc: uc_alpha }\n    templates: [{ sku: TPL-X, vrp: v }]',
    );
    const r = await loadCase(root, {
      'b.yaml': b,
      't.yaml': tenant('acme', SUB),
      'u.yaml': tenant('globex', SUB.replace(/T-A/g, 'T-G')),
    });
    expect(said(r.diagnostics)).toEqual(
      ['name', 'description', 'location'].map(
        (field) =>
          `b.yaml:9:21: error SB_REQUIRED: missing required field "${field}" in "templates[0]" (for tenant/acme and 1 more)`,
      ),
    );
  });
});

describe('secrets from ${VAR} in a baseline stay sensitive in every document', () => {
  it('marks the field sensitive', async () => {
    const b = baseline(
      'secret',
      '{}',
      'subscriptions:\n  - select: { uc: uc_alpha }\n    templates: [{ sku: S, name: n, description: d, location: BE, vrp: "${VRP}" }]',
    );
    const r = await loadCase(root, { 'b.yaml': b, 't.yaml': tenant('acme', SUB) }, { VRP: 'hidden' });
    expect(said(r.diagnostics)).toEqual([]);
    expect(r.set.get('tenant/acme/subscription/main/template/S')?.sensitiveFields).toEqual(['vrp']);
  });
});
