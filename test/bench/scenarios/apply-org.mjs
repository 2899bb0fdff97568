/**
 * `apply-org`: `switchboard apply` creating 2,000 tenants, each with one subscription and
 * three entitlements, in an empty group, against `switchboard sim --latency`.
 */
import { runApplyScenario } from '../lib/apply-run.mjs';

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
export function run(ctx) {
  return runApplyScenario(ctx, {
    name: 'apply-org',
    tenants: TENANTS,
    entitlements: ENTITLEMENTS,
    bound: applyOrgBound(),
    floor: true,
  });
}
