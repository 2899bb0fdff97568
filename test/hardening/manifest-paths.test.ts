/**
 * Files a manifest names stay inside the manifests' root (docs/manifests.md "Files a
 * manifest names"): the top of the git working tree holding the manifests, or the folder
 * given outside any. For every setting that names a file (the kind table's CSV sources and
 * a routing table's `recordsFrom`), every way out (`../` past the root, an absolute path, a
 * symbolic link to a file or a folder outside, the repository's `.git`) is refused at the
 * setting's file:line:col, and the planted secret of the file outside never appears in what
 * validate prints. Inside the root, `../` and symbolic links still work.
 */
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/commands/validate.js';
import { loadManifests } from '../../src/manifest/index.js';
import { kinds } from '../../src/kinds/index.js';

const SECRET_LINE = 'number,route,TOP-SECRET-LINE-7f3a';

/** Each setting that names a file, as a manifest in `manifests/sub/` writes it. */
const SETTINGS: Record<string, (file: string) => string> = {
  addressesFrom: (file) =>
    `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: t, reseller: north }\nspec:\n  subscriptions:\n    - name: s\n      billingId: S-1\n      addressesFrom: "${file}"\n`,
  recordsFrom: (file) =>
    `apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: r, service: draas, version: standby }\nspec:\n  key: [number]\n  fields: { number: string, route: string }\n  recordsFrom: "${file}"\n`,
};
/** The line and column of the setting's value in each manifest above. */
const AT: Record<string, string> = { addressesFrom: '8:22', recordsFrom: '7:16' };

let top: string;
let repo: string;

beforeAll(async () => {
  top = await mkdtemp(join(tmpdir(), 'switchboard-paths-'));
  repo = join(top, 'repo');
  await mkdir(join(repo, '.git'), { recursive: true });
  await mkdir(join(repo, 'manifests', 'sub'), { recursive: true });
  await mkdir(join(repo, 'data'), { recursive: true });
  await mkdir(join(top, 'outside'), { recursive: true });
  await writeFile(join(top, 'outside', 'secret.csv'), `${SECRET_LINE}\n`);
  await writeFile(join(repo, '.git', 'config'), `${SECRET_LINE}\n`);
  await writeFile(join(repo, 'data', 'rows.csv'), 'number,route\n+321,x\n');
  await writeFile(
    join(repo, 'data', 'addresses.csv'),
    'street,number,city,postalCode,country,isoCode\nA,1,B,1000,Belgium,BE\n',
  );
  await symlink(join(top, 'outside', 'secret.csv'), join(repo, 'manifests', 'sub', 'file-link.csv'));
  await symlink(join(top, 'outside'), join(repo, 'manifests', 'sub', 'dir-link'));
  await symlink(join(repo, 'data'), join(repo, 'manifests', 'sub', 'inside-link'));
});

async function validate(setting: string, file: string, given = join(repo, 'manifests')) {
  await writeFile(join(repo, 'manifests', 'sub', 'm.yaml'), SETTINGS[setting]!(file));
  return runValidate([given], { format: 'text', cwd: repo, env: {} });
}

