/**
 * `plan-org`: `switchboard plan` of 20 resellers, 2,000 tenants, 4,000 subscriptions,
 * 12,000 entitlements and 4,000 addresses with 1% drift, against `switchboard sim --latency`;
 * then the same reads from a bare loop (the floor).
 */
import { join } from 'node:path';
import { planSummaryOf, runCli, simEnv } from '../lib/cli.mjs';
import { ORG } from '../lib/estate.mjs';
import { bareLoop, planOrgReadPaths } from '../lib/floor.mjs';

/** Requests the plan cannot do without, from the estate's shape (docs/performance.md). */
export function planOrgBound(pageCap, size = ORG) {
  const tenants = size.resellers * size.tenantsPerReseller;
  const subscriptions = tenants * size.subscriptionsPerTenant;
  return {
    'login + profile': 2,
    'groups (to find demo-group by name)': 1,
    'resellers of the group': Math.ceil((size.resellers + 1) / pageCap),
    'tenants, per declared reseller': size.resellers * Math.ceil(size.tenantsPerReseller / pageCap),
    'subscriptions, per tenant': tenants,
    'entitlements, per subscription': subscriptions,
    ...(size.addressesPerSubscription > 0 ? { 'addresses, per subscription': subscriptions } : {}),
  };
}

/**
 * `switchboard plan` of an estate set up on `sim` (manifests in `dir`), then its reads from
 * a bare loop in its own process: the figures of `plan-org`, `small-estate` and `national`.
 */
export async function planScenario(ctx, { sim, dir, changes }, size) {
  await sim.clearStats();
  const cli = await runCli(
    ['plan', join(dir, 'manifests'), '--detailed-exitcode', '--concurrency', String(ctx.concurrency)],
    { cwd: dir, env: simEnv(sim.url), nodeArgs: ctx.nodeArgs },
  );
  const summary = planSummaryOf(cli);
  const stats = await sim.stats();
  const paths = planOrgReadPaths(await sim.state(), ctx.pageCap, size.addressesPerSubscription > 0);
  const floor = await bareLoop({ loop: 'read', url: sim.url, paths, concurrency: ctx.concurrency });
  return {
    ...floor,
    requests: stats.total,
    byRoute: stats.byRoute,
    bound: planOrgBound(ctx.pageCap, size),
    wallS: cli.wallS,
    cpuS: cli.cpuS,
    cpuSystemS: cli.cpuSystemS,
    peakRssMB: cli.peakRssMB,
    concurrency: ctx.concurrency,
    note: `${summary} (drift generated: ${changes} changes)`,
  };
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  return planScenario(ctx, await ctx.shared.org(), ORG);
}
