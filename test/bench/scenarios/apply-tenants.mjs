/**
 * `apply-tenants`: `switchboard apply` creating 2,000 tenants with one
 * subscription each in an empty group, against `switchboard sim --latency`. The apply
 * phase (the executor, from the journal) is held to 1.3× its requests × latency ÷
 * concurrency; the whole command's wall is reported against the same ideal, and the same
 * POSTs from a bare loop give this machine's floor.
 */
import { runApplyScenario } from '../lib/apply-run.mjs';

const TENANTS = 2000;

/** What the apply cannot do without: the reads that find the empty group, then one POST per object. */
export function applyTenantsBound() {
  return {
    'login + profile': 2,
    'groups (to find the group by name)': 1,
    'tenants of the group (empty)': 1,
    'tenant POSTs': TENANTS,
    'subscription POSTs': TENANTS,
  };
}

/** @param {import('../run.mjs').ScenarioContext} ctx */
export function run(ctx) {
  return runApplyScenario(ctx, {
    name: 'apply-tenants',
    tenants: TENANTS,
    entitlements: 0,
    bound: applyTenantsBound(),
    floor: true,
  });
}
