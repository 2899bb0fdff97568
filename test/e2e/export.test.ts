import { mkdtemp, readFile, readdir, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { createEveryKind } from '../export/every-kind.js';
import { EXAMPLES, adminApi, runCli, simEnv } from './cli-helpers.js';

const P = '/api/v01/draas/demo';
let sims: RunningSimulator[] = [];

afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

async function freshSim(): Promise<RunningSimulator> {
  const sim = await startSimulator({ port: 0 });
  sims.push(sim);
  return sim;
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'switchboard-export-'));
}

/** Every file under a folder, relative, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** Exports with the real CLI, checks the files load, then plans them: the round trip. */
async function roundTrip(sim: RunningSimulator, extra: string[] = []): Promise<{ out: string; files: string[] }> {
  const out = join(await tempDir(), 'manifests');
  const exported = await runCli(['export', '--out', out, ...extra], { env: simEnv(sim.url) });
  expect(exported.stderr).toBe('');
  expect(exported.code).toBe(0);
  const loaded = await loadManifests([out], { env: {} });
  expect(loaded.diagnostics).toEqual([]);
  const plan = await runCli(['plan', out, '--detailed-exitcode'], { env: simEnv(sim.url) });
  expect(plan.stderr).toBe('');
  expect(plan.stdout).toContain('No changes.');
  expect(plan.code).toBe(0);
  return { out, files: await filesUnder(out) };
}

