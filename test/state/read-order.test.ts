/**
 * The order the reader starts its reads in (src/state/read-pass.ts `parentsFirst`): a level's
 * reads under way at once are bounded, and each is its parent's list, shared by siblings; in
 * declared order the bound filled with the siblings of two or three parents, and the lists of
 * 20 resellers were read three at a time.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, ApiErrorCode } from '../../src/api/errors.js';
import { kinds } from '../../src/kinds/index.js';
import type { KindContext } from '../../src/kinds/types.js';
import { parentsFirst } from '../../src/state/read-pass.js';
import { LiveReader } from '../../src/state/read.js';
import type { DesiredNode, ListingClient } from '../../src/state/types.js';
import { staticRefs } from '../kinds/static-refs.js';

const P = '/api/v01/draas/demo';
const ctx: KindContext = { P, refs: staticRefs({}) };
const RESELLERS = 20;
const TENANTS_EACH = 100;

const reseller = (r: number): DesiredNode => ({
  kind: 'Reseller',
  address: `reseller/r${r}`,
  parentRef: { kind: 'Group', name: 'demo-group' },
  fields: { name: `r${r}` },
});
const tenant = (r: number, t: number): DesiredNode => ({
  kind: 'Tenant',
  address: `tenant/r${r}-t${t}`,
  parentAddress: `reseller/r${r}`,
  fields: { name: `r${r}-t${t}` },
});

describe('parentsFirst', () => {
  it('puts the first node of each parent first, then the others in their declared order', () => {
    const nodes = [tenant(1, 1), tenant(1, 2), tenant(2, 1), tenant(1, 3), tenant(3, 1), tenant(2, 2)];
    expect(parentsFirst(nodes).map((n) => n.address)).toEqual([
      'tenant/r1-t1',
      'tenant/r2-t1',
      'tenant/r3-t1',
      'tenant/r1-t2',
      'tenant/r1-t3',
      'tenant/r2-t2',
    ]);
  });

  it('tells parents named by reference apart by kind, uuid and name, and from a declared parent', () => {
    const byRef = (kind: string, ref: { uuid?: string; name?: string }, n: number): DesiredNode => ({
      kind: 'Tenant',
      address: `tenant/x${n}`,
      parentRef: { kind, ...ref },
      fields: {},
    });
    const nodes = [
      byRef('Reseller', { name: 'a' }, 1),
      byRef('Reseller', { name: 'a' }, 2),
      byRef('Group', { name: 'a' }, 3),
      byRef('Reseller', { uuid: 'a' }, 4),
      { ...tenant(1, 1), parentAddress: 'reseller/a' },
      { kind: 'Group', address: 'group/g', fields: {} },
      { kind: 'Group', address: 'group/h', fields: {} },
    ];
    expect(parentsFirst(nodes).map((n) => n.address)).toEqual([
      'tenant/x1',
      'tenant/x3',
      'tenant/x4',
      'tenant/r1-t1',
      'group/g',
      'tenant/x2',
      'group/h',
    ]);
  });
});

describe('the lists of a level', () => {
  it('are all under way at once, not a few parents at a time', async () => {
    let inFlight = 0;
    let peakTenantLists = 0;
    const answer = (path: string, query: Record<string, string> = {}): unknown[] => {
      const owner = (type: string, uuid: string) => ({ owner: { type, uuid, name: uuid } });
      if (path === `${P}/groups`) return [{ uuid: 'g', name: 'demo-group' }];
      if (path === `${P}/resellers`)
        return Array.from({ length: RESELLERS }, (_, r) => ({ uuid: `r${r}`, name: `r${r}`, ...owner('group', 'g') }));
      if (path === `${P}/tenants`) {
        const r = Number(query['parent']?.slice(1));
        return Array.from({ length: TENANTS_EACH }, (_, t) => ({
          uuid: `r${r}-t${t}`,
          name: `r${r}-t${t}`,
          ...owner('reseller', `r${r}`),
        }));
      }
      return [];
    };
    const client: ListingClient = {
      listPages: async <T>(o: { path: string; query?: Record<string, string> }) => {
        const tenants = o.path === `${P}/tenants`;
        if (tenants) peakTenantLists = Math.max(peakTenantLists, ++inFlight);
        // The answer comes after the other reads had their turn, as over a network.
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (tenants) inFlight--;
        return answer(o.path, o.query) as T[];
      },
      request: async () => ({ status: 404, body: undefined as never }),
    };
    const desired = Array.from({ length: RESELLERS }, (_, r) => reseller(r));
    for (let r = 0; r < RESELLERS; r++) for (let t = 0; t < TENANTS_EACH; t++) desired.push(tenant(r, t));
    const live = await new LiveReader(client, ctx).read(
      desired,
      kinds.map((k) => k.kind),
    );
    expect(peakTenantLists).toBe(RESELLERS);
    expect(live.byAddress.size).toBe(1 + RESELLERS + RESELLERS * TENANTS_EACH);
  });
});

describe('the levels of a read', () => {
  it("start an object's read when its parent's is done, not when its parent's whole level is", async () => {
    const events: string[] = [];
    let subscriptionsAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (subscriptionsAsked = resolve));
    const owner = (type: string, uuid: string) => ({ owner: { type, uuid, name: uuid } });
    const client: ListingClient = {
      listPages: async <T>(o: { path: string; query?: Record<string, string> }) => {
        if (o.path === `${P}/groups`) return [{ uuid: 'g', name: 'demo-group' }] as T[];
        if (o.path === `${P}/resellers`)
          return [0, 1].map((r) => ({ uuid: `r${r}`, name: `r${r}`, ...owner('group', 'g') })) as T[];
        if (o.path === `${P}/tenants`) {
          const r = o.query?.['parent'];
          // r1's tenants answer once r0's tenant asked for its subscriptions (or, read level by level, after 2 s).
          if (r === 'r1') await Promise.race([asked, new Promise((resolve) => setTimeout(resolve, 2_000))]);
          events.push(`tenants of ${r} answered`);
          return [{ uuid: `${r}-t`, name: `${r}-t`, ...owner('reseller', r ?? '') }] as T[];
        }
        if (o.path.endsWith('/subscriptions')) {
          events.push(`subscriptions of ${o.path.split('/').at(-2)} asked`);
          subscriptionsAsked();
          return [] as T[];
        }
        return [] as T[];
      },
      request: async () => ({ status: 404, body: undefined as never }),
    };
    const desired: DesiredNode[] = [0, 1].flatMap((r) => [
      reseller(r),
      { ...tenant(r, 0), address: `tenant/r${r}-t`, fields: { name: `r${r}-t` } },
      {
        kind: 'Subscription',
        address: `tenant/r${r}-t/subscription/s`,
        parentAddress: `tenant/r${r}-t`,
        fields: { name: 's' },
      },
    ]);
    await new LiveReader(client, ctx).read(
      desired,
      kinds.map((k) => k.kind),
    );
    expect(events).toEqual([
      'tenants of r0 answered',
      'subscriptions of r0-t asked',
      'tenants of r1 answered',
      'subscriptions of r1-t asked',
    ]);
  });
});

describe('what the reader says does not depend on which answer came first', () => {
  /** Two groups whose branding reads answer 404 (a read the platform may lack), group a's after `aMs`, b's after `bMs`. */
  async function warningsWith(aMs: number, bMs: number): Promise<string[]> {
    const groups = [
      { uuid: 'ga', name: 'a' },
      { uuid: 'gb', name: 'b' },
    ];
    const client: ListingClient = {
      listPages: async <T>(o: { path: string }) => (o.path === `${P}/groups` ? groups : []) as T[],
      request: async (o: { path: string }) => {
        const group = /\/groups\/(g[ab])\//.exec(o.path)?.[1];
        await new Promise((resolve) => setTimeout(resolve, group === 'ga' ? aMs : bMs));
        throw new ApiError({
          code: ApiErrorCode.notFound,
          method: 'GET',
          path: o.path,
          status: 404,
          retryable: false,
          detail: 'not found',
        });
      },
    };
    const desired: DesiredNode[] = ['a', 'b'].flatMap((g) => [
      { kind: 'Group', address: `group/${g}`, fields: { name: g } },
      {
        kind: 'Branding',
        address: `group/${g}/branding/font`,
        parentAddress: `group/${g}`,
        fields: { type: 'font', name: 'Inter' },
      },
    ]);
    const live = await new LiveReader(client, ctx).read(
      desired,
      kinds.map((k) => k.kind),
    );
    return (live.warnings ?? []).map((w) => w.message);
  }

  it("a kind's missing read is said once, naming the same list whichever group answered first", async () => {
    const aFirst = await warningsWith(1, 20);
    const bFirst = await warningsWith(20, 1);
    expect(aFirst).toHaveLength(1);
    expect(aFirst[0]).toMatch(/^GET \/api\/v01\/draas\/demo\/groups\/ga\//);
    expect(bFirst).toEqual(aFirst);
  });
});