describe('files named by manifests', () => {
  it('the settings tested are every setting that names a file', () => {
    const csvKeys = kinds.flatMap((k) => (k.manifest.csv ? [k.manifest.csv.key] : []));
    expect(Object.keys(SETTINGS).sort()).toEqual([...csvKeys, 'recordsFrom'].sort());
  });

  for (const setting of Object.keys(SETTINGS)) {
    it.each([
      ['../ past the root', '../../../outside/secret.csv'],
      ['an absolute path', '/OUTSIDE/secret.csv'],
      ['a symbolic link to a file outside', 'file-link.csv'],
      ['a symbolic link to a folder outside', 'dir-link/secret.csv'],
      ["the repository's .git folder", '../../.git/config'],
      ['a missing file outside', '../../../outside/missing.csv'],
    ])(`${setting}: %s is refused at the setting, without a word of the file`, async (_name, file) => {
      const written = file.replace('/OUTSIDE', join(top, 'outside'));
      const { output, exitCode } = await validate(setting, written);
      expect(exitCode).toBe(1);
      expect(output).toContain(`manifests/sub/m.yaml:${AT[setting]}: error SB_PATH_OUTSIDE_ROOT: ${setting}: `);
      expect(output).not.toContain('TOP-SECRET');
    });

    it(`${setting}: inside the root, ../ and a symbolic link to a folder of the repository are read`, async () => {
      const csv = setting === 'recordsFrom' ? 'rows.csv' : 'addresses.csv';
      for (const file of [`../../data/${csv}`, `inside-link/${csv}`]) {
        const { output } = await validate(setting, file);
        expect(output, file).not.toContain('SB_PATH_OUTSIDE_ROOT');
        expect(output, file).not.toContain('SB_READ');
      }
    });
  }

  it('outside a git working tree, the root is the folder given', async () => {
    const alone = await mkdtemp(join(tmpdir(), 'switchboard-paths-alone-'));
    await mkdir(join(alone, 'manifests'), { recursive: true });
    await writeFile(join(alone, 'rows.csv'), `${SECRET_LINE}\n`);
    await writeFile(join(alone, 'manifests', 'm.yaml'), SETTINGS['recordsFrom']!('../rows.csv'));
    const refused = await runValidate([join(alone, 'manifests')], { format: 'text', cwd: alone, env: {} });
    expect(refused.output).toContain('manifests/m.yaml:7:16: error SB_PATH_OUTSIDE_ROOT: recordsFrom: rows.csv');
    expect(refused.output).not.toContain('TOP-SECRET');
    const given = await runValidate([alone], { format: 'text', cwd: alone, env: {} });
    expect(given.output).not.toContain('SB_PATH_OUTSIDE_ROOT');
  });

  it('a folder mounted as a Kubernetes ConfigMap volume: files through ..data are inside it', async () => {
    // The volume's layout: each file is a link through `..data`, itself a link to a folder named `..<timestamp>`.
    const mount = await mkdtemp(join(tmpdir(), 'switchboard-paths-configmap-'));
    const stamped = join(mount, '..2026_11_27_05_00_00.000000001');
    await mkdir(stamped);
    await writeFile(join(stamped, 'rows.csv'), 'number,route\n+321,x\n');
    await writeFile(join(stamped, 'm.yaml'), SETTINGS['recordsFrom']!('rows.csv'));
    await symlink('..2026_11_27_05_00_00.000000001', join(mount, '..data'));
    await symlink('..data/rows.csv', join(mount, 'rows.csv'));
    await symlink('..data/m.yaml', join(mount, 'm.yaml'));
    const { output, exitCode } = await runValidate([mount], { format: 'text', cwd: mount, env: {} });
    expect(output).not.toContain('SB_PATH_OUTSIDE_ROOT');
    expect(exitCode).toBe(0);
    // A folder beside the mount whose name only starts like it is still outside.
    await writeFile(join(stamped, 'm.yaml'), SETTINGS['recordsFrom']!(`../${mount.split('/').pop()}x/rows.csv`));
    await mkdir(`${mount}x`);
    await writeFile(join(`${mount}x`, 'rows.csv'), `${SECRET_LINE}\n`);
    const refused = await runValidate([mount], { format: 'text', cwd: mount, env: {} });
    expect(refused.output).toContain('SB_PATH_OUTSIDE_ROOT');
    expect(refused.output).not.toContain('TOP-SECRET');
  });

  it('files given one by one are each rooted where they really are: a link to another repository, two folders', async () => {
    const other = join(top, 'other');
    await mkdir(join(other, '.git'), { recursive: true });
    await mkdir(join(other, 'manifests'), { recursive: true });
    await mkdir(join(other, 'data'), { recursive: true });
    await writeFile(join(other, 'data', 'rows.csv'), 'number,route\n+322,y\n');
    const table = (name: string, csv: string) => SETTINGS['recordsFrom']!(csv).replace('name: r,', `name: ${name},`);
    // Rooted in the other repository: its own CSV is read, this repository's is not.
    await writeFile(join(other, 'manifests', 'own.yaml'), table('own', join(other, 'data', 'rows.csv')));
    await writeFile(join(other, 'manifests', 'reach.yaml'), table('reach', join(repo, 'data', 'rows.csv')));
    await writeFile(join(repo, 'manifests', 'sub', 'here.yaml'), table('here', join(repo, 'data', 'rows.csv')));
    await symlink(join(other, 'manifests', 'own.yaml'), join(repo, 'manifests', 'sub', 'linked.yaml'));
    const files = [
      join(repo, 'manifests', 'sub', 'here.yaml'),
      join(repo, 'manifests', 'sub', 'linked.yaml'),
      join(other, 'manifests', 'reach.yaml'),
    ];
    const loaded = await loadManifests(files, { cwd: top, env: {} });
    const outside = loaded.diagnostics.filter((d) => d.code === 'SB_PATH_OUTSIDE_ROOT').map((d) => d.source?.file);
    expect(outside).toEqual(['other/manifests/reach.yaml']);
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toHaveLength(1);
  });
});
