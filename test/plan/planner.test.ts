import { describe, expect, it } from 'vitest';
import type { KindContext } from '../../src/kinds/types.js';
import { computeChanges } from '../../src/plan/planner.js';
import { kindRails } from '../../src/plan/kind-rails.js';
import { checkSafety } from '../../src/plan/safety.js';
import { kinds } from '../../src/kinds/index.js';
import { LiveReader } from '../../src/state/read.js';
import type { DesiredNode, LastApplied, ListingClient } from '../../src/state/types.js';
import { digestOf } from '../../src/core/canonical-json.js';
import { staticRefs } from '../kinds/static-refs.js';

const P = '/api/v01/draas/demo';

/** A fake platform: list paths → items; counts requests so tests can check the read is lean. */
function fakeClient(collections: Record<string, unknown[]>): ListingClient & { calls: string[] } {
  const calls: string[] = [];
  const key = (path: string, query?: Record<string, string>) =>
    query && Object.keys(query).length ? `${path}?${new URLSearchParams(query).toString()}` : path;
  return {
    calls,
    async listPages<T>(options: { path: string; query?: Record<string, string>; notFoundIsEmpty?: boolean }) {
      const k = key(options.path, options.query);
      calls.push(k);
      const items = collections[k];
      if (!items && !options.notFoundIsEmpty) throw new Error(`404 ${k}`);
      return (items ?? []) as T[];
    },
    async request<T>(options: { path: string; query?: Record<string, string> }) {
      const k = key(options.path, options.query);
      calls.push(k);
      return { status: 200, body: (collections[k]?.[0] ?? undefined) as T };
    },
  };
}

const ctx: KindContext = {
  P,
  refs: staticRefs({
    'suspension profiles': [
      { id: 1, name: 'full-barring', barringProfileId: 'BP-FULL' },
      { id: 2, name: 'outgoing-barring', barringProfileId: 'BP-OUT' },
    ],
    'entitlement types': [{ id: 1, name: 'BE geo' }],
    'postal codes': [{ id: 11, code: '1000' }],
  }),
};

const order = kinds.map((k) => k.kind);

async function plan(
  desired: DesiredNode[],
  live: Record<string, unknown[]>,
  lastApplied: LastApplied = new Map(),
  prune = false,
  keep?: (a: string) => boolean,
) {
  const client = fakeClient(live);
  const state = await new LiveReader(client, ctx, lastApplied).read(desired, order);
  const out = await computeChanges({
    desired,
    live: state,
    lastApplied,
    ctx,
    options: { prune, ...(keep ? { keep } : {}) },
  });
  return { ...out, state, calls: client.calls };
}

const groups = { [`${P}/groups`]: [{ uuid: 'g-1', name: 'demo-group', draasDomain: 'demo.example.net' }] };
const northTenants = {
  [`${P}/resellers?parent=g-1`]: [{ uuid: 'r-1', name: 'north', billingId: 'R-NORTH', markup: '3' }],
  [`${P}/tenants?parent=r-1`]: [{ uuid: 't-1', name: 'acme-corp', billingId: 'T-ACME', markup: '4.0' }],
};

const tenant = (fields: Record<string, unknown>, extra: Partial<DesiredNode> = {}): DesiredNode => ({
  kind: 'Tenant',
  address: 'tenant/acme-corp',
  parentRef: { kind: 'Reseller', name: 'north' },
  fields: { name: 'acme-corp', ...fields },
  ...extra,
});

