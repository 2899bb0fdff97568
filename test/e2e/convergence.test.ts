import { cp, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed, startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/sim/index.js';
import { EXAMPLES, runCli, simEnv } from './cli-helpers.js';

/**
 * The convergence proof against a platform that spells things every documented way:
 * apply examples/, then plan shows no changes; export, then plan of the export shows no
 * changes. Under three variant seeds (every loosely typed field in one of its documented
 * forms, drawn per answer), and against a platform without the two reads the documents
 * do not show (the branding read, Document 1 §4.2; the postal-code list behind a
 * location's postalCodeId, Document 2 §4.7).
 */
let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `switchboard-${prefix}-`));
}

/** apply, plan, export, plan of the export: each as the real CLI against `sim`. */
async function converges(
  manifests: string,
  options: SimulatorOptions,
  env: Record<string, string> = {},
): Promise<{ applied: string; plan: string }> {
  sim = await startSimulator({ port: 0, ...options });
  const cwd = await tempDir('converge');
  const environment = { ...simEnv(sim.url), ...env };
  const applied = await runCli(['apply', manifests, '--yes'], { env: environment, cwd });
  expect(applied.stderr).toBe('');
  expect(applied.stdout).toMatch(/Apply complete: \d+ applied, 0 failed, 0 skipped/);
  expect(applied.code).toBe(0);
  const again = await runCli(['plan', manifests, '--detailed-exitcode'], { env: environment, cwd });
  expect(again.stdout).toContain('No changes.');
  expect(again.code).toBe(0);

  const out = join(await tempDir('export'), 'manifests');
  const exported = await runCli(['export', '--out', out], { env: environment, cwd });
  expect(exported.stderr).toBe('');
  expect(exported.code).toBe(0);
  const roundTrip = await runCli(['plan', out, '--detailed-exitcode'], {
    env: environment,
    cwd: await tempDir('export-plan'),
  });
  expect(roundTrip.stdout).toContain('No changes.');
  expect(roundTrip.code).toBe(0);
  return { applied: applied.stdout, plan: again.stdout };
}

describe('convergence with every documented form (switchboard sim --variants SEED)', () => {
  for (const seed of [11, 'beta', 2026]) {
    it(`variant seed ${String(seed)}: apply examples/ then plan "No changes."; export then plan "No changes."`, async () => {
      await converges(EXAMPLES, { variants: seed });
    }, 60_000);
  }
});

describe('convergence without the reads the documents do not show', () => {
  it('Doc1 §4.2, Doc2 §4.7: branding planned from the last-applied record (said once), locations by postalCodeId', async () => {
    const seed = { ...defaultSeed(), inventedEndpoints: { postalCodes: false, brandingRead: false } };
    const manifests = await withPostalCodeIds(seed.postalCodes ?? []);
    const { applied, plan } = await converges(manifests, { seed, variants: 'bare' });
    for (const output of [applied, plan]) {
      expect(output.match(/SB_READ_MISSING/g), 'said once').toHaveLength(1);
      expect(output).toContain('branding cannot be read');
    }
    // Without postalCodeId, a new location cannot be created: the plan says what to declare.
    const cwd = await tempDir('no-id');
    await writeFile(
      join(cwd, 't.yaml'),
      `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: acme-corp, reseller: north }
spec:
  subscriptions:
    - name: main
      billingId: T-ACME-MAIN
      locations:
        - { street: Grote Markt, number: "1", postalCode: "2000" }
`,
    );
    const refused = await runCli(['plan', cwd], { env: simEnv(sim!.url), cwd });
    expect(refused.code).toBe(1);
    expect(refused.stderr + refused.stdout).toContain('declare postalCodeId next to postalCode "2000"');
  }, 60_000);

  it('the branding read path is a setting: a path the platform does not serve is a missing read, planned around', async () => {
    sim = await startSimulator({ port: 0 });
    const cwd = await tempDir('branding-path');
    const env = { ...simEnv(sim.url), SWITCHBOARD_BRANDING_READ_PATH: 'configurations/branding' };
    const planned = await runCli(['plan', join(EXAMPLES, 'group.yaml')], { env, cwd });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain(`answered 404: branding cannot be read`);
    expect(planned.stdout).toContain('/configurations/branding answered 404');
    // Nothing recorded yet: each declared type is sent once.
    expect(planned.stdout).toContain('+ group/demo-group/branding/font');
  });
});

/**
 * A copy of examples/ whose locations also declare the platform's postal-code id (the
 * simulator numbers its postal codes in seed order), for a platform without the postal-code list.
 */
async function withPostalCodeIds(postalCodes: readonly { code: string }[]): Promise<string> {
  const copy = join(await tempDir('examples'), 'examples');
  await cp(EXAMPLES, copy, { recursive: true });
  const ids = new Map(postalCodes.map((p, i) => [p.code, i + 1]));
  for (const name of await readdir(join(copy, 'tenants'))) {
    if (!name.endsWith('.yaml')) continue;
    const file = join(copy, 'tenants', name);
    // Locations quote their postal code ("1000"); addresses give an integer.
    const text = (await readFile(file, 'utf8')).replace(
      /postalCode: "(\d+)"/g,
      (_m, code: string) => `postalCode: "${code}", postalCodeId: ${ids.get(code)}`,
    );
    await writeFile(file, text);
  }
  return copy;
}
