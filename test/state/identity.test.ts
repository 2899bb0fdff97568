import { describe, expect, it } from 'vitest';
import { ApiError, ApiErrorCode } from '../../src/api/errors.js';
import { kinds } from '../../src/kinds/index.js';
import type { KindContext } from '../../src/kinds/types.js';
import { digestOf } from '../../src/core/canonical-json.js';
import { computeChanges } from '../../src/plan/planner.js';
import { moveRecorded } from '../../src/state/last-applied.js';
import { LiveReader } from '../../src/state/read.js';
import type { DesiredNode, LastApplied, LastAppliedEntry, ListingClient } from '../../src/state/types.js';
import { staticRefs } from '../kinds/static-refs.js';

/**
 * Which live object a declared one is: by pinned uuid, by name, by a former name; and an
 * object of a kind whose parent cannot change (tenants, resellers: Doc 1 §4.3, §4.4) found
 * under another owner than declared is refused, never updated there nor created again.
 */
const P = '/api/v01/draas/demo';
const ctx: KindContext = { P, refs: staticRefs({ 'entitlement types': [{ id: 1, name: 'BE geo' }] }) };
const order = kinds.map((k) => k.kind);

function fakeClient(lists: Record<string, unknown[]>, refused: Record<string, number> = {}) {
  const calls: string[] = [];
  const answer = (path: string, query?: Record<string, string>): unknown[] => {
    const key = query && Object.keys(query).length ? `${path}?${new URLSearchParams(query).toString()}` : path;
    calls.push(key);
    const status = refused[key] ?? (lists[key] ? undefined : 404);
    if (status)
      throw new ApiError({ code: ApiErrorCode.server, method: 'GET', path, status, retryable: false, detail: 'no' });
    return lists[key] ?? [];
  };
  const client: ListingClient = {
    listPages: async <T>(o: { path: string; query?: Record<string, string> }) => answer(o.path, o.query) as T[],
    request: async <T>(o: { path: string; query?: Record<string, string> }) => ({
      status: 200,
      body: answer(o.path, o.query)[0] as T,
    }),
  };
  return { client, calls };
}

async function plan(desired: DesiredNode[], lists: Record<string, unknown[]>, lastApplied: LastApplied = new Map()) {
  const { client, calls } = fakeClient(lists);
  const live = await new LiveReader(client, ctx, lastApplied).read(desired, order);
  const out = await computeChanges({
    desired,
    live,
    lastApplied: live.lastApplied ?? lastApplied,
    ctx,
    options: { prune: false },
  });
  return { ...out, live, calls };
}

const owner = (type: string, uuid: string, name: string) => ({ owner: { type, uuid, name } });
const acme = { uuid: 't-1', name: 'acme-corp', billingId: 'T-ACME', ...owner('reseller', 'r-1', 'north') };
const estate: Record<string, unknown[]> = {
  [`${P}/groups`]: [
    { uuid: 'g-1', name: 'demo-group' },
    { uuid: 'g-2', name: 'other-group' },
  ],
  [`${P}/resellers?parent=g-1`]: [
    { uuid: 'r-1', name: 'north', ...owner('group', 'g-1', 'demo-group') },
    { uuid: 'r-2', name: 'south', ...owner('group', 'g-1', 'demo-group') },
  ],
  [`${P}/resellers?parent=g-2`]: [],
  [`${P}/tenants?parent=r-1`]: [acme],
  [`${P}/tenants?parent=r-2`]: [],
  // A group's list holds its whole subtree (Doc 1 §4.4): its resellers' tenants too.
  [`${P}/tenants?parent=g-1`]: [acme],
  [`${P}/tenants?parent=g-2`]: [],
  [`${P}/tenants/t-1/subscriptions`]: [{ id: 3, name: 'main', billingId: 'T-ACME-MAIN', uc: 'uc_alpha' }],
  [`${P}/tenants/t-1/subscriptions/3/entitlements`]: [{ id: 9, name: 'BE geo', entitlement: 10 }],
};