describe('switchboard export (end to end, real CLI over loopback HTTP)', () => {
  it('docs/commands.md export: the default data set round-trips: export, then plan reports "No changes." (exit 0)', async () => {
    const sim = await freshSim();
    const { out, files } = await roundTrip(sim);
    expect(files).toEqual([
      'groups/demo-group.yaml',
      'resellers/north.yaml',
      'resellers/south.yaml',
      'tenants/acme-corp.yaml',
      'tenants/globex.yaml',
      'tenants/initech.yaml',
    ]);
    const acme = await readFile(join(out, 'tenants/acme-corp.yaml'), 'utf8');
    // Outside a checkout with schemas: the schema's bare name (docs/export.md), never a path into
    // the installation that wrote it (the same export's bytes would depend on where it ran).
    expect(acme.split('\n')[0]).toBe('# yaml-language-server: $schema=tenant.schema.json');
    expect(acme).toContain('metadata: { name: acme-corp, reseller: north }');
    expect(acme).toContain('        - { type: BE geo, entitlement: 10 }');
    expect(acme).toContain('# admins: not exported.');
    expect(acme).toContain('# trunkGroups: not exported.');
    // Distributors cannot be listed: always by uuid.
    expect(await readFile(join(out, 'resellers/south.yaml'), 'utf8')).toContain(
      'metadata: { name: south, distributor: { uuid: "5d1a7b10-0000-4000-8000-000000000001" } }',
    );
    expect(await readFile(join(out, 'tenants/initech.yaml'), 'utf8')).toContain(
      'metadata: { name: initech, group: demo-group }',
    );
  });

  it('Doc 2 §4.3–§4.9: objects created through the API (entitlement, address, number link, location, template, suspension, group block list) round-trip', async () => {
    const sim = await freshSim();
    const { postalCodeId: postal } = await createEveryKind(sim.url);
    const { out } = await roundTrip(sim);
    const hooli = await readFile(join(out, 'tenants/hooli.yaml'), 'utf8');
    for (const line of [
      'metadata: { name: hooli, reseller: north }',
      '  markup: 2.5',
      '      suspensionProfile: outgoing-barring',
      '        - { type: BE tollfree, entitlement: 3 }',
      '        - { street: Rue Haute, number: "10", city: Brussels, postalCode: 1000, country: Belgium, isoCode: BE }',
      // Doc 2 §4.7: the postal code's id too, so the manifest can re-create it without the postal-code list.
      `        - { street: Avenue Louise, number: "54", postalCode: "1050", postalCodeId: ${postal} }`,
      '        - { sku: TPL-1, name: Std, description: "yes", location: BE, vrp: vrp-std, licenses: [L1, L2] }',
    ]) {
      expect(hooli).toContain(line);
    }
    expect(hooli).not.toContain('sku: default'); // the default template always exists: not declared
    const acmeText = await readFile(join(out, 'tenants/acme-corp.yaml'), 'utf8');
    expect(acmeText).toContain('        "+3221234563": { address: "Meir 22, 2000 Antwerpen, Belgium" }');
    expect(acmeText).not.toContain('+3221234564');
    const groupText = await readFile(join(out, 'groups/demo-group.yaml'), 'utf8');
    expect(groupText).toContain('        - { prefix: "+32900", isExact: false, name: premium 0900 }');
  });

  it('round-trips what `switchboard apply examples/` created', async () => {
    const sim = await freshSim();
    const applied = await runCli(['apply', EXAMPLES, '--yes', '--state-dir', join(await tempDir(), 'state')], {
      env: simEnv(sim.url),
    });
    expect(applied.code).toBe(0);
    const { files, out } = await roundTrip(sim);
    expect(files).toContain('tenants/hooli-be.yaml');
    expect(await readFile(join(out, 'groups/demo-group.yaml'), 'utf8')).toContain('    - name: premium-numbers');
  });

  it('--scope exports the named object and what is below it; parents outside the scope by {uuid}', async () => {
    const sim = await freshSim();
    const api = await adminApi(sim.url);
    const group = (await api('GET', `${P}/groups`)).body.groups[0].uuid as string;
    const north = (await api('GET', `${P}/resellers?parent=${group}&search=north`)).body.resellers[0].uuid as string;
    const tenantOnly = await roundTrip(sim, ['--scope', 'tenant/acme-corp']);
    expect(tenantOnly.files).toEqual(['tenants/acme-corp.yaml']);
    expect(await readFile(join(tenantOnly.out, 'tenants/acme-corp.yaml'), 'utf8')).toMatch(
      new RegExp(`metadata: \\{ name: acme-corp, reseller: \\{ uuid: "?${north}"? \\} \\}`),
    );
    const reseller = await roundTrip(sim, ['--scope', 'reseller/north']);
    expect(reseller.files).toEqual(['resellers/north.yaml', 'tenants/acme-corp.yaml']);
    expect(await readFile(join(reseller.out, 'resellers/north.yaml'), 'utf8')).toMatch(
      new RegExp(`group: \\{ uuid: "?${group}"? \\}`),
    );
    const unknown = await runCli(['export', '--out', join(await tempDir(), 'x'), '--scope', 'tenant/nope'], {
      env: simEnv(sim.url),
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no tenant named "nope" is visible');
  });

  it('never writes into a non-empty folder without --force; --force re-exports byte for byte and removes only stale exported files', async () => {
    const sim = await freshSim();
    const { out } = await roundTrip(sim);
    const before = await readFile(join(out, 'tenants/acme-corp.yaml'), 'utf8');
    const refused = await runCli(['export', '--out', out], { env: simEnv(sim.url) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty');
    await writeFile(join(out, 'tenants/gone.yaml'), before.replace('acme-corp', 'gone'));
    await mkdir(join(out, 'notes'), { recursive: true });
    await writeFile(
      join(out, 'tenants/hand-written.yaml'),
      'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: hand, group: demo-group }\n',
    );
    const again = await runCli(['export', '--out', out, '--force'], { env: simEnv(sim.url) });
    expect(again.code).toBe(0);
    expect(await readFile(join(out, 'tenants/acme-corp.yaml'), 'utf8')).toBe(before);
    const files = await filesUnder(out);
    expect(files).not.toContain('tenants/gone.yaml');
    expect(files).toContain('tenants/hand-written.yaml');
  });
});
