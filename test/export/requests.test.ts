import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { runCli, simEnv } from '../e2e/cli-helpers.js';
import { estateSeed, type EstateSize } from './estate-seed.js';

/**
 * Requests for reading a seeded estate, export and plan, against the lower bound: one
 * request per collection page at the server's page cap (100), plus the profile. The
 * default size keeps the shared test run short; `EXPORT_BENCH_TENANTS=2000` is the
 * measurement docs/export.md "Requests" reports.
 */
const size: EstateSize = {
  tenants: Number(process.env['EXPORT_BENCH_TENANTS'] ?? 200),
  subscriptionsPerTenant: 2,
  entitlementsPerSubscription: 3,
};
const PAGE = 100;

interface RouteCount {
  method: string;
  route: string;
  requests: number;
}
interface Stats {
  platform: { requests: number; routes: RouteCount[] };
}

let sim: RunningSimulator;
let out: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: estateSeed(size) });
  out = join(await mkdtemp(join(tmpdir(), 'switchboard-estate-')), 'manifests');
});

afterAll(async () => {
  await sim.close();
});

function byRoute(stats: Stats): Record<string, number> {
  return Object.fromEntries(
    stats.platform.routes.map((r) => [`${r.method} ${r.route.replace('/api/v01/draas/{instance}', 'P')}`, r.requests]),
  );
}

function lastJsonLine(text: string): Stats {
  const line =
    text
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .at(-1) ?? '{}';
  return JSON.parse(line) as Stats;
}

// The estate plus the default data set (3 tenants; acme-corp and globex have one subscription each, initech none).
const tenants = size.tenants + 3;
const subscriptions = size.tenants * size.subscriptionsPerTenant + 2;

describe(`reading an estate of ${size.tenants} tenants × ${size.subscriptionsPerTenant} subscriptions × ${size.entitlementsPerSubscription} entitlements`, () => {
  it('export reads every collection once, one page per 100 items, and a GET per object only where the kind needs one', async () => {
    const result = await runCli(['export', '--out', out, '--stats'], { env: simEnv(sim.url) });
    expect(result.code).toBe(0);
    const routes = byRoute(lastJsonLine(result.stderr));
    // Everything under the group comes from one list of its subtree: no second read through the resellers.
    expect(routes['GET P/tenants']).toBe(Math.ceil(tenants / PAGE));
    expect(routes['GET P/resellers']).toBe(1);
    expect(routes['GET P/tenants/{id}/subscriptions']).toBe(tenants);
    for (const collection of ['entitlements', 'addresses', 'locations', 'numbers', 'uc_alpha/templates']) {
      expect(routes[`GET P/tenants/{id}/subscriptions/{id}/${collection}`]).toBe(subscriptions);
    }
    // The one product's items are only in its detail view; the default template is not read.
    expect(routes['GET P/public/products/{id}']).toBe(1);
    expect(routes['GET P/tenants/{id}/subscriptions/{id}/uc_alpha/templates/{id}']).toBeUndefined();
    console.log(`export: ${JSON.stringify(routes)}`);
  }, 300_000);

  it('plan of the exported manifests reports no changes; its requests against the lower bound', async () => {
    const result = await runCli(['plan', out, '--detailed-exitcode', '--stats'], { env: simEnv(sim.url) });
    expect(result.stdout).toContain('No changes.');
    expect(result.code).toBe(0);
    const stats = lastJsonLine(result.stderr);
    const routes = byRoute(stats);
    const entitlementLists = size.tenants * size.subscriptionsPerTenant + 1; // globex's subscription declares no entitlements
    const bound =
      1 + // the profile
      1 + // groups
      1 + // resellers of the group
      Math.ceil(tenants / PAGE) + // every tenant, through the group's subtree list
      (tenants - 1) + // subscriptions of each tenant that declares some (initech declares none)
      entitlementLists +
      1 +
      1 +
      3 + // the group's products, the product detail (items), branding (3 types)
      1; // the group's enabled UC platforms (exported, so declared)
    const measured = stats.platform.requests - (routes['POST /api/v01/auth/login'] ?? 0);
    console.log(`plan: ${measured} requests (lower bound ${bound}): ${JSON.stringify(routes)}`);
    // Every route but the reseller and tenant lists reads at the bound.
    expect(routes['GET P/tenants/{id}/subscriptions']).toBe(tenants - 1);
    expect(routes['GET P/tenants/{id}/subscriptions/{id}/entitlements']).toBe(entitlementLists);
    const orgLists = (routes['GET P/tenants'] ?? 0) + (routes['GET P/resellers'] ?? 0);
    expect(measured - orgLists).toBe(bound - Math.ceil(tenants / PAGE) - 1);
    // The planner lists tenants once per declared parent (group, north, south) although the
    // group's list already answers its whole subtree, and resellers once per parent (the
    // group, and the distributor of south by uuid): at most that much above the bound.
    const northTenants = Math.floor(size.tenants / 2) + 1;
    const explained = Math.ceil(northTenants / PAGE) + 1 + 1;
    expect(measured).toBeLessThanOrEqual(bound + explained);
  }, 300_000);
});
