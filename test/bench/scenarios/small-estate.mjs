/**
 * `small-estate`: `switchboard plan` of the estate most teams have (10 resellers, 200
 * tenants, 400 subscriptions, 1,200 entitlements and 800 addresses, 1 % drift) at 10 ms of
 * latency, then the same reads from a bare loop. About 1,000 requests: Node's start and the
 * manifest load are a large share of the wall, which is what it is held to (1.5 × its floor).
 */
import { SMALL } from '../lib/estate.mjs';
import { planScenario } from './plan-org.mjs';

/** @param {import('../run.mjs').ScenarioContext} ctx */
export async function run(ctx) {
  return planScenario(ctx, await ctx.shared.small(), SMALL);
}
