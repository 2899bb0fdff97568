/**
 * docs/plans.md "The change set": its digest covers what a plan would do and nothing about
 * when, by whom or against which copies of the objects; any difference in what would be done
 * changes it.
 */
import { describe, expect, it } from 'vitest';
import { changeSetDigest, compareChangeSets, templatePath } from '../../src/plan/change-set.js';
import { sealPlan } from '../../src/plan/plan-digest.js';
import { planDocument } from '../../src/plan/render-json.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { samplePlan } from '../fixtures/plans/sample-plan.js';

/** The sample plan's changes as its file holds them. */
const changes = (plan: Plan = samplePlan()): Change[] => structuredClone(planDocument(plan).changes);

const digest = (list: Change[]) => changeSetDigest(list);

describe('the change-set digest', () => {
  it('is recorded in the plan (changeSet) and is that of its changes as the file holds them', () => {
    const plan = samplePlan();
    expect(plan.changeSet).toEqual({ digest: digest(changes()), changes: 56 });
  });

  it('does not depend on when, by whom, or against which copies of the objects the plan was made', () => {
    const base = samplePlan();
    const other = structuredClone(base);
    other.createdAt = '2027-01-01T00:00:00Z';
    other.tool.version = '9.9.9';
    other.manifests = { digest: `sha256:${'e'.repeat(64)}`, files: ['elsewhere.yaml'] };
    other.provenance = { user: { username: 'someone', login: 'token', api: 'platform', authenticated: true } };
    other.warnings = [];
    other.errors = [];
    other.summary.noop = 999;
    other.unmanaged = [];
    for (const change of other.changes) {
      change.reason = `${change.reason} (reworded)`;
      change.source = 'moved.yaml:1:1';
      if (change.id !== undefined) change.id = `re-created-${change.id}`;
      if (change.liveDigest !== undefined) change.liveDigest = `sha256:${'a'.repeat(64)}`;
    }
    const sealed = sealPlan(other);
    expect(sealed.digest).not.toBe(base.digest);
    expect(sealed.changeSet?.digest).toBe(base.changeSet?.digest);
  });

  it('does not depend on the ids a path holds: the path template stands for them', () => {
    const a = changes();
    const b = structuredClone(a);
    const request = (list: Change[]) => list.find((c) => c.address === 'tenant/acme-corp')?.requests[0];
    for (const [list, id] of [
      [a, '4b7c1d2e-0000-4000-8000-000000000001'],
      [b, '00000000-re-created'],
    ] as const) {
      const r = request(list);
      if (!r) throw new Error('fixture lost its request');
      r.path = `/api/v01/draas/main/tenants/${id}`;
      r.pathTemplate = '/api/v01/draas/main/tenants/{id:tenant/acme-corp}';
    }
    expect(digest(b)).toBe(digest(a));
  });

  const edits: [string, (list: Change[]) => void][] = [
    ['an after value', (l) => ((l[2] as Change).after = { ...(l[2] as Change).after, markup: 99 })],
    ['a before value', (l) => ((l[2] as Change).before = { ...(l[2] as Change).before, markup: 3 })],
    ['a patch value', (l) => ((l[2] as Change).patch = [{ op: 'replace', path: '/markup', value: 99 }])],
    ['an address', (l) => ((l[0] as Change).address = 'tenant/other-co')],
    ['a kind', (l) => ((l[0] as Change).kind = 'Reseller')],
    ['an action', (l) => ((l[2] as Change).action = 'replace')],
    ['a provider', (l) => ((l[0] as Change).provider = 'routing')],
    ['a former address', (l) => ((l[2] as Change).previousAddress = 'tenant/acme-old')],
    [
      'a sensitive digest',
      (l) =>
        ((l.find((c) => c.sensitiveDigests) as Change).sensitiveDigests = { password: `sha256:${'b'.repeat(64)}` }),
    ],
    ['a request method', (l) => ((l[0] as Change).requests = [{ method: 'PUT', path: '/api/v01/draas/main/tenants' }])],
    [
      'a request path',
      (l) => ((l[0] as Change).requests = [{ method: 'POST', path: '/api/v01/draas/main/resellers' }]),
    ],
    ['a dependency', (l) => ((l[2] as Change).dependsOn = ['reseller/south'])],
    ['a change removed', (l) => l.pop()],
    ['a change added', (l) => l.push({ ...(l[0] as Change), address: 'tenant/added' })],
    ['the order', (l) => l.reverse()],
  ];
  for (const [what, edit] of edits) {
    it(`changes with ${what}`, () => {
      const edited = changes();
      edit(edited);
      expect(digest(edited)).not.toBe(digest(changes()));
    });
  }
});

describe('compareChangeSets', () => {
  it('names the addresses and fields that differ, and the changes one side holds alone', () => {
    const a = changes();
    const b = structuredClone(a);
    (b[2] as Change).after = { ...(b[2] as Change).after, markup: 99 };
    const dropped = b.splice(0, 1)[0] as Change;
    b.push({ ...(a[1] as Change), address: 'tenant/added' });
    const result = compareChangeSets(a, b);
    expect(result.same).toBe(false);
    expect(result.differences).toEqual([
      { address: dropped.address, in: 'first', actions: { first: dropped.action }, fields: [] },
      {
        address: (a[2] as Change).address,
        in: 'both',
        actions: { first: 'update', second: 'update' },
        fields: [{ field: 'after', first: (a[2] as Change).after, second: (b[1] as Change).after }],
      },
      { address: 'tenant/added', in: 'second', actions: { second: (a[1] as Change).action }, fields: [] },
    ]);
    expect(compareChangeSets(a, structuredClone(a))).toEqual({ same: true, differences: [], reordered: false });
    expect(compareChangeSets(a, [...a].reverse())).toMatchObject({ same: false, differences: [], reordered: true });
  });
});

describe('templatePath', () => {
  const chain = [
    { address: 'tenant/acme', id: 'U-1' },
    { address: 'tenant/acme/subscription/main', id: '1' },
    { address: 'tenant/acme/subscription/main/entitlement/BE geo', id: '1' },
  ];

  it('replaces each id by the address it stands for, from the root down: equal ids stay apart', () => {
    expect(templatePath('/api/v01/draas/1/tenants/U-1/subscriptions/1/entitlements/1', chain)).toBe(
      '/api/v01/draas/1/tenants/{id:tenant/acme}/subscriptions/{id:tenant/acme/subscription/main}/entitlements/' +
        '{id:tenant/acme/subscription/main/entitlement/BE geo}',
    );
  });

  it('skips an object whose id the path does not hold, matches encoded ids, and leaves pending ids alone', () => {
    expect(templatePath('/api/v01/draas/demo/tenants/U-1/subscriptions/1/entitlements', chain)).toBe(
      '/api/v01/draas/demo/tenants/{id:tenant/acme}/subscriptions/{id:tenant/acme/subscription/main}/entitlements',
    );
    expect(
      templatePath('/t/it%40acme.example', [{ address: 'tenant/acme/admin/it@acme.example', id: 'it@acme.example' }]),
    ).toBe('/t/{id:tenant/acme/admin/it@acme.example}');
    expect(templatePath('/t/{id:tenant/new}/subscriptions', chain)).toBe('/t/{id:tenant/new}/subscriptions');
  });
});
