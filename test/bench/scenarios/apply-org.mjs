/**
 * `apply-org`: `switchboard apply` creating 2,000 tenants, each with one subscription and
 * three entitlements, in an empty group, against `switchboard sim --latency`.
 */
import { join } from 'node:path';
import { runCli, simEnv } from '../lib/cli.mjs';
import { emptyGroupSeed, writeApplyManifests } from '../lib/estate.mjs';
import { startPlatformSim } from '../lib/sim.mjs';
import { applyPhase } from './apply-tenants.mjs';

const TENANTS = 2000;
const ENTITLEMENTS = 3;

/** What the apply cannot do without: the reads that find the empty group, then one POST per object (no bulk create exists for these kinds). */
export function applyOrgBound() {
  return {
    'login + profile': 2,
    'groups (to find the group by name)': 1,
    'tenants of the group (empty)': 1,
    'entitlement types (reference data)': 1,
    'tenant POSTs': TENANTS,
    'subscription POSTs': TENANTS,
    'entitlement POSTs': TENANTS * ENTITLEMENTS,
  };
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { defaultSeed } = await import('../../../dist/sim/index.js');
  const sim = await startPlatformSim({ latencyMs: ctx.latencyMs, nodeArgs: ctx.simNodeArgs });
  try {
    await sim.reset(emptyGroupSeed(defaultSeed()));
    const dir = join(ctx.workDir, `apply-org-${Date.now()}`);
    await writeApplyManifests(join(dir, 'manifests'), TENANTS);
    await sim.clearStats();
    const cli = await runCli(['apply', join(dir, 'manifests'), '--yes', '--concurrency', String(ctx.concurrency), '--state-dir', join(dir, '.switchboard')], { cwd: dir, env: simEnv(sim.url), nodeArgs: ctx.nodeArgs });
    if (cli.code !== 0) throw new Error(`apply exited ${cli.code}: ${cli.stdout.slice(-1500)} ${cli.stderr.slice(-1500)}`);
    const stats = await sim.stats();
    const summary = cli.stdout.split('\n').find((l) => l.startsWith('Apply complete')) ?? '';
    return {
      requests: stats.total,
      byRoute: stats.byRoute,
      bound: applyOrgBound(),
      wallS: cli.wallS,
      ...(await applyPhase(join(dir, '.switchboard'))),
      cpuS: cli.cpuS,
      cpuSystemS: cli.cpuSystemS,
      peakRssMB: cli.peakRssMB,
      concurrency: ctx.concurrency,
      note: summary,
    };
  } finally {
    await sim.close();
  }
}
