import { describe, expect, it } from 'vitest';
import { ApiError, ApiErrorCode } from '../../src/api/errors.js';
import { kinds } from '../../src/kinds/index.js';
import type { KindContext } from '../../src/kinds/types.js';
import { writeOnlyDigests } from '../../src/plan/diff.js';
import { computeChanges } from '../../src/plan/planner.js';
import { WRITE_ONLY } from '../../src/plan/types.js';
import { LiveReader } from '../../src/state/read.js';
import type { DesiredNode, LastApplied, LastAppliedEntry, ListingClient } from '../../src/state/types.js';

const P = '/api/v01/draas/demo';
const ctx: KindContext = { P, refs: { read: async () => [] } };
const order = kinds.map((k) => k.kind);

/** Answers list paths from `lists`; a path in `refused` fails with that status, as the API client does. */
function fakeClient(
  lists: Record<string, unknown[]>,
  refused: Record<string, number> = {},
): ListingClient & { calls: string[] } {
  const calls: string[] = [];
  const answer = (path: string, query?: Record<string, string>): unknown[] => {
    const key = query && Object.keys(query).length ? `${path}?${new URLSearchParams(query).toString()}` : path;
    calls.push(key);
    const status = refused[path] ?? refused[key];
    if (status)
      throw new ApiError({
        code: ApiErrorCode.server,
        method: 'GET',
        path,
        status,
        retryable: false,
        detail: `answered ${status}`,
      });
    const items = lists[key];
    if (!items)
      throw new ApiError({
        code: ApiErrorCode.server,
        method: 'GET',
        path,
        status: 404,
        retryable: false,
        detail: 'not found',
      });
    return items;
  };
  return {
    calls,
    listPages: async <T>(options: { path: string; query?: Record<string, string> }) =>
      answer(options.path, options.query) as T[],
    request: async <T>(options: { path: string; query?: Record<string, string> }) => ({
      status: 200,
      body: answer(options.path, options.query)[0] as T,
    }),
  };
}

async function plan(desired: DesiredNode[], client: ListingClient, lastApplied: LastApplied = new Map()) {
  const live = await new LiveReader(client, ctx, lastApplied).read(desired, order);
  const out = await computeChanges({ desired, live, lastApplied, ctx, options: { prune: false } });
  return { ...out, live };
}

const groups = [
  { uuid: 'g-1', name: 'one' },
  { uuid: 'g-2', name: 'two' },
];
const group = (name: string): DesiredNode => ({
  kind: 'Group',
  address: `group/${name}`,
  fields: { name },
  declaredCollections: ['branding'],
});
const font = (groupName: string, fontName: string): DesiredNode => ({
  kind: 'Branding',
  address: `group/${groupName}/branding/font`,
  parentAddress: `group/${groupName}`,
  fields: { type: 'font', allowed: ['Roboto', 'Inter'], name: fontName },
});
const recorded = (node: DesiredNode): [string, LastAppliedEntry] => [
  node.address,
  { kind: 'Branding', digests: writeOnlyDigests(node) },
];

describe('a read the documents do not show (Doc 1 §4.2 branding): 404 → planned from the last-applied record', () => {
  it('says so once for every group, plans a create without a record, nothing when the record matches, an update when it differs', async () => {
    for (const status of [404, 405]) {
      const client = fakeClient(
        { [`${P}/groups`]: groups },
        { [`${P}/groups/g-1/configurations/pages`]: status, [`${P}/groups/g-2/configurations/pages`]: status },
      );
      const desired = [group('one'), group('two'), font('one', 'Inter'), font('two', 'Inter')];
      const first = await plan(desired, client);
      expect(first.live.warnings, `status ${status}`).toEqual([
        {
          code: 'SB_READ_MISSING',
          message: expect.stringMatching(
            new RegExp(
              `^GET ${P}/groups/g-\\d/configurations/pages answered ${status}: branding cannot be read\\. .*brandingReadPath`,
            ),
          ),
        },
      ]);
      expect(first.changes.map((c) => `${c.action} ${c.address}`)).toEqual([
        'create group/one/branding/font',
        'create group/two/branding/font',
      ]);

      // After an apply the record holds every declared value's digest; a set in another order is the same value.
      const record = new Map([
        recorded(font('one', 'Inter')),
        recorded({ ...font('two', 'Inter'), fields: { type: 'font', allowed: ['Inter', 'Roboto'], name: 'Inter' } }),
      ]);
      const again = await plan(desired, client, record);
      expect(again.changes).toEqual([]);
      expect(again.noop).toBe(4);

      const changed = await plan([group('one'), font('one', 'Roboto')], client, record);
      expect(changed.changes).toHaveLength(1);
      expect(changed.changes[0]).toMatchObject({
        action: 'update',
        address: 'group/one/branding/font',
        id: 'font',
        before: { name: WRITE_ONLY },
        after: { name: 'Roboto' },
      });
      expect(changed.changes[0]?.requests).toEqual([
        {
          method: 'PUT',
          path: `${P}/groups/g-1/configurations/pages`,
          role: 'groups.instance.configurations.branding.pages.update',
        },
      ]);
    }
  });

  it('a readable type is read as usual next to a missing one; another error is not a missing read', async () => {
    const client = fakeClient(
      {
        [`${P}/groups`]: groups.slice(0, 1),
        [`${P}/groups/g-1/configurations/pages?type=font`]: [{ allowed: ['Inter', 'Roboto'], name: 'Inter' }],
      },
      {
        [`${P}/groups/g-1/configurations/pages?type=theme`]: 404,
        [`${P}/groups/g-1/configurations/pages?type=image`]: 404,
      },
    );
    const theme: DesiredNode = {
      kind: 'Branding',
      address: 'group/one/branding/theme',
      parentAddress: 'group/one',
      fields: { type: 'theme', selected: 'dark' },
    };
    const out = await plan([group('one'), font('one', 'Inter'), theme], client);
    expect(out.live.byAddress.get('group/one/branding/font')?.fromRecord).toBeUndefined();
    expect(out.changes.map((c) => `${c.action} ${c.address}`)).toEqual(['create group/one/branding/theme']);
    const broken = fakeClient(
      { [`${P}/groups`]: groups.slice(0, 1) },
      { [`${P}/groups/g-1/configurations/pages`]: 500 },
    );
    await expect(plan([group('one'), font('one', 'Inter')], broken)).rejects.toThrow(/answered 500/);
  });

  it('the read path is a setting: brandingReadPath below the group', async () => {
    const client = fakeClient({
      [`${P}/groups`]: groups.slice(0, 1),
      [`${P}/groups/g-1/branding/styles?type=font`]: [{ allowed: ['Inter', 'Roboto'], name: 'Inter' }],
    });
    const live = await new LiveReader(
      client,
      { ...ctx, settings: { brandingReadPath: 'branding/styles' } },
      new Map(),
    ).read([group('one'), font('one', 'Inter')], order);
    expect(live.byAddress.get('group/one/branding/font')?.fields).toMatchObject({ name: 'Inter' });
    expect(client.calls).toContain(`${P}/groups/g-1/branding/styles?type=font`);
  });
});

