/**
 * The `national` estate, live on a simulator process at 1 ms of latency and desired in
 * manifests on disk: `national` plans it whole, `national-changed-since` plans a one-tenant
 * edit of it, so one run sets it up once for both.
 */
import { join } from 'node:path';
import { NATIONAL, NATIONAL_DRIFT, orgLive, writeOrgManifests } from './estate.mjs';
import { startPlatformSim } from './sim.mjs';

export const NATIONAL_LATENCY_MS = 1;

/** @param {{ workDir: string, simNodeArgs: string[], log: (line: string) => void }} ctx */
export async function setUpNational(ctx) {
  const { defaultSeed } = await import('../../../dist/sim/index.js');
  const begin = performance.now();
  const sim = await startPlatformSim({ latencyMs: NATIONAL_LATENCY_MS, nodeArgs: ctx.simNodeArgs });
  try {
    const { seed } = orgLive(defaultSeed(), NATIONAL);
    await sim.reset(seed);
    const dir = join(ctx.workDir, 'national');
    const { changes } = await writeOrgManifests(join(dir, 'manifests'), NATIONAL, NATIONAL_DRIFT);
    ctx.log(
      `  estate: ${NATIONAL.resellers} resellers, ${(NATIONAL.resellers * NATIONAL.tenantsPerReseller).toLocaleString('en')} tenants; ${changes} changes of drift; latency ${NATIONAL_LATENCY_MS} ms (set up in ${((performance.now() - begin) / 1000).toFixed(1)} s)`,
    );
    return { sim, dir, changes };
  } catch (error) {
    await sim.close();
    throw error;
  }
}
