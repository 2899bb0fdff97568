/**
 * switchboard as a platform team gets it: `npm pack`, then `npm install --save-dev` of the
 * tarball into an empty repository (its dependencies come from the npm registry: without the
 * registry this test fails, it never skips), then init, validate, plan --sim,
 * apply --sim --yes, export from a simulator, demo and sim, all through the installed
 * package's own bin. Every `$schema` modeline written must name an existing file.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_M2M_TOKEN } from '../../src/sim/platform/seed/default-seed.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { cliEnv, testCacheHome, type CliResult } from './cli-helpers.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const VERSION = (JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Runs a command; never throws for a non-zero exit. */
function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  timeout = 60_000,
): Promise<CliResult> {
  return new Promise((done) => {
    // npm and npx need HOME (their cache) and PATH; no SWITCHBOARD_* of the test's own environment.
    const base = {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? tmpdir(),
      XDG_CACHE_HOME: testCacheHome(),
      NO_COLOR: '1',
    };
    execFile(
      command,
      args,
      { cwd, env: { ...base, ...env }, timeout, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** Every `# yaml-language-server: $schema=…` under `dir`, resolved from its file's folder. */
async function modelines(dir: string): Promise<{ file: string; target: string }[]> {
  const found: { file: string; target: string }[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.ya?ml$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    const match = /^# yaml-language-server: \$schema=(\S+)$/m.exec(await readFile(file, 'utf8'));
    if (match?.[1]) found.push({ file, target: resolve(dirname(file), match[1]) });
  }
  return found;
}

describe('the packed package, installed into an empty repository', () => {
  let repo: string;
  let sim: RunningSimulator;
  const switchboard = (args: string[], env: Record<string, string> = {}) =>
    run('npx', ['switchboard', ...args], repo, env);

  beforeAll(async () => {
    const packDir = await mkdtemp(join(tmpdir(), 'switchboard-pack-'));
    // npm test built dist/ already: no prepare script here.
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], REPO_ROOT);
    expect(packed.code, packed.stderr).toBe(0);
    const [{ filename, files }] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
    const paths = files.map((f) => f.path);
    for (const shipped of [
      'dist/cli/main.js',
      // The validators compiled ahead, and V8's code cache of them (src/core/code-cache.ts).
      'dist/manifest/validators.generated.cjs',
      'dist/manifest/validators.generated.v8cache',
      // The CLI's CommonJS bundle and V8's code cache of it (src/cli/main.ts).
      'dist/cli/cached/switchboard.cjs',
      'dist/cli/cached/switchboard.v8cache',
      'schemas/tenant.schema.json',
      'examples/tenants/acme-corp.yaml',
      'examples/.github/workflows/apply.yml',
      'docs/install.md',
      'LICENSE',
    ]) {
      expect(paths, shipped).toContain(shipped);
    }
    expect(paths.filter((p) => /^(src|test)\//.test(p))).toEqual([]);

    repo = await mkdtemp(join(tmpdir(), 'switchboard-installed-'));
    expect((await run('git', ['init', '-q'], repo)).code).toBe(0);
    // One install, from the registry: a registry that cannot be reached fails here, loudly.
    const installed = await run(
      'npm',
      [
        'install',
        '--save-dev',
        '--no-audit',
        '--no-fund',
        '--fetch-retries=1',
        '--fetch-retry-mintimeout=1000',
        '--fetch-retry-maxtimeout=5000',
        '--fetch-timeout=30000',
        join(packDir, filename),
      ],
      repo,
      {},
      120_000,
    );
    expect(
      installed.code,
      `npm install of the packed tarball failed (is the npm registry reachable?):\n${installed.stderr}`,
    ).toBe(0);
    sim = await startSimulator({ port: 0 });
  }, 150_000);

  afterAll(async () => {
    await sim?.close();
  });

  it('version, init, validate, plan --sim, apply --sim --yes: all exit 0', async () => {
    const version = await switchboard(['--version', '--format', 'json']);
    expect(version.code, version.stderr).toBe(0);
    expect(JSON.parse(version.stdout)).toMatchObject({ name: 'switchboard', version: VERSION });

    const init = await switchboard(['init']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/^ {2}kept +package\.json$/m); // npm install wrote it, with the tarball's spec
    expect(init.stdout).toMatch(/^ {2}created +\.github\/workflows\/switchboard-apply\.yml$/m);

    const validated = await switchboard(['validate', 'manifests']);
    expect(validated.code, validated.stdout + validated.stderr).toBe(0);
    const planned = await switchboard(['plan', 'manifests', '--sim']);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('Plan: 2 to create');
    const applied = await switchboard(['apply', 'manifests', '--sim', '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/Apply complete: 2 applied, 0 failed/);
  }, 60_000);

  it('export from a simulator, through the scaffolded switchboard.config.yaml, writes manifests that validate', async () => {
    const env = { SWITCHBOARD_URL: sim.url, SWITCHBOARD_TOKEN: DEMO_M2M_TOKEN };
    const exported = await switchboard(['export', '--out', 'exported'], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/^Exported .* to exported\//);
    const validated = await switchboard(['validate', 'exported']);
    expect(validated.code, validated.stdout).toBe(0);
  }, 60_000);

  it('demo runs from the installed package (its examples ship in it)', async () => {
    const demo = await switchboard(['demo']);
    expect(demo.code, demo.stdout + demo.stderr).toBe(0);
  }, 90_000);

  it('sim serves from the installed package', async () => {
    const child = spawn(join(repo, 'node_modules/.bin/switchboard'), ['sim', '--port', '0'], {
      cwd: repo,
      env: cliEnv(),
    });
    try {
      const url = await new Promise<string>((found, failed) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /Simulator listening on (http:\/\/\S+)/.exec(out);
          if (match?.[1]) found(match[1]);
        });
        child.on('exit', (code) => failed(new Error(`sim exited with ${code}: ${out}`)));
      });
      const state = (await (await fetch(`${url}/_sim/state`)).json()) as { tables: { tenants: unknown[] } };
      expect(state.tables.tenants.length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);

  it('every $schema modeline written (init, export) and shipped (examples) names an existing file', async () => {
    const written = [...(await modelines(join(repo, 'manifests'))), ...(await modelines(join(repo, 'exported')))];
    const shipped = await modelines(join(repo, 'node_modules/switchboard/examples'));
    expect(written.length).toBeGreaterThanOrEqual(8);
    expect(shipped.length).toBeGreaterThanOrEqual(6);
    for (const { file, target } of [...written, ...shipped]) {
      expect(existsSync(target), `${file}: ${target}`).toBe(true);
      expect(target.startsWith(join(repo, 'node_modules/switchboard/schemas/')), `${file}: ${target}`).toBe(true);
    }
    const settings = JSON.parse(await readFile(join(repo, '.vscode/settings.json'), 'utf8')) as {
      'yaml.schemas': Record<string, string[]>;
    };
    for (const schema of Object.keys(settings['yaml.schemas']))
      expect(existsSync(resolve(repo, schema)), schema).toBe(true);
  });
});
