/**
 * A replace deletes the live object and what lives below it; the plan re-creates the children
 * the manifests declare, and no other. A replace that would take undeclared live children
 * with it, or collections it did not read, is refused without --allow-replace
 * (SB_REPLACE_REFUSED), naming them: a block list re-created without its prefixes would let
 * the calls it blocked through.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

describe('a replace that would drop what the manifests do not declare', () => {
  it('is refused naming it; declared, the children are re-created and the replace goes ahead', async () => {
    // The example group is protected (nothing of it is ever replaced): this one is not.
    const group = (await readFile(join(EXAMPLES, 'group.yaml'), 'utf8')).replace(/\n {2}protect: true[^\n]*/, '');
    expect(group).not.toContain('protect');
    const cwd = await manifestDir({ 'group.yaml': group });
    const env = simEnv(sim.url);
    const applied = await runCli(['apply', '.', '--yes'], { env, cwd });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    // The region is immutable: a new region replaces the block list.
    const moved = group.replace(
      '      isoCode: BE\n      prefixes:',
      '      isoCode: BE\n      region: Flanders\n      prefixes:',
    );
    expect(moved).not.toBe(group);
    const withoutPrefixes = moved.replace(/\n {6}prefixes:\n(?: {8}- [^\n]*\n)+/, '\n');
    await writeFile(join(cwd, 'group.yaml'), withoutPrefixes);
    const refused = await runCli(['plan', '.'], { env, cwd });
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(
      /SB_REPLACE_REFUSED.*replacing group\/demo-group\/block_list\/premium-numbers deletes whatever its prefixes hold/,
    );
    // Allowed, the plan still says what the replace deletes.
    const allowed = await runCli(['plan', '.', '--allow-replace'], { env, cwd });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(
      /SB_REPLACE_ALLOWED.*replacing group\/demo-group\/block_list\/premium-numbers deletes whatever its prefixes hold.*allowed by --allow-replace/,
    );
    await writeFile(join(cwd, 'group.yaml'), moved);
    const planned = await runCli(['plan', '.', '--format', 'json'], { env, cwd });
    expect(planned.code, planned.stderr).toBe(0);
    const changes = (JSON.parse(planned.stdout) as { changes: { action: string; address: string }[] }).changes;
    expect(changes.filter((c) => c.action === 'replace').map((c) => c.address)).toEqual([
      'group/demo-group/block_list/premium-numbers',
    ]);
    expect(changes.filter((c) => c.action === 'create')).toHaveLength(3);
  }, 60_000);
});
