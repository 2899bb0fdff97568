/**
 * docs/policies.md "Policies from the base": how a rule changed, and whether that lets a plan
 * pass what the rule at the base refused or warned about (looser) or the reverse (stricter).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests, type PolicyRule } from '../../src/manifest/index.js';
import { policyChanges } from '../../src/plan/policy-changes.js';

async function rules(yaml: string): Promise<PolicyRule[]> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-policy-'));
  await writeFile(
    join(dir, 'p.yaml'),
    `apiVersion: switchboard/v1\nkind: Policy\nmetadata: { name: guardrails }\nspec:\n  rules:\n${yaml}`,
  );
  const loaded = await loadManifests([dir], { cwd: dir });
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return loaded.policies;
}

const rule = (id: string, body: string, severity = 'error') =>
  `    - id: ${id}\n      severity: ${severity}\n${body
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n')}\n`;

async function changeOf(before: string, after: string) {
  const changes = policyChanges(await rules(before), await rules(after));
  expect(changes).toHaveLength(1);
  return changes[0];
}

describe('policyChanges', () => {
  it('a limit raised is looser, lowered is stricter; the detail says from what to what', async () => {
    const limit = (max: number) =>
      rule('geo-cap', `match: { kind: Entitlement }\nlimit: { field: entitlement, max: ${max} }`);
    expect(await changeOf(limit(500), limit(5000))).toEqual({
      rule: 'geo-cap',
      policy: 'guardrails',
      change: 'changed',
      effect: 'looser',
      details: ['limit max 500 → 5000: looser'],
      source: expect.stringMatching(/p\.yaml:6:7$/) as unknown,
    });
    expect((await changeOf(limit(500), limit(50)))?.effect).toBe('stricter');
    const min = (n: number) => rule('min', `match: { kind: Entitlement }\nlimit: { field: headroom, min: ${n} }`);
    expect((await changeOf(min(5), min(1)))?.details).toEqual(['limit min 5 → 1: looser']);
  });

  const cases: [string, string, string, string][] = [
    [
      'severity error → warning',
      rule('r', 'match: { kind: Tenant }\nrequire: { field: billingId }'),
      rule('r', 'match: { kind: Tenant }\nrequire: { field: billingId }', 'warning'),
      'looser',
    ],
    [
      'a where test added (the rule applies to fewer objects)',
      rule('r', 'match: { kind: Tenant }\nrequire: { field: billingId }'),
      rule('r', 'match: { kind: Tenant, where: { markup: 5 } }\nrequire: { field: billingId }'),
      'looser',
    ],
    [
      'an address removed (the rule applies to more objects)',
      rule('r', 'match: { kind: Tenant, address: "tenant/acme-*" }\nrequire: { field: billingId }'),
      rule('r', 'match: { kind: Tenant }\nrequire: { field: billingId }'),
      'stricter',
    ],
    [
      'oneOf grown',
      rule('r', 'match: { kind: Subscription }\nrequire: { field: uc, oneOf: [uc_alpha] }'),
      rule('r', 'match: { kind: Subscription }\nrequire: { field: uc, oneOf: [uc_alpha, uc_beta] }'),
      'looser',
    ],
    [
      'a pattern replaced by another',
      rule('r', 'match: { kind: Tenant }\nrequire: { field: billingId, pattern: "^T-" }'),
      rule('r', 'match: { kind: Tenant }\nrequire: { field: billingId, pattern: "^X-" }'),
      'unclear',
    ],
    [
      'forbid: one action dropped, one added',
      rule('r', 'match: { kind: Tenant }\nforbid: [delete]'),
      rule('r', 'match: { kind: Tenant }\nforbid: [replace]'),
      'mixed',
    ],
    [
      'forbid replace narrowed to the replaces one field forces (replacedBy given)',
      rule('r', 'match: { kind: TrunkGroupBlockList }\nforbid: [replace]'),
      rule('r', 'match: { kind: TrunkGroupBlockList }\nforbid: [replace]\nreplacedBy: [region]'),
      'looser',
    ],
    [
      'replacedBy with a field more (more replaces forbidden)',
      rule('r', 'match: { kind: TrunkGroupBlockList }\nforbid: [replace]\nreplacedBy: [region]'),
      rule('r', 'match: { kind: TrunkGroupBlockList }\nforbid: [replace]\nreplacedBy: [region, country]'),
      'stricter',
    ],
    [
      'a threshold share raised',
      rule('r', 'match: { kind: Tenant }\nthreshold: { update: 20%, min: 10 }'),
      rule('r', 'match: { kind: Tenant }\nthreshold: { update: 50%, min: 10 }'),
      'looser',
    ],
    [
      'a threshold min raised (checked on fewer plans)',
      rule('r', 'match: { kind: Tenant }\nthreshold: { update: 20%, min: 10 }'),
      rule('r', 'match: { kind: Tenant }\nthreshold: { update: 20%, min: 100 }'),
      'looser',
    ],
    [
      'the check type changed',
      rule('r', 'match: { kind: Tenant }\nforbid: [delete]'),
      rule('r', 'match: { kind: Tenant }\nrequire: { field: billingId }'),
      'unclear',
    ],
  ];
  for (const [what, before, after, effect] of cases) {
    it(`${what}: ${effect}`, async () => {
      expect((await changeOf(before, after))?.effect).toBe(effect);
    });
  }

  it('a rule removed is looser, a rule added stricter; a description alone is neutral; the same rules, nothing', async () => {
    const a = rule('a', 'match: { kind: Tenant }\nforbid: [delete]');
    const b = rule('b', 'match: { kind: Tenant }\nrequire: { field: billingId }');
    const described = rule('a', 'description: why\nmatch: { kind: Tenant }\nforbid: [delete]');
    const changes = policyChanges(
      await rules(a + b),
      await rules(described + rule('c', 'match: { kind: Tenant }\nforbid: [replace]')),
    );
    expect(changes.map((c) => [c.rule, c.change, c.effect])).toEqual([
      ['a', 'changed', 'neutral'],
      ['c', 'added', 'stricter'],
      ['b', 'removed', 'looser'],
    ]);
    expect(policyChanges(await rules(a), await rules(a))).toEqual([]);
  });
});
