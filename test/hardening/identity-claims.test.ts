/**
 * One live object is declared once. Two documents that name the same live object by
 * different means (one by `metadata.uuid`, the other by its current name or by
 * `renamedFrom`; or one by `renamedFrom`, the other by its current name) would both be
 * applied to its id, and the next plan would create the one that lost as a new, empty
 * object. Whatever the pair of means, the plan fails (exit 1) naming both documents with
 * their positions, before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kinds } from '../../src/kinds/index.js';
import type { KindContext } from '../../src/kinds/types.js';
import { computeChanges } from '../../src/plan/planner.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { LiveReader } from '../../src/state/read.js';
import type { DesiredNode, ListingClient } from '../../src/state/types.js';
import { adminApi, manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';
import { staticRefs } from '../kinds/static-refs.js';

const P = '/api/v01/draas/demo';

describe('two documents claiming one live tenant, through the CLI (Document 1 §4.4)', () => {
  let sim: RunningSimulator;
  let acme = '';
  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    const api = await adminApi(sim.url);
    const group = (await api('GET', `${P}/groups`)).body.groups[0].uuid as string;
    const tenants = (await api('GET', `${P}/tenants?parent=${group}&page_size=100`)).body.tenants as {
      name: string;
      uuid: string;
    }[];
    acme = tenants.find((t) => t.name === 'acme-corp')!.uuid;
  });
  afterAll(async () => {
    await sim.close();
  });

  const doc = (name: string, metadata = '') => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: ${name}, reseller: north${metadata} }
spec: { billingId: T-${name.toUpperCase()}, markup: 4 }
`;

  const pairs: [string, () => Record<string, string>, RegExp, RegExp][] = [
    [
      'renamedFrom and metadata.uuid',
      () => ({ 'a.yaml': doc('acme-a', ', renamedFrom: [acme-corp]'), 'b.yaml': doc('acme-b', `, uuid: ${acme}`) }),
      /tenant\/acme-a \(.*a\.yaml:1:1, by renamedFrom\)/,
      /tenant\/acme-b \(.*b\.yaml:1:1, by metadata\.uuid\)/,
    ],
    [
      'metadata.uuid and the current name',
      () => ({ 'a.yaml': doc('acme-a', `, uuid: ${acme}`), 'b.yaml': doc('acme-corp') }),
      /tenant\/acme-a \(.*a\.yaml:1:1, by metadata\.uuid\)/,
      /tenant\/acme-corp \(.*b\.yaml:1:1, by its name\)/,
    ],
  ];

  for (const [means, files, first, second] of pairs) {
    it(`${means}: plan and apply fail naming both documents, and nothing is sent`, async () => {
      const dir = await manifestDir(files());
      const planned = await runCli(['plan', dir], { env: simEnv(sim.url) });
      expect(planned.code, planned.stdout).toBe(1);
      expect(planned.stderr).toContain('SB_DUPLICATE_CLAIM');
      const message = planned.stderr.split('\n').find((l) => l.includes('SB_DUPLICATE_CLAIM')) ?? '';
      expect(message).toMatch(first);
      expect(message).toMatch(second);
      expect(message).toContain(`the live tenant tenant/acme-corp (id ${acme}) is claimed by two declared objects`);

      const writesBefore = await writes(sim.url);
      const applied = await runCli(['apply', dir, '--yes'], { env: simEnv(sim.url), cwd: dir });
      expect(applied.code).toBe(1);
      expect(applied.stderr).toContain('SB_DUPLICATE_CLAIM');
      expect(await writes(sim.url)).toBe(writesBefore);
    });
  }
});

/** Writes the simulator served so far (PUT, POST but logins, DELETE). */
async function writes(url: string): Promise<number> {
  const stats = (await (await fetch(`${url}/_sim/stats`)).json()) as { byRoute?: Record<string, number> };
  return Object.entries(stats.byRoute ?? {})
    .filter(([route]) => /^(PUT|DELETE|POST) /.test(route) && !route.includes('/auth/'))
    .reduce((n, [, count]) => n + count, 0);
}

