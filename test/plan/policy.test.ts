import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests, type DesiredSet, type PolicyRule } from '../../src/manifest/index.js';
import { evaluatePolicies, MAX_LISTED_VIOLATIONS } from '../../src/plan/policy/evaluate.js';
import { FormerNames } from '../../src/plan/former-names.js';
import type { PolicyFacts } from '../../src/plan/policy/facts.js';
import type { Change } from '../../src/plan/types.js';
import type { DesiredNode } from '../../src/state/types.js';

const ROW = 'RoutingRow';

/** Loads manifests (and a Policy document of `rules`) from a temporary folder. */
async function load(files: Record<string, string>, rules: string): Promise<{ set: DesiredSet; rules: PolicyRule[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-policy-'));
  const policy = `apiVersion: switchboard/v1\nkind: Policy\nmetadata: { name: p }\nspec:\n  rules:\n${rules}`;
  for (const [name, text] of Object.entries({ ...files, 'policy.yaml': policy }))
    await writeFile(join(dir, name), text);
  const loaded = await loadManifests([dir], { cwd: dir, env: {} });
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { set: loaded.set, rules: loaded.policies };
}

function facts(set: DesiredSet, extra: Partial<PolicyFacts> = {}): PolicyFacts {
  const declared: DesiredNode[] = set.platformObjects().map((o) => ({
    kind: o.kind,
    address: o.address,
    fields: o.fields,
    declaredCollections: o.declaredCollections,
    ...(o.parentAddress ? { parentAddress: o.parentAddress } : {}),
  }));
  return {
    declared,
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
    ...extra,
  };
}

const tenants = (...specs: string[]) =>
  specs
    .map(
      (spec, i) =>
        `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: t${i}, reseller: north }\nspec:\n${spec}`,
    )
    .join('---\n');

const table = (rows: number, route: (i: number) => string) => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: active }
spec:
  key: [number]
  records:
${Array.from({ length: rows }, (_, i) => `    - { number: "+32${String(i).padStart(6, '0')}", route: ${route(i)} }`).join('\n')}
`;

describe('the policy engine', () => {
  it('where: equality (a number equals its text), in, not, pattern; an undeclared field reads as null', async () => {
    const { set, rules } = await load(
      { 't.yaml': tenants('  markup: 4\n', '  markup: 4\n', '  markup: 5\n', '  billingId: T-X\n') },
      `    - id: eq
      match: { kind: Tenant, where: { markup: "4" } }
      require: { field: billingId }
    - id: in
      match: { kind: Tenant, where: { markup: { in: [5] } } }
      require: { field: billingId }
    - id: not
      match: { kind: Tenant, where: { markup: { not: null } } }
      require: { field: billingId }
    - id: pattern
      match: { kind: Tenant, where: { name: { pattern: "^t[23]$" } } }
      require: { field: billingId, present: false }
    - id: unset
      match: { kind: Tenant, where: { markup: null } }
      require: { field: billingId, pattern: "^T-" }
`,
    );
    const out = await evaluatePolicies(rules, facts(set), { allowPolicy: [] });
    expect(out.errors.map((e) => `${e.rule} ${e.address}`)).toEqual([
      'eq tenant/t0',
      'eq tenant/t1',
      'in tenant/t2',
      'not tenant/t0',
      'not tenant/t1',
      'not tenant/t2',
      'pattern tenant/t3',
    ]);
    expect(out.errors.at(-1)?.message).toBe('declares billingId, which must be left out');
  });

  it('rows of a table on its compact arrays, with where and address; at most 20 listed, the rest counted', async () => {
    const { set, rules } = await load(
      { 'routes.yaml': table(30, (i) => (i % 2 === 0 ? 'trunk-a' : 'trunk-b')) },
      `    - id: no-b
      match: { kind: RoutingRow, table: draas/active/routes, where: { route: trunk-b } }
      require: { field: route, oneOf: [trunk-a] }
    - id: few
      match: { kind: RoutingRow, address: "routing/draas/active/routes/number=+3200000*" }
      require: { field: priority }
