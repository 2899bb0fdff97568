/**
 * `switchboard plan` of examples/ on an embedded simulator. The scenarios "these manifests
 * and this live state give this plan" are case folders (test/cases/: no-changes, drift,
 * prune-*, read-only-user, manifest-error, …).
 */
import { describe, expect, it } from 'vitest';
import { EXAMPLES, runCli } from './cli-helpers.js';

describe('switchboard plan (end to end, real CLI over loopback HTTP)', () => {
  it('plans examples/ on a fresh embedded simulator: the expected creates, exit 2 with --detailed-exitcode', async () => {
    const result = await runCli(['plan', EXAMPLES, '--sim', '--detailed-exitcode']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    for (const address of [
      '+ tenant/hooli-be (Tenant)',
      '+ tenant/hooli-be/subscription/hq (Subscription)',
      '+ group/demo-group/block_list/premium-numbers (GroupCallingPlan)',
      '+ tenant/acme-corp/subscription/main/trunkgroup/7/block_list/no-premium (TrunkGroupBlockList)',
      '~ tenant/acme-corp (Tenant',
    ]) {
      expect(result.stdout).toContain(address);
    }
    expect(result.stdout).toMatch(/Plan: \d+ to create, \d+ to update, 0 to replace, 0 to delete\./);
  });
});
