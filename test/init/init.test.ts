import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConnection } from '../../src/config/index.js';
import { VERSION } from '../../src/core/package.js';
import { scaffold, WORKFLOWS } from '../../src/init/scaffold.js';
import { loadManifests } from '../../src/manifest/index.js';
import { schemaModeline, schemasDirFor } from '../../src/manifest/schema-location.js';
import { runCli } from '../e2e/cli-helpers.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const git = promisify(execFile);

async function emptyDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'switchboard-init-'));
}

/** Every file under `dir`, relative, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** The `$schema` modeline of a file, resolved from the file's folder. */
async function modelineTarget(file: string): Promise<string> {
  const match = /^# yaml-language-server: \$schema=(\S+)$/m.exec(await readFile(file, 'utf8'));
  if (!match?.[1]) throw new Error(`${file}: no modeline`);
  return resolve(dirname(file), match[1]);
}

const ENV = { SWITCHBOARD_URL: 'https://provisioning.example.net', SWITCHBOARD_TOKEN: 'not-a-real-token' };

describe('switchboard init: a manifests repository whose every file is valid', () => {
  it('writes the package, configuration, starter manifests, workflows, editor settings, .gitignore and README', async () => {
    const dir = join(await emptyDir(), 'platform-config');
    const result = await scaffold(dir, { force: false });
    expect(result.files.every((f) => f.outcome === 'created')).toBe(true);
    expect(await filesUnder(dir)).toEqual([
      '.github/dependabot.yml',
      '.github/workflows/switchboard-apply.yml',
      '.github/workflows/switchboard-drift.yml',
      '.github/workflows/switchboard-plan.yml',
      '.gitignore',
      '.vscode/extensions.json',
      '.vscode/settings.json',
      'README.md',
      'manifests/group.yaml',
      'manifests/tenants/example-tenant.yaml',
      'package.json',
      'switchboard.config.yaml',
    ]);
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg['name']).toBe('platform-config');
    // No switchboard@<version>: the registry's package of that name is not this project's.
    expect(pkg['devDependencies']).toBeUndefined();
    expect(pkg['dependencies']).toBeUndefined();
    const readme = await readFile(join(dir, 'README.md'), 'utf8');
    expect(readme).toContain(`npm install --save-dev ./switchboard-${VERSION}.tgz`);
    expect(readme).toContain('never as\n`switchboard@<version>` from the npm registry');
    for (const [template, target] of Object.entries(WORKFLOWS)) {
      expect(await readFile(join(dir, target), 'utf8'), target).toBe(
        await readFile(join(REPO_ROOT, 'examples/.github/workflows', template), 'utf8'),
      );
    }
  });

  it('the manifests validate, and plan and apply on the simulator', async () => {
    const dir = await emptyDir();
    await scaffold(dir, { force: false });
    const loaded = await loadManifests([join(dir, 'manifests')], { env: {} });
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.set.objects.map((o) => o.address).sort()).toEqual(['group/example-group', 'tenant/example-tenant']);
    const planned = await runCli(['plan', 'manifests', '--sim', '--detailed-exitcode'], { cwd: dir });
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).toContain('Plan: 2 to create, 0 to update, 0 to replace, 0 to delete.');
    const applied = await runCli(['apply', 'manifests', '--sim', '--yes'], { cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
  }, 30_000);

  it('the configuration loads once its variables are set, and names each unset one; every commented setting is valid too', async () => {
    const dir = await emptyDir();
    await scaffold(dir, { force: false });
    const config = await loadConnection({ cwd: dir, env: ENV });
    expect(config).toMatchObject({ url: ENV.SWITCHBOARD_URL, auth: { token: ENV.SWITCHBOARD_TOKEN } });
    await expect(loadConnection({ cwd: dir, env: {} })).rejects.toThrow(
      /environments\.production\.url: environment variable SWITCHBOARD_URL is not set\n\s+environments\.production\.auth\.token: environment variable SWITCHBOARD_TOKEN is not set/,
    );
    // Uncommented: the user login instead of the token, the instance, the CA file, insecure, the routing engine.
    const file = join(dir, 'switchboard.config.yaml');
    const text = await readFile(file, 'utf8');
    const all = text.replace(/^ {4}auth: \{ token: .*$/m, '').replace(/^( {4,})# /gm, '$1');
    await writeFile(file, all);
    await writeFile(join(dir, 'ca.pem'), 'not checked here');
    const everything = await loadConnection({
      cwd: dir,
      env: {
        ...ENV,
        SWITCHBOARD_USERNAME: 'ci',
        SWITCHBOARD_PASSWORD: 'secret',
        SWITCHBOARD_TOTP_SECRET: 'JBSWY3DPEHPK3PXP',
        SWITCHBOARD_INSTANCE: 'main',
        SWITCHBOARD_CA_FILE: 'ca.pem',
        SWITCHBOARD_RE_URL: 'https://em.example.net',
        SWITCHBOARD_RE_TOKEN: 't',
        SWITCHBOARD_RE_CA_FILE: 'ca.pem',
      },
    });
    expect(everything).toMatchObject({
      instance: 'main',
      insecure: false,
      caFile: join(dir, 'ca.pem'),
      auth: { username: 'ci', password: 'secret', totpSecret: 'JBSWY3DPEHPK3PXP' },
      routingEngine: { url: 'https://em.example.net', auth: { token: 't' }, caFile: join(dir, 'ca.pem') },
    });
  });

  it('modelines and .vscode/settings.json point at node_modules/switchboard/schemas, which npm install fills', async () => {
    const dir = await emptyDir();
    await scaffold(dir, { force: false });
    const installed = join(dir, 'node_modules/switchboard');
    expect(await modelineTarget(join(dir, 'manifests/group.yaml'))).toBe(join(installed, 'schemas/group.schema.json'));
    expect(await modelineTarget(join(dir, 'manifests/tenants/example-tenant.yaml'))).toBe(
      join(installed, 'schemas/tenant.schema.json'),
    );
    const settings = JSON.parse(await readFile(join(dir, '.vscode/settings.json'), 'utf8')) as {
      'yaml.schemas': Record<string, string[]>;
    };
    const [schema, globs] = Object.entries(settings['yaml.schemas'])[0] ?? [];
    expect(resolve(dir, schema ?? '')).toBe(join(installed, 'schemas/manifest.schema.json'));
    expect(globs).toEqual(['manifests/**/*.yaml', 'manifests/**/*.yml']);
    // "Installed": each of them now names an existing file.
    await mkdir(join(dir, 'node_modules'));
    await symlink(REPO_ROOT, installed);
    for (const file of ['manifests/group.yaml', 'manifests/tenants/example-tenant.yaml'])
      expect(existsSync(await modelineTarget(join(dir, file))), file).toBe(true);
    expect(existsSync(resolve(dir, schema ?? ''))).toBe(true);
  });

  it('.gitignore: journals and the apply lock are ignored, the last-applied record is not', async () => {
    const dir = await emptyDir();
    await scaffold(dir, { force: false });
    await git('git', ['init', '-q'], { cwd: dir });
    const ignored = async (file: string): Promise<boolean> =>
      git('git', ['check-ignore', '-q', file], { cwd: dir }).then(
        () => true,
        () => false,
      );
    for (const file of [
      '.switchboard/journal-2026-11-23T10-00-00-000Z.jsonl',
      '.switchboard/apply.lock',
      'node_modules/x',
      'plan.json',
    ])
      expect(await ignored(file), file).toBe(true);
    for (const file of [
      '.switchboard/last-applied.demo.json',
      '.switchboard/history/2026-11-23-run-4242-1/journal.jsonl',
      '.switchboard/history/2026-11-23-run-4242-1/plan.json',
      'manifests/group.yaml',
      'package-lock.json',
    ])
      expect(await ignored(file), file).toBe(false);
  });

  it('refuses to replace a file with other content without --force, and writes nothing then', async () => {
    const dir = await emptyDir();
    await writeFile(join(dir, 'README.md'), '# ours\n');
    await mkdir(join(dir, 'manifests'));
    await writeFile(join(dir, 'manifests/group.yaml'), 'ours: true\n');
    const refused = await runCli(['init', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `Error: this file exists in ${dir} with other content: manifests/group.yaml. Nothing was written`,
    );
    expect(await filesUnder(dir)).toEqual(['README.md', 'manifests/group.yaml']);

    const forced = await runCli(['init', dir, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/^ {2}replaced {6}manifests\/group\.yaml$/m);
    expect(forced.stdout).toMatch(/^ {2}updated {7}README\.md \(adds a switchboard section at the end\)$/m);
    expect(forced.stdout).toMatch(/^ {2}created {7}package\.json$/m);
    const readme = await readFile(join(dir, 'README.md'), 'utf8');
    expect(readme.startsWith('# ours\n')).toBe(true);
    expect(readme).toContain('# Platform manifests');
  });

  it('keeps an existing package.json as it is, with or without --force: it never gains switchboard@<version>', async () => {
    const dir = await emptyDir();
    const ours = { name: 'ours', devDependencies: { switchboard: 'file:../switchboard-0.1.0.tgz' } };
    await writeFile(join(dir, 'package.json'), JSON.stringify(ours));
    const kept = await scaffold(dir, { force: false });
    expect(kept.files.find((f) => f.path === 'package.json')?.outcome).toBe('kept');
    expect(JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'))).toEqual(ours);

    const other = await emptyDir();
    const tools = JSON.stringify({ name: 'tools', scripts: { lint: 'x' } });
    await writeFile(join(other, 'package.json'), tools);
    for (const force of [false, true]) {
      const result = await scaffold(other, { force });
      expect(result.files.find((f) => f.path === 'package.json')?.outcome).toBe('kept');
      expect(await readFile(join(other, 'package.json'), 'utf8')).toBe(tools);
    }
  });
});

describe('schema modelines resolve from where the file is', () => {
  it("the nearest node_modules/switchboard/schemas or schemas/ above the folder, else the running package's", async () => {
    const repo = await emptyDir();
    await mkdir(join(repo, 'node_modules'));
    await symlink(REPO_ROOT, join(repo, 'node_modules/switchboard'));
    const deep = join(repo, 'teams/a/manifests/tenants');
    expect(schemasDirFor(deep, 'tenant.schema.json')).toBe(join(repo, 'node_modules/switchboard/schemas'));
    expect(
      schemaModeline(join(deep, 'x.yaml'), join(repo, 'node_modules/switchboard/schemas'), 'tenant.schema.json'),
    ).toBe('yaml-language-server: $schema=../../../../node_modules/switchboard/schemas/tenant.schema.json');
    expect(schemasDirFor(join(REPO_ROOT, 'examples/tenants'), 'tenant.schema.json')).toBe(join(REPO_ROOT, 'schemas'));
    const lone = await emptyDir();
    expect(schemasDirFor(lone, 'tenant.schema.json')).toBe(join(REPO_ROOT, 'schemas'));
    expect(schemasDirFor(lone, 'tenant.schema.json', join(lone, 'vendored'))).toBe(join(lone, 'vendored'));
  });
});
