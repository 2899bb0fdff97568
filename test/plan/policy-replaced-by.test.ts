/**
 * `forbid: [replace]` with `replacedBy`: a rule that forbids only the replaces one field
 * forces (a subscription moved to another UC platform), read from each change's
 * `replacedBy`; and the loader's checks of the fields it names, from the kind table.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { evaluatePolicies } from '../../src/plan/policy/evaluate.js';
import type { PolicyFacts } from '../../src/plan/policy/facts.js';
import type { Change } from '../../src/plan/types.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function load(rules: string) {
  const dir = await mkdtemp(join(tmpdir(), 'sb-replaced-by-'));
  dirs.push(dir);
  const policy = `apiVersion: switchboard/v1\nkind: Policy\nmetadata: { name: p }\nspec:\n  rules:\n${rules}`;
  await writeFile(join(dir, 'policy.yaml'), policy);
  return loadManifests([dir], { cwd: dir, env: {} });
}

const replace = (name: string, replacedBy: string[]): Change => ({
  address: `tenant/acme/subscription/${name}`,
  kind: 'Subscription',
  provider: 'platform',
  action: 'replace',
  before: { uc: 'uc_alpha' },
  after: { uc: 'uc_beta' },
  patch: [],
  reason: `the API cannot change ${replacedBy.join(', ')}`,
  reasonCode: 'immutable-field',
  replacedBy,
  liveDigest: 'sha256:0',
  dependsOn: [],
  requests: [],
});

const facts = (changes: Change[]): PolicyFacts => ({
  declared: [],
  tables: [],
  changes,
  liveCounts: new Map(),
  tableLiveCounts: new Map(),
  capacity: [],
  references: new Map(),
  sourceOf: () => undefined,
});

describe('forbid with replacedBy', () => {
  it('refuses the replaces the named field forces, and lets the others pass', async () => {
    const loaded = await load(`    - id: keep-uc
      match: { kind: Subscription }
      forbid: [replace]
      replacedBy: [uc]
`);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.policies[0]?.check).toEqual({ type: 'forbid', actions: ['replace'], replacedBy: ['uc'] });
    const changes = [replace('moved', ['uc']), replace('other', ['someOtherField'])];
    const out = await evaluatePolicies(loaded.policies, facts(changes), { allowPolicy: [] });
    expect(out.errors.map((e) => `${e.address ?? ''}: ${e.message}`)).toEqual([
      'tenant/acme/subscription/moved: the plan would replace it because of uc, which the rule forbids',
    ]);
    // Without replacedBy, every replace is forbidden.
    const all = await load(`    - id: no-replace\n      match: { kind: Subscription }\n      forbid: [replace]\n`);
    expect((await evaluatePolicies(all.policies, facts(changes), { allowPolicy: [] })).errors).toHaveLength(2);
  });

  it('names what the kind table says when a field forces no replace, and needs forbid to list replace', async () => {
    const loaded = await load(`    - id: wrong
      match: { kind: Subscription }
      forbid: [delete]
      replacedBy: [billingId, ucc]
`);
    expect(
      loaded.diagnostics.map((d) => `${d.source?.line ?? 0}:${d.source?.column ?? 0} ${d.code} ${d.message}`),
    ).toEqual([
      '8:15 SB_POLICY_RULE replacedBy narrows the replaces a rule forbids: its forbid must list replace',
      '9:20 SB_POLICY_RULE Subscription.billingId never forces a replace; the fields that do are uc',
      '9:31 SB_POLICY_RULE Subscription has no field "ucc"; the fields that do are uc (did you mean "uc"?)',
    ]);
  });

  it('is refused by the schema without forbid', async () => {
    const loaded = await load(`    - id: alone
      match: { kind: Subscription }
      require: { field: uc }
      replacedBy: [uc]
`);
    expect(loaded.diagnostics.map((d) => d.message)).toContain(
      '"rules[0]" must have property forbid when property replacedBy is present',
    );
  });
});