describe('owners below system level (Doc 1 §4.2 groups for system administrators, §4.3/§4.4 lists without parent)', () => {
  const tenant = (reseller: string): DesiredNode => ({
    kind: 'Tenant',
    address: 'tenant/acme-corp',
    parentRef: { kind: 'Reseller', name: reseller },
    fields: { name: 'acme-corp', markup: 5 },
  });
  const visible = {
    [`${P}/tenants`]: [
      {
        uuid: 't-1',
        name: 'acme-corp',
        billingId: 'T-ACME',
        markup: '4',
        owner: { type: 'reseller', uuid: 'r-1', name: 'north' },
      },
    ],
  };

  it('finds the owner through the tenants the caller may list; a list under the owner that is refused (403) is replaced by that list', async () => {
    const underNorth = { [`${P}/tenants?parent=r-1`]: visible[`${P}/tenants`] };
    for (const [who, client] of [
      ['reseller administrator', fakeClient({ ...visible, ...underNorth }, { [`${P}/groups`]: 403 })],
      ['tenant administrator', fakeClient(visible, { [`${P}/groups`]: 403, [`${P}/tenants?parent=r-1`]: 403 })],
    ] as const) {
      const out = await plan([tenant('north')], client);
      expect(out.live.problems, who).toEqual([]);
      expect(out.changes, who).toMatchObject([{ action: 'update', address: 'tenant/acme-corp', id: 't-1' }]);
    }
    // A new tenant of the same owner is created with that owner's uuid.
    const wayne: DesiredNode = {
      kind: 'Tenant',
      address: 'tenant/wayne',
      parentRef: { kind: 'Reseller', name: 'north' },
      fields: { name: 'wayne' },
    };
    const created = await plan(
      [tenant('north'), wayne],
      fakeClient({ ...visible, ...underNorth }, { [`${P}/groups`]: 403 }),
    );
    expect(created.changes.find((c) => c.address === 'tenant/wayne')).toMatchObject({
      action: 'create',
      requests: [{ method: 'POST', path: `${P}/tenants` }],
    });
  });

  it('an object listed that way under another owner than the manifest names is refused (the owner cannot change)', async () => {
    const byUuid: DesiredNode = {
      kind: 'Tenant',
      address: 'tenant/acme-corp',
      parentRef: { kind: 'Reseller', uuid: 'r-2' },
      fields: { name: 'acme-corp', markup: 9 },
    };
    const out = await plan([byUuid], fakeClient(visible, { [`${P}/tenants?parent=r-2`]: 403 }));
    expect(out.live.problems).toEqual([]);
    expect(out.refusals).toEqual([
      {
        code: 'SB_OWNER_CHANGE',
        address: 'tenant/acme-corp',
        message: expect.stringContaining(
          'declared under reseller/r-2, but the live tenant (id t-1) is under reseller/north (uuid r-1)',
        ),
      },
    ]);
    expect(out.changes).toEqual([]);
    // An object the caller's own list does not hold is not planned as a create: it may exist out of sight.
    const hidden: DesiredNode = {
      kind: 'Tenant',
      address: 'tenant/hidden',
      parentRef: { kind: 'Reseller', uuid: 'r-2' },
      fields: { name: 'hidden' },
    };
    const blind = await plan([hidden], fakeClient(visible, { [`${P}/tenants?parent=r-2`]: 403 }));
    expect(blind.live.problems).toEqual([
      {
        address: 'tenant/hidden',
        message: 'cannot be read with these credentials: the list under reseller/r-2 answered 403',
      },
    ]);
  });

  it('an owner nothing visible names is a problem that says to name it by uuid; another status is not swallowed', async () => {
    const out = await plan([tenant('south')], fakeClient(visible, { [`${P}/groups`]: 403 }));
    expect(out.live.problems).toEqual([
      {
        address: 'tenant/acme-corp',
        message: expect.stringContaining('reseller "south" cannot be found with these credentials'),
      },
    ]);
    await expect(plan([tenant('north')], fakeClient(visible, { [`${P}/groups`]: 500 }))).rejects.toThrow(
      /answered 500/,
    );
  });
});