/**
 * The same class at the reader, under the manifest checks (which refuse some pairs by
 * address, not all): every pair of means that binds two declared objects to one live id.
 */
describe('the reader refuses any second claim on one live object', () => {
  const ctx: KindContext = { P, refs: staticRefs({}) };
  const order = kinds.map((k) => k.kind);
  const live = {
    uuid: 't-1',
    name: 'acme-corp',
    billingId: 'T-ACME',
    owner: { type: 'reseller', uuid: 'r-1', name: 'north' },
  };
  const lists: Record<string, unknown[]> = {
    [`${P}/groups`]: [{ uuid: 'g-1', name: 'demo-group' }],
    [`${P}/resellers?parent=g-1`]: [
      { uuid: 'r-1', name: 'north', owner: { type: 'group', uuid: 'g-1', name: 'demo-group' } },
    ],
    [`${P}/tenants?parent=r-1`]: [live],
    [`${P}/tenants?parent=g-1`]: [live],
  };
  const client: ListingClient = {
    listPages: async <T>(o: { path: string; query?: Record<string, string> }) => {
      const key = o.query && Object.keys(o.query).length ? `${o.path}?${new URLSearchParams(o.query)}` : o.path;
      return (lists[key] ?? []) as T[];
    },
    request: async () => {
      throw new Error('no GET of one object is expected');
    },
  };
  const tenant = (name: string, extra: Partial<DesiredNode>, line: number): DesiredNode => ({
    kind: 'Tenant',
    address: `tenant/${name}`,
    parentRef: { kind: 'Reseller', name: 'north' },
    fields: { name, billingId: 'T-ACME' },
    source: `tenants.yaml:${line}:1`,
    ...extra,
  });
  const byName = (line: number) => tenant('acme-corp', {}, line);
  const byUuid = (line: number) => tenant('acme-pinned', { pinnedId: 't-1' }, line);
  const byFormer = (line: number) => tenant('acme-renamed', { previousAddresses: ['tenant/acme-corp'] }, line);
  const cases: [string, DesiredNode[]][] = [
    ['renamedFrom + metadata.uuid', [byFormer(1), byUuid(5)]],
    ['metadata.uuid + current name', [byUuid(1), byName(5)]],
    ['renamedFrom + current name', [byFormer(1), byName(5)]],
    ['current name + renamedFrom (the other order)', [byName(1), byFormer(5)]],
  ];
  for (const [what, desired] of cases) {
    it(`${what}: a problem naming both, on each of them, and no change planned for either`, async () => {
      const state = await new LiveReader(client, ctx).read(desired, order);
      const out = await computeChanges({
        desired,
        live: state,
        lastApplied: new Map(),
        ctx,
        options: { prune: false },
      });
      const claims = out.problems.filter((p) => p.code === 'SB_DUPLICATE_CLAIM');
      expect(claims.map((p) => p.address).sort()).toEqual(desired.map((d) => d.address).sort());
      for (const d of desired) expect(claims[0]?.message).toContain(`${d.address} (${d.source}`);
      expect(claims[0]?.message).toContain('tenant/acme-corp (id t-1)');
    });
  }

  it('two owners spelt alike are told apart by their uuids when a tenant is refused as moved', async () => {
    const other = { ...live, owner: { type: 'reseller', uuid: 'r-9', name: 'north' } };
    const twin: ListingClient = {
      ...client,
      listPages: async <T>(o: { path: string; query?: Record<string, string> }) => {
        const key = o.query && Object.keys(o.query).length ? `${o.path}?${new URLSearchParams(o.query)}` : o.path;
        if (key === `${P}/tenants?parent=r-1`) return [] as T[];
        if (key === `${P}/tenants?parent=g-1`) return [other] as T[];
        return (lists[key] ?? []) as T[];
      },
    };
    const state = await new LiveReader(twin, ctx).read([byName(1)], order);
    const refusal = state.refusals?.find((r) => r.code === 'SB_OWNER_CHANGE');
    expect(refusal?.message).toContain(
      'declared under reseller/north (uuid r-1), but the live tenant (id t-1) is under reseller/north (uuid r-9)',
    );
  });
});
