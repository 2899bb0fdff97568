import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';

async function loadPolicy(rules: string) {
  const dir = await mkdtemp(join(tmpdir(), 'sb-policy-doc-'));
  await writeFile(
    join(dir, 'p.yaml'),
    `apiVersion: switchboard/v1\nkind: Policy\nmetadata: { name: p }\nspec:\n  rules:\n${rules}`,
  );
  return loadManifests([dir], { cwd: dir, env: {} });
}

describe('Policy documents', () => {
  it('become rules: defaults (error severity, threshold min 10), percentages as text or number, tables as addresses', async () => {
    const { policies, diagnostics, set } = await loadPolicy(`    - id: a
      match: { kind: Tenant, address: "tenant/acme-*", where: { markup: 4, name: { in: [x, y] }, billingId: { not: null } } }
      forbid: [delete, replace]
    - id: b
      severity: warning
      description: why
      match: { kind: RoutingRow, table: draas/active/routes }
      threshold: { update: 12.5%, delete: 5 }
    - id: c
      match: { kind: RoutingRow }
      reference: { field: route, table: draas/active/carriers, key: carrier }
`);
    expect(diagnostics.map((d) => `${d.severity} ${d.source?.line}:${d.source?.column} ${d.message}`)).toEqual([
      'warning 12:41 no manifest declares the routing table routing/draas/active/routes: rule b checks nothing',
    ]);
    expect(set.objects).toEqual([]); // a policy declares no object
    expect(policies.map(({ source: _s, ...rule }) => rule)).toEqual([
      {
        id: 'a',
        policy: 'p',
        severity: 'error',
        match: {
          kind: 'Tenant',
          address: 'tenant/acme-*',
          where: [
            { field: 'markup', test: { type: 'equals', value: 4 } },
            { field: 'name', test: { type: 'in', values: ['x', 'y'] } },
            { field: 'billingId', test: { type: 'not', value: null } },
          ],
        },
        check: { type: 'forbid', actions: ['delete', 'replace'] },
      },
      {
        id: 'b',
        policy: 'p',
        severity: 'warning',
        description: 'why',
        match: { kind: 'RoutingRow', table: 'routing/draas/active/routes', where: [] },
        check: { type: 'threshold', update: 12.5, delete: 5, min: 10 },
      },
      {
        id: 'c',
        policy: 'p',
        severity: 'error',
        match: { kind: 'RoutingRow', where: [] },
        check: { type: 'reference', field: 'route', table: 'routing/draas/active/carriers', key: 'carrier' },
      },
    ]);
    expect(policies[0]?.source).toMatch(/p\.yaml:6:7$/);
  });

  it('reports what the kind table says is wrong at the rule, and keeps the valid rules of the document', async () => {
    const { policies, diagnostics } = await loadPolicy(`    - id: ok
      match: { kind: Entitlement }
      limit: { field: headroom, min: 1 }
    - id: bad
      match: { kind: Tenant }
      limit: { field: headroom, min: 1, max: 0 }
`);
    expect(policies.map((r) => r.id)).toEqual(['ok']);
    expect(diagnostics.map((d) => `${d.source?.line}:${d.source?.column} ${d.code} ${d.message}`)).toEqual([
      '11:14 SB_POLICY_RULE min 1 is above max 0: nothing could pass',
      '11:23 SB_POLICY_RULE Tenant has no field "headroom"; its fields are name, billingId, markup',
    ]);
  });

  it('a routing-row rule whose field no declared table has is an error: it would check nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-policy-doc-'));
    await writeFile(
      join(dir, 'routes.yaml'),
      'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: routes, service: draas, version: active }\n' +
        'spec:\n  key: [number]\n  records:\n    - { number: "+321", route: trunk-1, priority: 20 }\n',
    );
    await writeFile(
      join(dir, 'p.yaml'),
      `apiVersion: switchboard/v1\nkind: Policy\nmetadata: { name: p }\nspec:\n  rules:
    - id: cap
      match: { kind: RoutingRow, table: draas/active/routes }
      limit: { field: priorty, max: 15 }
    - id: routed
      match: { kind: RoutingRow, where: { Route: trunk-1 } }
      require: { field: carrier }
`,
    );
    const { diagnostics } = await loadManifests([dir], { cwd: dir, env: {} });
    expect(diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      'SB_POLICY_RULE rule cap: no declared routing table it matches has a column "priorty"; its columns are number, priority, route (did you mean "priority"?)',
      'SB_POLICY_RULE rule routed: no declared routing table it matches has a column "Route"; its columns are number, priority, route (did you mean "route"?)',
    ]);
  });
});