describe('planner: matching and normalisation', () => {
  it('finds an undeclared parent by name and reports no change when only spellings differ (markup "4.0" vs 4)', async () => {
    const out = await plan([tenant({ billingId: 'T-ACME', markup: 4 })], { ...groups, ...northTenants });
    expect(out.changes).toEqual([]);
    expect(out.noop).toBe(1);
    expect(out.problems).toEqual([]);
  });

  it('plans an update with a field-level patch, and leaves undeclared fields alone', async () => {
    const out = await plan([tenant({ markup: 5 })], { ...groups, ...northTenants });
    expect(out.changes).toHaveLength(1);
    const change = out.changes[0]!;
    expect(change).toMatchObject({ action: 'update', id: 't-1', before: { markup: 4 }, after: { markup: 5 } });
    expect(change.patch).toEqual([{ op: 'replace', path: '/markup', value: 5 }]);
    expect(change.reasonCode).toBe('field-differs');
    expect(change.requests).toEqual([{ method: 'PUT', path: `${P}/tenants/t-1`, role: 'tenants.instance.update' }]);
    expect(change.liveDigest).toMatch(/^sha256:/);
  });

  it('reports an undeclared parent that does not exist live as a problem', async () => {
    const out = await plan([tenant({}, { parentRef: { kind: 'Reseller', name: 'nowhere' } })], {
      ...groups,
      ...northTenants,
    });
    expect(out.problems.map((p) => p.message).join()).toMatch(/reseller "nowhere" is not declared/);
  });
});

describe('planner: creates under new parents', () => {
  it('creates a subscription and its entitlement under a new tenant with pending ids, in dependency order', async () => {
    const desired: DesiredNode[] = [
      {
        kind: 'Tenant',
        address: 'tenant/new',
        parentRef: { kind: 'Reseller', name: 'north' },
        fields: { name: 'new', billingId: 'T-NEW' },
        declaredCollections: ['subscriptions'],
      },
      {
        kind: 'Subscription',
        address: 'tenant/new/subscription/main',
        parentAddress: 'tenant/new',
        fields: { name: 'main', billingId: 'T-NEW-1', uc: 'uc_alpha' },
        declaredCollections: ['entitlements'],
      },
      {
        kind: 'Entitlement',
        address: 'tenant/new/subscription/main/entitlement/BE geo',
        parentAddress: 'tenant/new/subscription/main',
        fields: { type: 'BE geo', entitlement: 5 },
      },
    ];
    // The group's list holds its whole subtree (Doc 1 §4.4): a new tenant is first looked for there.
    const groupTenants = { [`${P}/tenants?parent=g-1`]: northTenants[`${P}/tenants?parent=r-1`] ?? [] };
    const out = await plan(desired, { ...groups, ...northTenants, ...groupTenants });
    expect(out.calls).toContain(`${P}/tenants?parent=g-1`);
    expect(out.refusals).toEqual([]);
    expect(out.changes.map((c) => c.reasonCode)).toEqual(['not-found-live', 'not-found-live', 'not-found-live']);
    expect(out.changes.map((c) => [c.action, c.address, c.dependsOn])).toEqual([
      ['create', 'tenant/new', []],
      ['create', 'tenant/new/subscription/main', ['tenant/new']],
      ['create', 'tenant/new/subscription/main/entitlement/BE geo', ['tenant/new/subscription/main']],
    ]);
    expect(out.changes[2]!.requests[0]!.path).toBe(
      `${P}/tenants/{id:tenant/new}/subscriptions/{id:tenant/new/subscription/main}/entitlements`,
    );
    // nothing below a new tenant is read: it cannot exist yet
    expect(out.calls.some((c) => c.includes('{id:'))).toBe(false);
  });
});

const subscriptionLive = {
  [`${P}/tenants/t-1/subscriptions`]: [
    { id: 3, name: 'main', billingId: 'T-ACME-MAIN', uc: 'uc_alpha', suspensionProfileId: 'BP-OUT' },
  ],
  [`${P}/tenants/t-1/subscriptions/3/entitlements`]: [{ id: 9, name: 'BE geo', entitlement: 10, assigned: 2 }],
  [`${P}/tenants/t-1/subscriptions/3/uc_alpha/templates`]: [
    { id: 0, sku: 'DEFAULT', name: 'Default', description: '' },
    { id: 4, sku: 'TPL-OLD', name: 'Old', description: '' },
  ],
};