const tenant = (parent: Partial<DesiredNode>, extra: Partial<DesiredNode> = {}): DesiredNode => ({
  kind: 'Tenant',
  address: 'tenant/acme-corp',
  fields: { name: 'acme-corp', billingId: 'T-ACME' },
  ...parent,
  ...extra,
});
const north = { parentRef: { kind: 'Reseller', name: 'north' } };
const south = { parentRef: { kind: 'Reseller', name: 'south' } };
const subscription = (tenantAddress: string, fields: Record<string, unknown>, extra: Partial<DesiredNode> = {}) => ({
  kind: 'Subscription',
  address: `${tenantAddress}/subscription/${String(fields['name'])}`,
  parentAddress: tenantAddress,
  fields,
  ...extra,
});

describe('owner changes (a kind whose parent cannot change: fixedParent)', () => {
  it('a tenant declared under another reseller of its group is refused, naming both owners; never a create', async () => {
    const out = await plan([tenant(south)], estate);
    expect(out.changes).toEqual([]);
    expect(out.refusals).toEqual([
      {
        code: 'SB_OWNER_CHANGE',
        address: 'tenant/acme-corp',
        message:
          'declared under reseller/south, but the live tenant (id t-1) is under reseller/north (uuid r-1): the API ' +
          'cannot move it to another owner (Document 1 §4.4: "Owner cannot be changed through the API"). Either ' +
          'keep its owner (metadata.reseller: north), or declare a new tenant (another name and billingId) under the ' +
          'new owner, move its subscriptions there, then delete the old one.',
      },
    ]);
    // Looked for in the declared owner's group only, whose list holds the whole subtree.
    expect(out.calls).toContain(`${P}/tenants?parent=g-1`);
    expect(out.calls).not.toContain(`${P}/tenants?parent=g-2`);
  });

  it('a tenant declared under its group while its owner is a reseller of it is refused too (the group list holds it)', async () => {
    const out = await plan(
      [tenant({ parentRef: { kind: 'Group', name: 'demo-group' } }, { fields: { name: 'acme-corp', markup: 7 } })],
      estate,
    );
    expect(out.changes).toEqual([]);
    expect(out.refusals).toEqual([
      {
        code: 'SB_OWNER_CHANGE',
        address: 'tenant/acme-corp',
        message: expect.stringMatching(
          /^declared under group\/demo-group, but the live tenant \(id t-1\) is under reseller\/north/,
        ),
      },
    ]);
  });

  it('under a parent this plan creates, the tenant found under its old owner is refused; its children are still read', async () => {
    const east: DesiredNode = {
      kind: 'Reseller',
      address: 'reseller/east',
      parentRef: { kind: 'Group', name: 'demo-group' },
      fields: { name: 'east' },
    };
    const out = await plan(
      [
        east,
        tenant({ parentAddress: 'reseller/east' }),
        subscription('tenant/acme-corp', { name: 'main', billingId: 'NEW' }),
      ],
      estate,
    );
    expect(out.refusals.map((r) => r.message)).toEqual([
      expect.stringMatching(/^declared under reseller\/east \(which this plan would create\), but the live tenant/),
    ]);
    expect(out.changes.map((c) => [c.action, c.address])).toEqual([
      ['create', 'reseller/east'],
      ['update', 'tenant/acme-corp/subscription/main'],
    ]);
  });

  it('the tenant that is where it is declared is planned as before, and a new one is created', async () => {
    const wayne = tenant(north, { address: 'tenant/wayne', fields: { name: 'wayne', billingId: 'T-WAYNE' } });
    const out = await plan([tenant(north, { fields: { name: 'acme-corp', billingId: 'T-ACME-2' } }), wayne], estate);
    expect(out.refusals).toEqual([]);
    expect(out.changes.map((c) => [c.action, c.address])).toEqual([
      ['update', 'tenant/acme-corp'],
      ['create', 'tenant/wayne'],
    ]);
  });

  it('the same rule holds for resellers, from the kind table: pinned by uuid, it is found in another group', async () => {
    const moved: DesiredNode = {
      kind: 'Reseller',
      address: 'reseller/north',
      parentRef: { kind: 'Group', name: 'other-group' },
      fields: { name: 'north' },
      pinnedId: 'r-1',
    };
    const out = await plan([moved], estate);
    expect(out.changes).toEqual([]);
    expect(out.refusals.map((r) => [r.code, r.message])).toEqual([
      [
        'SB_OWNER_CHANGE',
        expect.stringMatching(
          /^declared under group\/other-group, but the live reseller \(id r-1\) is under group\/demo-group \(uuid g-1\)/,
        ),
      ],
    ]);
    expect(out.refusals[0]?.message).toContain('Document 1 §4.3');
  });
});

