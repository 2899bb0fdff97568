import { describe, expect, it } from 'vitest';
import type { KindContext, LiveObject, RequestSpec } from '../../src/kinds/types.js';
import { capacityPreflight } from '../../src/plan/capacity.js';
import type { Change } from '../../src/plan/types.js';
import type { CapacityRead, CapacityReads } from '../../src/state/capacity-reads.js';
import type { DesiredNode, LiveState } from '../../src/state/types.js';
import { staticRefs } from '../kinds/static-refs.js';

const P = '/api/v01/draas/demo';
const ctx: KindContext = { P, refs: staticRefs({}) };

const GROUP = 'g-1';
const group: LiveObject = { kind: 'Group', address: 'group/demo', id: GROUP, ids: { Group: GROUP }, fields: {} };
const reseller = (ids: Record<string, string>): LiveObject => ({
  kind: 'Reseller',
  address: 'reseller/north',
  id: 'r-1',
  ids: { ...ids, Reseller: 'r-1' },
  fields: {},
});
const tenant = (ids: Record<string, string>): LiveObject => ({
  kind: 'Tenant',
  address: 'tenant/acme',
  id: 't-1',
  parentAddress: 'reseller/north',
  ids: { ...ids, Reseller: 'r-1', Tenant: 't-1' },
  fields: {},
});
const SUB = 'tenant/acme/subscription/main';
const subscription = (ids: Record<string, string>): LiveObject => ({
  kind: 'Subscription',
  address: SUB,
  id: '7',
  parentAddress: 'tenant/acme',
  ids: { ...ids, Reseller: 'r-1', Tenant: 't-1', Subscription: '7' },
  fields: { name: 'main', uc: 'uc_alpha' },
});
const entitlement = (type: string, entitlement: number, assigned: number, reserved = 0): LiveObject => ({
  kind: 'Entitlement',
  address: `${SUB}/entitlement/${type}`,
  id: type,
  parentAddress: SUB,
  ids: { Subscription: '7', Entitlement: type },
  fields: { type, entitlement },
  facts: { assigned, reserved },
});