const subscription = (fields: Record<string, unknown>, collections: string[] = []): DesiredNode => ({
  kind: 'Subscription',
  address: 'tenant/acme-corp/subscription/main',
  parentAddress: 'tenant/acme-corp',
  fields: { name: 'main', ...fields },
  declaredCollections: collections,
});

describe('planner: spec quirks', () => {
  it('Doc2 §2.1: maps the barring-profile id read back to the suspension profile name (no change)', async () => {
    const out = await plan(
      [tenant({}, { declaredCollections: ['subscriptions'] }), subscription({ suspensionProfile: 'outgoing-barring' })],
      {
        ...groups,
        ...northTenants,
        ...subscriptionLive,
      },
    );
    expect(out.changes).toEqual([]);
  });

  it('Doc2 §4.1: a subscription update always carries the suspension profile (integer id)', async () => {
    const out = await plan([tenant({}), subscription({ billingId: 'NEW' })], {
      ...groups,
      ...northTenants,
      ...subscriptionLive,
    });
    expect(out.changes).toHaveLength(1);
    expect(out.changes[0]!.requests[0]).toMatchObject({ method: 'PUT', path: `${P}/tenants/t-1/subscriptions/3` });
  });

  it('changing a subscription uc is a replace (the API cannot change it), which says so as data', async () => {
    const entitlement: DesiredNode = {
      kind: 'Entitlement',
      address: 'tenant/acme-corp/subscription/main/entitlement/BE geo',
      parentAddress: 'tenant/acme-corp/subscription/main',
      fields: { type: 'BE geo', entitlement: 10 },
    };
    const out = await plan([tenant({}), subscription({ uc: 'uc_beta', billingId: 'T-2' }), entitlement], {
      ...groups,
      ...northTenants,
      ...subscriptionLive,
    });
    expect(out.changes[0]).toMatchObject({
      action: 'replace',
      reason: 'the API cannot change uc',
      reasonCode: 'immutable-field',
      replacedBy: ['uc'],
    });
    // Its live entitlement, equal to the declared one, is created again under the new subscription.
    expect(out.changes[1]).toMatchObject({ action: 'create', reasonCode: 'parent-replaced' });
    expect(out.changes[1]?.reason).toBe('its parent is replaced: created again under it');
    const part = { changes: out.changes, ...kindRails([], out.state) };
    const refusals = checkSafety([part], { maxDeletePercent: 10, allowReplace: false });
    expect(refusals.map((r) => r.code)).toEqual(['SB_REPLACE_REFUSED']);
    expect(checkSafety([part], { maxDeletePercent: 10, allowReplace: true })).toEqual([]);
  });

  it('a replace names what it drops below a declared child too, as the reader read it', async () => {
    const tg = 'tenant/acme-corp/subscription/main/trunkgroup/7';
    const premium: DesiredNode = {
      kind: 'TrunkGroupBlockList',
      address: `${tg}/block_list/premium`,
      parentAddress: tg,
      fields: { name: 'premium' },
      declaredCollections: ['prefixes'],
    };
    const desired: DesiredNode[] = [
      tenant({}),
      subscription({ uc: 'uc_beta' }, ['trunkGroups']),
      {
        kind: 'TrunkGroup',
        address: tg,
        parentAddress: subscription({}).address,
        fields: { id: '7' },
        declaredCollections: ['blockList', 'allowList'],
      },
      premium,
    ];
    const lists = `${P}/tenants/t-1/subscriptions/3/trunkgroups/7/block_list`;
    const out = await plan(desired, {
      ...groups,
      ...northTenants,
      ...subscriptionLive,
      [lists]: [
        { id: 11, name: 'premium' },
        { id: 12, name: 'legacy' },
      ],
      [`${lists}/11/prefixes`]: [],
    });
    expect(out.changes[0]).toMatchObject({ action: 'replace', address: 'tenant/acme-corp/subscription/main' });
    const part = { changes: out.changes, ...kindRails(desired, out.state) };
    const [refusal, ...others] = checkSafety([part], { maxDeletePercent: 10, allowReplace: false });
    expect(others).toEqual([]);
    expect(refusal?.message).toContain(`below it the manifests do not declare (${tg}/block_list/legacy)`);
    expect(refusal?.message).not.toContain(`of ${tg}`); // its lists were declared, and read
  });

  it('Doc2 §4.3: refuses an entitlement below its assigned count', async () => {
    const entitlement: DesiredNode = {
      kind: 'Entitlement',
      address: 'tenant/acme-corp/subscription/main/entitlement/BE geo',
      parentAddress: 'tenant/acme-corp/subscription/main',
      fields: { type: 'BE geo', entitlement: 1 },
    };
    const out = await plan([tenant({}), subscription({}), entitlement], {
      ...groups,
      ...northTenants,
      ...subscriptionLive,
    });
    expect(out.refusals).toEqual([
      expect.objectContaining({
        code: 'SB_CONSTRAINT',
        message: expect.stringMatching(/below the 2 numbers already assigned/),
      }),
    ]);
  });
});