describe('renames (renamedFrom) and pins (metadata.uuid)', () => {
  it('an object found under a former name is one update on its id, known by its new address; what is below it follows', async () => {
    const recorded: LastAppliedEntry = {
      kind: 'Entitlement',
      digests: { externalReference: digestOf('REF-1') },
    };
    const lastApplied = new Map([['tenant/acme-corp/subscription/main/entitlement/BE geo', recorded]]);
    const renamed = tenant(north, {
      address: 'tenant/acme-bv',
      fields: { name: 'acme-bv' },
      previousAddresses: ['tenant/acme-inc', 'tenant/acme-corp'],
    });
    const office = subscription(
      'tenant/acme-bv',
      { name: 'office' },
      {
        previousAddresses: ['tenant/acme-bv/subscription/main'],
      },
    );
    const entitlement: DesiredNode = {
      kind: 'Entitlement',
      address: 'tenant/acme-bv/subscription/office/entitlement/BE geo',
      parentAddress: 'tenant/acme-bv/subscription/office',
      fields: { type: 'BE geo', entitlement: 10, externalReference: 'REF-1' },
    };
    const out = await plan([renamed, office, entitlement], estate, lastApplied);
    expect(out.refusals).toEqual([]);
    expect(out.changes.map((c) => [c.action, c.address, c.previousAddress, c.id, c.reason])).toEqual([
      ['update', 'tenant/acme-bv', 'tenant/acme-corp', 't-1', 'renamed from tenant/acme-corp'],
      [
        'update',
        'tenant/acme-bv/subscription/office',
        'tenant/acme-bv/subscription/main',
        '3',
        'renamed from tenant/acme-bv/subscription/main',
      ],
    ]);
    expect(out.changes[0]).toMatchObject({
      before: { name: 'acme-corp' },
      after: { name: 'acme-bv' },
      requests: [{ method: 'PUT', path: `${P}/tenants/t-1` }],
    });
    // The entitlement is the same (its write-only value compared with what was recorded under the old name).
    expect(out.noop).toBe(1);
    expect(out.live.lastApplied?.has('tenant/acme-bv/subscription/office/entitlement/BE geo')).toBe(true);
    expect(out.live.byAddress.has('tenant/acme-corp')).toBe(false);
  });

  it('both names live, or several former names live, refuse the plan naming both', async () => {
    const both = tenant(north, { previousAddresses: ['tenant/umbrella'] });
    const umbrella = { uuid: 't-9', name: 'umbrella', ...owner('reseller', 'r-1', 'north') };
    const lists = { ...estate, [`${P}/tenants?parent=r-1`]: [acme, umbrella] };
    const out = await plan([both], lists);
    expect(out.changes).toEqual([]);
    expect(out.refusals).toEqual([
      {
        code: 'SB_RENAME_CONFLICT',
        address: 'tenant/acme-corp',
        message: expect.stringContaining('tenant/acme-corp (id t-1) and tenant/umbrella (id t-9) both exist'),
      },
    ]);
  });

  it('a tenant found by name whose former name is taken under another reseller of the group is refused too', async () => {
    const initech = { uuid: 't-7', name: 'initech', ...owner('reseller', 'r-2', 'south') };
    const lists = { ...estate, [`${P}/tenants?parent=g-1`]: [acme, initech] };
    const out = await plan([tenant(north, { previousAddresses: ['tenant/initech'] })], lists);
    expect(out.changes).toEqual([]);
    expect(out.refusals.map((r) => [r.code, r.message])).toEqual([
      [
        'SB_RENAME_CONFLICT',
        expect.stringContaining('tenant/acme-corp (id t-1) and tenant/initech (id t-7) both exist'),
      ],
    ]);
  });

  it('a pinned rename to a name a tenant of another reseller of the group has is refused', async () => {
    const initech = { uuid: 't-7', name: 'initech', ...owner('reseller', 'r-2', 'south') };
    const lists = { ...estate, [`${P}/tenants?parent=g-1`]: [acme, initech] };
    const pinned = tenant(north, { address: 'tenant/initech', fields: { name: 'initech' }, pinnedId: 't-1' });
    const out = await plan([pinned], lists);
    expect(out.changes).toEqual([]);
    expect(out.refusals.map((r) => [r.code, r.message])).toEqual([
      [
        'SB_RENAME_CONFLICT',
        expect.stringContaining('renaming it to tenant/initech would take the name of another live object (id t-7)'),
      ],
    ]);
  });

  it('a pinned document binds by id: another name is a rename, an unknown id is refused and nothing below it is planned', async () => {
    const pinned = tenant(north, { address: 'tenant/acme-global', fields: { name: 'acme-global' }, pinnedId: 't-1' });
    const renamed = await plan([pinned], estate);
    expect(renamed.changes.map((c) => [c.action, c.address, c.previousAddress])).toEqual([
      ['update', 'tenant/acme-global', 'tenant/acme-corp'],
    ]);
    const ghost = tenant(north, { address: 'tenant/ghost', fields: { name: 'ghost' }, pinnedId: 't-404' });
    const out = await plan([ghost, subscription('tenant/ghost', { name: 'main', billingId: 'X' })], estate);
    expect(out.changes).toEqual([]);
    expect(out.refusals).toEqual([
      {
        code: 'SB_PINNED_MISSING',
        address: 'tenant/ghost',
        message: expect.stringMatching(
          /^metadata\.uuid t-404: no tenant with this uuid exists under reseller\/north or anywhere/,
        ),
      },
    ]);
  });
});