/** The detailed licence report of one group (Doc 2 §2.2) listing acme's main. */
const report = {
  licenses: {},
  group: {
    licenses: {},
    distributors: [
      {
        uuid: 'd-1',
        resellers: [
          {
            uuid: 'r-1',
            tenants: [
              {
                uuid: 't-1',
                subscriptions: [
                  {
                    id: 7,
                    name: 'main',
                    licenses: {
                      ucAlphaUsers: { assigned: 10, inUse: 10, name: 'u', description: '', service: null },
                      sipTrunkChannelNational: { assigned: 4, name: 'c', description: '', service: null },
                      sipTrunkChannelInternational: { assigned: 0, name: 'i', description: '', service: null },
                    },
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
};

function fakeReads(answers: { enabled?: string[] | 'refused'; report?: unknown; entitlements?: LiveObject[] }) {
  const calls: string[] = [];
  const reads: CapacityReads = {
    async listUnder(kind, parent): Promise<CapacityRead<LiveObject[]>> {
      calls.push(`list ${kind} ${parent.address}`);
      if (kind === 'EnabledUc') {
        if (answers.enabled === 'refused') return { unreadable: 'GET …/enabled_ucs answered 403' };
        return {
          ok: (answers.enabled ?? []).map((uc) => ({
            kind,
            address: `${parent.address}/enabled_uc/${uc}`,
            id: uc,
            ids: {},
            fields: { uc },
          })),
        };
      }
      return { ok: answers.entitlements ?? [] };
    },
    async listAll(kind) {
      calls.push(`all ${kind}`);
      return { ok: kind === 'Group' ? [group] : [] };
    },
    async get(request: RequestSpec) {
      calls.push(`get ${request.path}?${new URLSearchParams(request.query).toString()}`);
      return { ok: answers.report ?? report };
    },
  };
  return { reads, calls };
}

function live(objects: LiveObject[], collections: LiveState['collections'] = []): LiveState {
  return { byAddress: new Map(objects.map((o) => [o.address, o])), collections, problems: [] };
}

const change = (address: string, kind: string, action: Change['action']): Change => ({
  address,
  kind,
  provider: 'platform',
  action,
  before: action === 'create' ? null : {},
  after: action === 'delete' ? null : {},
  patch: [],
  reason: '',
  dependsOn: [],
  requests: [],
});

const node = (kind: string, address: string, fields: Record<string, unknown>, parentAddress?: string): DesiredNode => ({
  kind,
  address,
  fields,
  ...(parentAddress ? { parentAddress } : {}),
});

describe('the capacity pre-flight', () => {
  it('rows per touched subscription: declared entitlements against the live facts, licences from the report', async () => {
    const ids = { Group: GROUP };
    const geo = entitlement('BE geo', 10, 9, 4);
    const { reads, calls } = fakeReads({});
    const out = await capacityPreflight({
      changes: [change(`${SUB}/entitlement/BE geo`, 'Entitlement', 'update')],
      desired: [
        node('Subscription', SUB, { name: 'main' }, 'tenant/acme'),
        node('Entitlement', `${SUB}/entitlement/BE geo`, { type: 'BE geo', entitlement: 12 }, SUB),
        node('Entitlement', `${SUB}/entitlement/NL geo`, { type: 'NL geo' }, SUB),
      ],
      live: live(
        [group, reseller(ids), tenant(ids), subscription(ids), geo],
        [{ kind: 'Entitlement', parentAddress: SUB, addresses: [geo.address] }],
      ),
      ctx,
      reads,
    });
    expect(out.rows).toEqual([
      {
        address: `${SUB}/entitlement/BE geo`,
        scope: SUB,
        subject: 'entitlement BE geo',
        declared: 12,
        assigned: 9,
        reserved: 4,
        headroom: 3,
      },
      // A create without `entitlement`: the API's default, 0; no warning on a quantity of 0.
      {
        address: `${SUB}/entitlement/NL geo`,
        scope: SUB,
        subject: 'entitlement NL geo',
        declared: 0,
        assigned: 0,
        reserved: 0,
        headroom: 0,
      },
      {
        address: SUB,
        subject: 'licence sipTrunkChannelNational',
        declared: null,
        assigned: 4,
        reserved: 0,
        headroom: null,
      },
      {
        address: SUB,
        subject: 'licence ucAlphaUsers',
        declared: null,
        assigned: 10,
        reserved: 0,
        inUse: 10,
        headroom: 0,
        warning: 'headroom 0 of 10 (0%), under 10%',
      },
    ]);
    expect(out.warnings).toEqual([
      { code: 'SB_CAPACITY_LOW', address: SUB, message: 'licence ucAlphaUsers: headroom 0 of 10 (0%), under 10%' },
    ]);
    // The entitlements the plan listed are not listed again; one report for the group.
    expect(calls).toEqual([`get ${P}/groups/${GROUP}/licenses?detailed=true`]);
  });

  it('finds the group of a distributor’s reseller through the report that lists it; unreadable is a warning', async () => {
    const ids = { Distributor: 'd-1' };
    const { reads, calls } = fakeReads({ entitlements: [entitlement('BE geo', 5, 1)] });
    const input = {
      changes: [change(`${SUB}/address/x`, 'Address', 'create')],
      desired: [node('Subscription', SUB, { name: 'main' }, 'tenant/acme')],
      live: live([group, reseller(ids), tenant(ids), subscription(ids)]),
      ctx,
      reads,
    };
    const out = await capacityPreflight(input);
    expect(out.rows.map((r) => `${r.subject} ${r.headroom}`)).toEqual([
      'entitlement BE geo 4',
      'licence sipTrunkChannelNational null',
      'licence ucAlphaUsers 0',
    ]);
    expect(calls).toEqual([`list Entitlement ${SUB}`, 'all Group', `get ${P}/groups/${GROUP}/licenses?detailed=true`]);
    const elsewhere = fakeReads({ report: { group: { tenants: [] } } });
    const unknown = await capacityPreflight({ ...input, reads: elsewhere.reads });
    expect(unknown.warnings).toEqual([
      {
        code: 'SB_CAPACITY_UNCHECKED',
        address: SUB,
        message: 'capacity not checked: no group this plan can read lists it',
      },
    ]);
    const direct = { Group: GROUP };
    const misread = await capacityPreflight({
      ...input,
      live: live([group, reseller(direct), tenant(direct), subscription(direct)]),
      reads: fakeReads({ report: { nothing: true } }).reads,
    });
    expect(misread.misread?.problem).toBe('the detailed report has no "group" object');
  });

  it('refuses a created subscription whose uc its group does not enable; an empty list or a refused read does not', async () => {
    const ids = { Group: GROUP };
    const created = `tenant/acme/subscription/new`;
    const base = {
      changes: [change(created, 'Subscription', 'create')],
      desired: [node('Subscription', created, { name: 'new', uc: 'uc_beta' }, 'tenant/acme')],
      live: live([group, reseller(ids), tenant(ids)]),
      ctx,
    };
    const refused = await capacityPreflight({ ...base, reads: fakeReads({ enabled: ['uc_alpha'] }).reads });
    expect(refused.refusals).toEqual([
      {
        code: 'SB_UC_NOT_ENABLED',
        address: created,
        message:
          'uc "uc_beta" is not one of the enabled UC platforms of group/demo (uc_alpha): the platform refuses a subscription on a UC platform its group does not enable (Doc 1 §4.2)',
      },
    ]);
    expect((await capacityPreflight({ ...base, reads: fakeReads({ enabled: ['uc_beta'] }).reads })).refusals).toEqual(
      [],
    );
    expect((await capacityPreflight({ ...base, reads: fakeReads({ enabled: [] }).reads })).refusals).toEqual([]);
    const forbidden = await capacityPreflight({ ...base, reads: fakeReads({ enabled: 'refused' }).reads });
    expect(forbidden.refusals).toEqual([]);
    expect(forbidden.warnings).toContainEqual({
      code: 'SB_CAPACITY_UNCHECKED',
      address: created,
      message:
        'capacity not checked: the enabled UC platforms of group/demo cannot be read: GET …/enabled_ucs answered 403',
    });
    // A subscription the plan deletes has no capacity to show.
    const gone = await capacityPreflight({
      ...base,
      changes: [change(SUB, 'Subscription', 'delete')],
      live: live([group, reseller(ids), tenant(ids), subscription(ids)]),
      reads: fakeReads({}).reads,
    });
    expect(gone.rows).toEqual([]);
  });
});