`,
    );
    const out = await evaluatePolicies(rules, facts(set), { allowPolicy: [] });
    const noB = out.errors.filter((e) => e.rule === 'no-b');
    expect(noB).toHaveLength(15);
    expect(noB[0]).toEqual({
      code: 'SB_POLICY',
      rule: 'no-b',
      address: 'routing/draas/active/routes/number=+32000001',
      message: 'route "trunk-b" is not one of trunk-a',
      source: expect.stringMatching(/routes\.yaml:8:7$/),
    });
    const few = out.errors.filter((e) => e.rule === 'few');
    expect(few).toHaveLength(10); // +32000000 … +32000009
    const { rules: many } = await load(
      {},
      '    - id: x\n      match: { kind: Tenant }\n      require: { field: name }\n',
    );
    const big = await load(
      { 'routes.yaml': table(50, () => 'x') },
      '    - id: all\n      match: { kind: RoutingRow }\n      require: { field: priority }\n',
    );
    const capped = await evaluatePolicies(big.rules, facts(big.set), { allowPolicy: [] });
    expect(capped.errors).toHaveLength(MAX_LISTED_VIOLATIONS + 1);
    expect(capped.errors.at(-1)).toMatchObject({ message: '… and 30 more violations of this rule, not listed' });
    expect(many).toHaveLength(1);
  });

  it('limit: unmanaged fields are left alone; capacity figures are checked per row at the address', async () => {
    const sub =
      '  subscriptions:\n    - name: main\n      billingId: T-M\n      entitlements:\n        - { type: BE geo, entitlement: 10 }\n';
    const { set, rules } = await load(
      { 't.yaml': tenants(`  markup: 4\n${sub}`, '  billingId: T-1\n') },
      `    - id: markup
      match: { kind: Tenant }
      limit: { field: markup, min: 5 }
    - id: room
      match: { kind: Entitlement }
      limit: { field: headroom, min: 5 }
    - id: subscription-room
      match: { kind: Subscription }
      limit: { field: headroom, min: 5 }
`,
    );
    const entitlement = 'tenant/t0/subscription/main/entitlement/BE geo';
    const scope = 'tenant/t0/subscription/main';
    const row = { address: entitlement, scope, subject: 'entitlement BE geo', declared: 10, assigned: 7, reserved: 0 };
    const capacity = [
      { ...row, headroom: 3 },
      { ...row, subject: 'something else', headroom: null },
    ];
    const out = await evaluatePolicies(rules, facts(set, { capacity }), { allowPolicy: [] });
    expect(out.errors.map((e) => `${e.rule} ${e.address}: ${e.message}`)).toEqual([
      'markup tenant/t0: markup is 4, below the minimum 5',
      `room ${entitlement}: entitlement BE geo: headroom is 3, below the minimum 5`,
      // A subscription's rule checks each of its rows, its entitlements' too (docs/policies.md).
      `subscription-room ${scope}: entitlement BE geo: headroom is 3, below the minimum 5`,
    ]);
  });

  it('severity warning, overrides (warnings, said so), and an unreadable reference is reported as unchecked', async () => {
    const { set, rules } = await load(
      { 't.yaml': tenants('  billingId: X\n') },
      `    - id: ids
      match: { kind: Tenant }
      require: { field: billingId, pattern: "^T-" }
    - id: soft
      severity: warning
      match: { kind: Tenant }
      require: { field: markup }
    - id: ref
      match: { kind: Tenant }
      reference: { field: billingId, kind: Product, key: sku }
