/**
 * `metadata.protect: true` (docs/manifests.md): the document's objects and everything nested
 * in it are never deleted or replaced. What a prune would delete from a collection a
 * protected document declares, and the rows a protected routing table prunes, are refused
 * (SB_PROTECTED) before anything is sent, as the document's own objects are.
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

const tenant = (protect: boolean, subscriptions: string[]) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: guarded, reseller: north, prune: true${protect ? ', protect: true' : ''} }
spec:
  billingId: T-GUARDED
  subscriptions:
${subscriptions.map((s) => `    - { name: ${s}, billingId: T-GUARDED-${s.toUpperCase()}, uc: uc_alpha }`).join('\n')}
`;

describe('protect: true', () => {
  it('refuses the prune of what lives in a collection the protected document declares', async () => {
    const cwd = await manifestDir({ 't.yaml': tenant(false, ['main', 'spare']) });
    const env = simEnv(sim.url);
    expect((await runCli(['apply', '.', '--yes'], { env, cwd })).code).toBe(0);
    await writeFile(join(cwd, 't.yaml'), tenant(true, ['main']));
    const planned = await runCli(['plan', '.'], { env, cwd });
    expect(planned.code).not.toBe(0);
    expect(planned.stdout + planned.stderr).toMatch(
      /SB_PROTECTED.*tenant\/guarded\/subscription\/spare is protected \(metadata\.protect: true\)/,
    );
    const applied = await runCli(['apply', '.', '--yes'], { env, cwd });
    expect(applied.code).not.toBe(0);
    await writeFile(join(cwd, 't.yaml'), tenant(false, ['main', 'spare']));
    expect((await runCli(['plan', '.', '--detailed-exitcode'], { env, cwd })).stdout).toContain('No changes.');
  }, 60_000);

  it("refuses the prune of a protected routing table's rows", async () => {
    const table = await readFile(join(EXAMPLES, 'routing', 'routes.yaml'), 'utf8');
    const csv = await readFile(join(EXAMPLES, 'routing', 'routes.csv'), 'utf8');
    const cwd = await manifestDir({ 'routes.yaml': table, 'routes.csv': csv });
    const env = simEnv(sim.url);
    expect((await runCli(['apply', '.', '--yes'], { env, cwd })).code).toBe(0);
    const lessOne = table
      .replace('prune: true }', 'prune: true, protect: true }')
      .replace(/\n {4}- \{ number: "\+3221234562"[^\n]*/, '');
    expect(lessOne).not.toBe(table);
    await writeFile(join(cwd, 'routes.yaml'), lessOne);
    const planned = await runCli(['plan', '.'], { env, cwd });
    expect(planned.code).not.toBe(0);
    expect(planned.stdout + planned.stderr).toMatch(/SB_PROTECTED.*number=\+3221234562 is protected/);
  }, 60_000);
});
