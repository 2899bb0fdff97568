import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, runCli, simEnv } from './cli-helpers.js';

/**
 * A pull request is planned with a read-only user (the simulator's `reader`: api_rules for
 * GET only, Document 1 §1.6) and applied with another: `plan --no-check-permissions` plans
 * without refusing what the reader may not do, and apply checks its own user's rules.
 */
describe('plan --no-check-permissions: planned by a read-only user, applied by another', () => {
  let sim: RunningSimulator;
  let dir: string;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    dir = await mkdtemp(join(tmpdir(), 'switchboard-readonly-'));
  });
  afterAll(async () => {
    await sim.close();
  });
  const as = (user: string) => ({ env: simEnv(sim.url, user), cwd: dir });

  it("without the option the reader's plan is refused (exit 3, SB_PERMISSION per change it may not make)", async () => {
    const refused = await runCli(['plan', EXAMPLES, '--detailed-exitcode'], as('reader'));
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stdout).toMatch(
      /SB_PERMISSION tenant\/hooli-be: POST \/api\/v01\/draas\/demo\/tenants is not allowed/,
    );
  });

  it("with it the plan has changes (exit 2) and says the permissions were not checked; apply checks the applying user's", async () => {
    const planned = await runCli(
      ['plan', EXAMPLES, '--detailed-exitcode', '--no-check-permissions', '--out', 'plan.json'],
      as('reader'),
    );
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).not.toContain('SB_PERMISSION ');
    expect(planned.stdout).toContain(
      "SB_PERMISSIONS_NOT_CHECKED: planned with --no-check-permissions: the planning user's api_rules were not checked",
    );

    const byReader = await runCli(['apply', EXAMPLES, '--plan', 'plan.json', '--yes'], as('reader'));
    expect(byReader.code).toBe(3);
    expect(byReader.stdout).toContain('SB_PERMISSION tenant/hooli-be');
    expect(byReader.stdout).toContain('Nothing was changed.');

    const byAdmin = await runCli(['apply', EXAMPLES, '--plan', 'plan.json', '--yes'], as('admin'));
    expect(byAdmin.code, byAdmin.stdout + byAdmin.stderr).toBe(0);
    expect(byAdmin.stdout).toMatch(/Apply complete: \d+ applied, 0 failed, 0 skipped/);
  }, 60_000);
});