`,
    );
    const out = await evaluatePolicies(rules, facts(set), { allowPolicy: ['ids'] });
    expect(out.errors).toEqual([]);
    expect(out.warnings.map((w) => [w.code, w.rule, w.message])).toEqual([
      ['SB_POLICY', 'ids', 'allowed by --allow-policy ids: billingId "X" does not match ^T-'],
      ['SB_POLICY', 'soft', 'declares no markup'],
      ['SB_POLICY_UNCHECKED', 'ref', 'the objects of Product could not be read: rule ref was not checked'],
    ]);
    const read = await evaluatePolicies(rules, facts(set, { references: new Map([['ref', new Set(['X'])]]) }), {
      allowPolicy: ['ids'],
    });
    expect(read.warnings.map((w) => w.rule)).toEqual(['ids', 'soft']);
  });

  it("a coverage rule's warn bound stays a warning past the listed violations: the count too", async () => {
    const rule = {
      id: 'emergency-addresses',
      policy: 'p',
      severity: 'error',
      source: 'p.yaml:1:1',
      match: { kind: 'Subscription', where: [] },
      check: { type: 'coverage', bounds: { numbersWithoutAddress: 'warn' } },
    } as unknown as PolicyRule;
    const list = (count: number, items: string[] = []) => ({ count, items });
    const scopes = Array.from({ length: MAX_LISTED_VIOLATIONS + 1 }, (_, i) => ({
      address: `tenant/t${i}/subscription/main`,
      numbers: 1,
      withoutAddress: list(1, ['+3221234560']),
      unverified: list(0),
      verificationUnknown: list(0),
      unusedAddresses: list(0),
      effect: { linksAdded: list(0), linksMoved: list(0), addressesInUse: [], withoutAddressAfter: 1 },
    }));
    const declared = scopes.map((s) => ({ kind: 'Subscription', address: s.address, fields: {} }));
    const out = await evaluatePolicies(
      [rule],
      {
        declared,
        tables: [],
        changes: [],
        liveCounts: new Map(),
        tableLiveCounts: new Map(),
        capacity: [],
        coverage: { scopes, listLimit: 100 },
        references: new Map(),
        sourceOf: () => undefined,
      } as unknown as PolicyFacts,
      { allowPolicy: [] },
    );
    expect(out.errors).toEqual([]);
    expect(out.warnings).toHaveLength(MAX_LISTED_VIOLATIONS + 1);
    expect(out.warnings.at(-1)?.message).toMatch(/and 1 more violations of this rule, not listed/);
  });

  it("forbid with where sees a routing row's declared fields, and the row before and after the change", async () => {
    const { set, rules } = await load(
      { 'routes.yaml': table(4, (i) => (i % 2 === 0 ? 'trunk-a' : 'trunk-b')) },
      `    - id: keep-b
      match: { kind: RoutingRow, table: draas/active/routes, where: { route: trunk-b } }
      forbid: [update]
`,
    );
    const update = (i: number, before: Record<string, unknown>, after: Record<string, unknown>): Change => ({
      address: `routing/draas/active/routes/number=+3200000${i}`,
      kind: ROW,
      provider: 'routing',
      action: 'update',
      before,
      after,
      patch: [],
      reason: '',
      dependsOn: [],
      requests: [],
    });
    const changes = [
      update(1, { priority: 10 }, { priority: 15 }), // a trunk-b row whose priority changes: route is declared
      update(3, { route: 'trunk-b' }, { route: 'trunk-a' }), // re-routed away from trunk-b
      update(0, { priority: 1 }, { priority: 2 }), // a trunk-a row: allowed
    ];
    const out = await evaluatePolicies(rules, facts(set, { changes }), { allowPolicy: [] });
    expect(out.errors.map((e) => e.address)).toEqual([
      'routing/draas/active/routes/number=+32000001',
      'routing/draas/active/routes/number=+32000003',
    ]);
  });

  it('forbid with where judges a delete by the row it deletes and a create by the row it makes', async () => {
    const { set, rules } = await load(
      {},
      `    - id: unrouted-only
      match: { kind: RoutingRow, table: draas/active/routes, where: { route: null } }
      forbid: [delete, create]
`,
    );
    const change = (
      i: number,
      action: Change['action'],
      before: Record<string, unknown> | null,
      after: Record<string, unknown> | null,
    ): Change => ({
      address: `routing/draas/active/routes/number=+3200000${i}`,
      kind: ROW,
      provider: 'routing',
      action,
      before,
      after,
      patch: [],
      reason: '',
      dependsOn: [],
      requests: [],
    });
    const changes = [
      change(1, 'delete', { route: 'trunk-a' }, null), // a routed row: its missing after is not an unrouted row
      change(2, 'delete', { priority: 3 }, null), // an unrouted row: forbidden
      change(3, 'create', null, { route: 'trunk-b' }), // a routed row made: its missing before is nothing
      change(4, 'create', null, { priority: 1 }), // an unrouted row made: forbidden
    ];
    const out = await evaluatePolicies(rules, facts(set, { changes }), { allowPolicy: [] });
    expect(out.errors.map((e) => e.address)).toEqual([
      'routing/draas/active/routes/number=+32000002',
      'routing/draas/active/routes/number=+32000004',
    ]);
  });

  it('forbid by address holds for the object under its former name, and for what is below it', async () => {
    const { set, rules } = await load(
      { 't.yaml': tenants('  markup: 4\n') },
      `    - id: frozen-acme
      match: { kind: Tenant, address: tenant/acme-corp }
      forbid: [update]
    - id: frozen-main
      match: { kind: Subscription, address: tenant/acme-corp/subscription/main }
      forbid: [update]
