/**
 * `national`: a national operator's estate, `switchboard plan` of 50 resellers, 50,000
 * tenants, 50,000 subscriptions and 150,000 entitlements with 1% drift (2,500 updates), at
 * 1 ms of latency so that it fits a 2-core machine; then the same reads from a bare loop.
 * Held to the lower bound of requests, 1.15 × the floor's wall and 1 GB of CLI memory.
 */
import { NATIONAL } from '../lib/estate.mjs';
import { NATIONAL_LATENCY_MS } from '../lib/national-fixture.mjs';
import { planScenario } from './plan-org.mjs';

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  const estate = await ctx.shared.national();
  return {
    ...(await planScenario({ ...ctx, latencyMs: NATIONAL_LATENCY_MS }, estate, NATIONAL)),
    latencyMs: NATIONAL_LATENCY_MS,
  };
}
