/**
 * `national-changed-since`: the `national` estate (50,000 tenants in 50 manifest files,
 * 250,000 objects, 19 MB of YAML) in a git repository, one tenant's markup edited, and
 * `switchboard plan --changed-since HEAD` at 1 ms of latency. The plan reads one tenant's
 * subtree; the whole manifest set is still loaded and checked, which is what its wall measures.
 */
import { NATIONAL } from '../lib/estate.mjs';
import { NATIONAL_LATENCY_MS } from '../lib/national-fixture.mjs';
import { changedSinceScenario } from './changed-since.mjs';

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const estate = await ctx.shared.national();
  return {
    ...(await changedSinceScenario({ ...ctx, latencyMs: NATIONAL_LATENCY_MS }, estate, NATIONAL)),
    latencyMs: NATIONAL_LATENCY_MS,
  };
}