`,
    );
    const change = (kind: string, address: string, previousAddress?: string): Change => ({
      address,
      ...(previousAddress ? { previousAddress } : {}),
      kind,
      provider: 'platform',
      action: 'update',
      before: { markup: 4 },
      after: { markup: 5 },
      patch: [],
      reason: '',
      dependsOn: [],
      requests: [],
    });
    const changes = [
      change('Tenant', 'tenant/acme-group', 'tenant/acme-corp'),
      change('Subscription', 'tenant/acme-group/subscription/main'),
    ];
    // The renames are the plan's, not its changes': under --target the tenant's rename is not one of them.
    const former = new FormerNames([['tenant/acme-group', 'tenant/acme-corp']]);
    const out = await evaluatePolicies(rules, facts(set, { changes, former }), { allowPolicy: [] });
    expect(out.errors.map((e) => `${e.rule}: ${e.address ?? ''}`)).toEqual([
      'frozen-acme: tenant/acme-group',
      'frozen-main: tenant/acme-group/subscription/main',
    ]);
    const targeted = await evaluatePolicies(rules, facts(set, { changes: changes.slice(1), former }), {
      allowPolicy: [],
    });
    expect(targeted.errors.map((e) => `${e.rule}: ${e.address ?? ''}`)).toEqual([
      'frozen-main: tenant/acme-group/subscription/main',
    ]);
  });

  it('forbid and threshold over changes', async () => {
    const { set, rules } = await load(
      { 't.yaml': tenants('  markup: 4\n') },
      `    - id: no-deletes
      match: { kind: RoutingRow, table: draas/active/routes, where: { route: trunk-a } }
      forbid: [delete]
    - id: share
      match: { kind: RoutingRow, table: draas/active/routes }
      threshold: { update: 10%, delete: 20%, min: 5 }
`,
    );
    const row = (
      i: number,
      action: Change['action'],
      before: Record<string, unknown>,
      after: Record<string, unknown> | null,
    ): Change => ({
      address: `routing/draas/active/routes/number=+3200000${i}`,
      kind: ROW,
      provider: 'routing',
      action,
      before,
      after,
      patch: after ? Object.entries(after).map(([k, v]) => ({ op: 'replace' as const, path: `/${k}`, value: v })) : [],
      reason: '',
      dependsOn: [],
      requests: [],
    });
    const changes = [
      row(1, 'delete', { route: 'trunk-a' }, null),
      row(2, 'delete', { route: 'trunk-b' }, null),
      row(3, 'update', { route: 'trunk-a' }, { route: 'trunk-c' }),
      row(4, 'update', { route: null }, { route: 'trunk-c' }), // fills: does not count
    ];
    const tableLiveCounts = new Map([['routing/draas/active/routes', 10]]);
    // 10 live rows: 1 overwrite (10 %, not above 10 %) and 2 deletes (20 %, not above 20 %).
    const out = await evaluatePolicies(rules, facts(set, { changes, tableLiveCounts }), { allowPolicy: [] });
    expect(out.errors.map((e) => `${e.rule}: ${e.address ?? ''} ${e.message}`)).toEqual([
      'no-deletes: routing/draas/active/routes/number=+32000001 the plan would delete it, which the rule forbids',
    ]);
    const five = new Map([['routing/draas/active/routes', 5]]);
    const stricter = await evaluatePolicies(rules, facts(set, { changes, tableLiveCounts: five }), {
      allowPolicy: [],
    });
    expect(stricter.errors.slice(1).map((e) => [e.message, e.address, e.source])).toEqual([
      [
        "the plan overwrites values of 1 of the 5 live rows of routing/draas/active/routes in scope (20.0%), above the rule's 10%",
        undefined,
        expect.stringMatching(/policy\.yaml:9:7$/),
      ],
      [
        "the plan deletes 2 of the 5 live rows of routing/draas/active/routes in scope (40.0%), above the rule's 20%",
        undefined,
        expect.stringMatching(/policy\.yaml:9:7$/),
      ],
    ]);
    const few = await evaluatePolicies(
      rules,
      facts(set, { changes, tableLiveCounts: new Map([['routing/draas/active/routes', 4]]) }),
      {
        allowPolicy: [],
      },
    );
    expect(few.errors.map((e) => e.rule)).toEqual(['no-deletes']); // under min: 5
  });
});
