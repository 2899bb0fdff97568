/**
 * `plan-org`: `switchboard plan` of 20 resellers, 2,000 tenants, 4,000 subscriptions,
 * 12,000 entitlements and 4,000 addresses with 1% drift, against `switchboard sim --latency`.
 */
import { join } from 'node:path';
import { runCli, simEnv } from '../lib/cli.mjs';
import { ORG } from '../lib/estate.mjs';
import { bareReadSeconds, planOrgReadPaths } from '../lib/floor.mjs';

/** Requests the plan cannot do without, from the estate's shape (README "Performance"). */
export function planOrgBound(pageCap) {
  const tenants = ORG.resellers * ORG.tenantsPerReseller;
  const subscriptions = tenants * ORG.subscriptionsPerTenant;
  const parts = {
    'login + profile': 2,
    'groups (to find demo-group by name)': 1,
    'resellers of the group': Math.ceil((ORG.resellers + 1) / pageCap),
    'tenants, per declared reseller': ORG.resellers * Math.ceil(ORG.tenantsPerReseller / pageCap),
    'subscriptions, per tenant': tenants,
    'entitlements, per subscription': subscriptions,
    'addresses, per subscription': subscriptions,
  };
  return parts;
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { sim, dir, changes } = await ctx.shared.org();
  await sim.clearStats();
  const cli = await runCli(
    ['plan', join(dir, 'manifests'), '--detailed-exitcode', '--concurrency', String(ctx.concurrency)],
    { cwd: dir, env: simEnv(sim.url), nodeArgs: ctx.nodeArgs },
  );
  if (cli.code !== 2) throw new Error(`plan exited ${cli.code} (expected 2: changes): ${cli.stderr.slice(-2000)}`);
  const summary =
    cli.stdout
      .trim()
      .split('\n')
      .filter((l) => /^Plan:/.test(l))
      .at(-1) ?? '';
  const stats = await sim.stats();
  const floorS = await bareReadSeconds(sim.url, planOrgReadPaths(await sim.state()), ctx.concurrency);
  return {
    floorS,
    requests: stats.total,
    byRoute: stats.byRoute,
    bound: planOrgBound(ctx.pageCap),
    wallS: cli.wallS,
    cpuS: cli.cpuS,
    cpuSystemS: cli.cpuSystemS,
    peakRssMB: cli.peakRssMB,
    concurrency: ctx.concurrency,
    note: `${summary} (drift generated: ${changes} changes)`,
  };
}