describe('planner: prune and unmanaged objects', () => {
  const withTemplates = (prune: boolean): DesiredNode[] => [tenant({}), { ...subscription({}, ['templates']), prune }];

  it('without prune, undeclared live objects of a declared collection are listed as unmanaged, but not the default template', async () => {
    const out = await plan(withTemplates(false), { ...groups, ...northTenants, ...subscriptionLive });
    expect(out.changes).toEqual([]);
    // The API gives every subscription the default template (id 0) and never deletes it: no manifest could manage it.
    expect(out.unmanaged.map((u) => u.address)).toEqual(['tenant/acme-corp/subscription/main/template/TPL-OLD']);
  });

  it('lists them in the same order whatever order the collections were answered in', async () => {
    const desired = [tenant({}, { declaredCollections: ['subscriptions'] }), subscription({}, ['templates'])];
    const live = {
      ...groups,
      ...northTenants,
      ...subscriptionLive,
      [`${P}/tenants/t-1/subscriptions`]: [
        ...subscriptionLive[`${P}/tenants/t-1/subscriptions`]!,
        { id: 5, name: 'spare', billingId: 'T-ACME-SPARE', uc: 'uc_alpha' },
      ],
    };
    const read = await plan(desired, live);
    // The reader keeps its collections in the order the answers came: another run may see them reversed.
    const reversed = await computeChanges({
      desired,
      live: { ...read.state, collections: [...read.state.collections].reverse() },
      lastApplied: new Map(),
      ctx,
      options: { prune: false },
    });
    // By parent, then kind: the tenant's subscriptions before the subscription's templates.
    const addresses = ['tenant/acme-corp/subscription/spare', 'tenant/acme-corp/subscription/main/template/TPL-OLD'];
    expect(read.unmanaged.map((u) => u.address)).toEqual(addresses);
    expect(reversed.unmanaged).toEqual(read.unmanaged);
  });

  it("takes the reader's problems and refusals by address, not in the order its answers came", async () => {
    const problems = [
      {
        address: 'tenant/b',
        message: 'reseller "x" is not declared in the manifests and does not exist on the platform',
      },
      {
        address: 'tenant/a',
        message: 'reseller "y" is not declared in the manifests and does not exist on the platform',
      },
    ];
    const refusals = [
      { code: 'SB_OWNER_CHANGE', address: 'tenant/d', message: 'declared under reseller/south' },
      { code: 'SB_OWNER_CHANGE', address: 'tenant/c', message: 'declared under reseller/south' },
    ];
    const planned = async (order: <T>(list: T[]) => T[]) =>
      computeChanges({
        desired: [],
        live: { byAddress: new Map(), collections: [], problems: order(problems), refusals: order(refusals) },
        lastApplied: new Map(),
        ctx,
        options: { prune: false },
      });
    const [forward, backward] = await Promise.all([planned((l) => [...l]), planned((l) => [...l].reverse())]);
    expect(forward.problems.map((p) => p.address)).toEqual(['tenant/a', 'tenant/b']);
    expect(forward.refusals.map((r) => r.address)).toEqual(['tenant/c', 'tenant/d']);
    expect(backward.problems).toEqual(forward.problems);
    expect(backward.refusals).toEqual(forward.refusals);
  });

  it('with prune, deletes them with a reason, but never the default template (id 0)', async () => {
    const out = await plan(withTemplates(true), { ...groups, ...northTenants, ...subscriptionLive });
    expect(out.changes.map((c) => [c.action, c.address])).toEqual([
      ['delete', 'tenant/acme-corp/subscription/main/template/TPL-OLD'],
    ]);
    expect(out.changes[0]!.reason).toMatch(/not declared in tenant\/acme-corp\/subscription\/main/);
    expect(out.changes[0]!.reasonCode).toBe('not-declared-prune');
    expect(out.unmanaged).toEqual([]);
  });

  it('--exclude: an excluded live object is never deleted, whatever prune says', async () => {
    const out = await plan(
      withTemplates(true),
      { ...groups, ...northTenants, ...subscriptionLive },
      new Map(),
      false,
      (a) => a.endsWith('/TPL-OLD'),
    );
    expect(out.changes).toEqual([]);
    expect(out.unmanaged.map((u) => u.address)).toContain('tenant/acme-corp/subscription/main/template/TPL-OLD');
  });

  it('--prune applies to collections that are declared only', async () => {
    const out = await plan(
      [tenant({}), subscription({})],
      { ...groups, ...northTenants, ...subscriptionLive },
      new Map(),
      true,
    );
    expect(out.changes).toEqual([]);
  });
});