describe('a pinned group (a top-level kind)', () => {
  it('is found by id in the groups list: another name is a rename, an unknown id refused', async () => {
    const group = (pinnedId: string): DesiredNode => ({
      kind: 'Group',
      address: 'group/demo',
      fields: { name: 'demo' },
      pinnedId,
    });
    const renamed = await plan([group('g-1')], estate);
    expect(renamed.changes.map((c) => [c.address, c.previousAddress, c.requests[0]?.path])).toEqual([
      ['group/demo', 'group/demo-group', `${P}/groups/g-1`],
    ]);
    const missing = await plan([group('g-9')], estate);
    expect(missing.changes).toEqual([]);
    expect(missing.refusals.map((r) => r.message)).toEqual([
      expect.stringMatching(
        /^metadata\.uuid g-9: no group with this uuid exists among those these credentials can list/,
      ),
    ]);
  });
});

describe('the last-applied record follows a rename', () => {
  it('moves the entries at and below the old address, never over a newer one', () => {
    const entry = (n: string): LastAppliedEntry => ({ kind: 'Administrator', digests: { n } });
    const record = new Map([
      ['reseller/south', entry('1')],
      ['reseller/south/admin/a@x', entry('2')],
      ['reseller/southern/admin/b@x', entry('new')],
      ['reseller/south/admin/b@x', entry('old')],
      ['reseller/south-east', entry('3')],
    ]);
    expect(moveRecorded(record, 'reseller/south', 'reseller/southern')).toBe(true);
    expect(Object.fromEntries([...record].map(([a, e]) => [a, e.digests['n']]))).toEqual({
      'reseller/southern': '1',
      'reseller/southern/admin/a@x': '2',
      'reseller/southern/admin/b@x': 'new',
      'reseller/south-east': '3',
    });
  });
});

describe('objects whose id is unique only under their parent', () => {
  it("two groups' enabled UC platforms of one name are two live objects, each declared once", async () => {
    const group = (name: string): DesiredNode => ({
      kind: 'Group',
      address: `group/${name}`,
      fields: { name },
      declaredCollections: ['enabledUcs'],
    });
    const uc = (name: string): DesiredNode => ({
      kind: 'EnabledUc',
      address: `group/${name}/enabled_uc/uc_alpha`,
      parentAddress: `group/${name}`,
      fields: { uc: 'uc_alpha' },
    });
    const lists = {
      ...estate,
      [`${P}/groups/g-1/enabled_ucs`]: ['uc_alpha'],
      [`${P}/groups/g-2/enabled_ucs`]: ['uc_alpha'],
    };
    const out = await plan([group('demo-group'), uc('demo-group'), group('other-group'), uc('other-group')], lists);
    expect(out.live.problems).toEqual([]);
    expect(out.problems).toEqual([]);
    expect(out.changes).toEqual([]);
    expect(out.noop).toBe(4);
  });
});
