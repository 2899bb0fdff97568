/**
 * `naive`: the `plan-org` read done the way a script or a per-object refresh (Terraform's
 * model) does it: one GET per object, one after the other, on the same simulator and
 * estate. The ids come from the simulator's state dump, as a state file would hold them,
 * and are not timed. Entitlements have no GET by id (Doc 2 §4.3): refreshing one is a GET
 * of its subscription's entitlement list, as a provider has to do.
 */
import { ApiSession } from '../lib/sim.mjs';
import { planOrgBound } from './plan-org.mjs';

/** The bench estate's objects as GET paths, parents first. */
function objectPaths(state) {
  const P = '/api/v01/draas/demo';
  const tenants = state.tables.tenants.filter((t) => t.name.startsWith('bench-'));
  const tenantIds = new Set(tenants.map((t) => t.uuid));
  const subs = state.tables.subscriptions.filter((s) => tenantIds.has(s.tenantUuid));
  const subById = new Map(subs.map((s) => [s.id, s]));
  const T = (s) => `${P}/tenants/${s.tenantUuid}/subscriptions/${s.id}`;
  return [
    ...state.tables.resellers.filter((r) => r.name.startsWith('bench-')).map((r) => `${P}/resellers/${r.uuid}`),
    ...tenants.map((t) => `${P}/tenants/${t.uuid}`),
    ...subs.map((s) => T(s)),
    ...state.tables.entitlements
      .filter((e) => subById.has(e.subscriptionId))
      .map((e) => `${T(subById.get(e.subscriptionId))}/entitlements`),
    ...state.tables.addresses
      .filter((a) => subById.has(a.subscriptionId))
      .map((a) => `${T(subById.get(a.subscriptionId))}/addresses/${a.id}`),
  ];
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { sim } = await ctx.shared.org();
  const paths = objectPaths(await sim.state());
  const api = new ApiSession(sim.url, sim.agent);
  const begin = performance.now();
  await api.login();
  for (const path of paths) {
    const res = await api.call('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}`);
  }
  return {
    requests: api.requests,
    byRoute: {},
    bound: planOrgBound(ctx.pageCap),
    wallS: (performance.now() - begin) / 1000,
    concurrency: 1,
    note: `${paths.length} objects, one GET each, sequential (${api.requests - paths.length} logins: the access token lives 2 minutes)`,
  };
}