describe('planner: write-only values', () => {
  const admin: DesiredNode = {
    kind: 'Administrator',
    address: 'tenant/acme-corp/admin/it@acme.example',
    parentAddress: 'tenant/acme-corp',
    fields: { email: 'it@acme.example', firstName: 'Ada' },
  };

  it('creates an administrator that was never applied, and plans nothing once its digest is recorded', async () => {
    const first = await plan([tenant({}), admin], { ...groups, ...northTenants });
    expect(first.changes.map((c) => c.action)).toEqual(['create']);
    const lastApplied: LastApplied = new Map([
      [
        admin.address,
        { kind: 'Administrator', digests: { firstName: digestOf('Ada') }, identity: { email: 'it@acme.example' } },
      ],
    ]);
    const second = await plan([tenant({}), admin], { ...groups, ...northTenants }, lastApplied);
    expect(second.changes).toEqual([]);
    const renamed = await plan(
      [tenant({}), { ...admin, fields: { ...admin.fields, firstName: 'Grace' } }],
      { ...groups, ...northTenants },
      lastApplied,
    );
    expect(renamed.changes[0]).toMatchObject({
      action: 'update',
      before: { firstName: '(write-only)' },
      after: { firstName: 'Grace' },
    });
  });
});

describe('safety rails', () => {
  it('refuses a plan deleting more than the threshold of a kind, and names the missing role', async () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, sku: `T${i}`, name: `t${i}`, description: '' }));
    const out = await plan([tenant({}), { ...subscription({}, ['templates']), prune: true }], {
      ...groups,
      ...northTenants,
      ...subscriptionLive,
      [`${P}/tenants/t-1/subscriptions/3/uc_alpha/templates`]: many,
    });
    expect(out.changes).toHaveLength(10);
    const deny = { check: () => ({ allowed: false }) };
    const refusals = checkSafety([{ changes: out.changes, ...kindRails([], out.state, deny) }], {
      maxDeletePercent: 10,
      allowReplace: false,
    });
    expect(refusals[0]).toMatchObject({ code: 'SB_DELETE_THRESHOLD' });
    expect(refusals[1]).toMatchObject({
      code: 'SB_PERMISSION',
      role: 'tenants.instance.subscriptions.instance.uc_alpha.templates.delete',
    });
  });
});
