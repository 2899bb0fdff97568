/**
 * `national`: a national operator's estate, `switchboard plan` of 50 resellers, 50,000
 * tenants, 50,000 subscriptions and 150,000 entitlements with 1% drift (2,500 updates), at
 * 1 ms of latency so that it fits a 2-core machine; then the same reads from a bare loop.
 * Held to the lower bound of requests, 1.15 × the floor's wall and 1 GB of CLI memory.
 */
import { join } from 'node:path';
import { NATIONAL, NATIONAL_DRIFT, orgLive, writeOrgManifests } from '../lib/estate.mjs';
import { startPlatformSim } from '../lib/sim.mjs';
import { planScenario } from './plan-org.mjs';

const LATENCY_MS = 1;

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const { defaultSeed } = await import('../../../dist/sim/index.js');
  const begin = performance.now();
  const sim = await startPlatformSim({ latencyMs: LATENCY_MS, nodeArgs: ctx.simNodeArgs });
  try {
    const { seed } = orgLive(defaultSeed(), NATIONAL);
    await sim.reset(seed);
    const dir = join(ctx.workDir, `national-${Date.now()}`);
    const { changes } = await writeOrgManifests(join(dir, 'manifests'), NATIONAL, NATIONAL_DRIFT);
    ctx.log(
      `  estate: ${NATIONAL.resellers} resellers, ${(NATIONAL.resellers * NATIONAL.tenantsPerReseller).toLocaleString('en')} tenants; ${changes} changes of drift; latency ${LATENCY_MS} ms (set up in ${((performance.now() - begin) / 1000).toFixed(1)} s)`,
    );
    return {
      ...(await planScenario({ ...ctx, latencyMs: LATENCY_MS }, { sim, dir, changes }, NATIONAL)),
      latencyMs: LATENCY_MS,
    };
  } finally {
    await sim.close();
  }
}
