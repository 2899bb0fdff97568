/**
 * The configuration file and the state folder (the last-applied record, journals, the lock)
 * are found from the repository, not from the current folder: a plan run from `manifests/`
 * uses the repository's switchboard.config.yaml and its `.switchboard/`, and says where it
 * found them at --log-level info. A `.switchboard` left in the subfolder is not read. With
 * `--config`, the state folder is beside that file, whatever folder the command runs from: two
 * applies of one configuration from two folders share one lock.
 */
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultStateDir } from '../../src/cli/options.js';
import { findConfigFile, projectRoot } from '../../src/config/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, runCli } from '../e2e/cli-helpers.js';

let sim: RunningSimulator;
let repo: string;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  repo = await mkdtemp(join(tmpdir(), 'switchboard-root-'));
  await mkdir(join(repo, '.git'));
  await mkdir(join(repo, 'manifests', 'tenants'), { recursive: true });
  await writeFile(
    join(repo, 'switchboard.config.yaml'),
    'environments:\n  lab:\n    url: ${SWITCHBOARD_URL}\n    instance: demo\n    auth: { username: admin, password: ${SWITCHBOARD_PASSWORD} }\n    insecure: true\n',
  );
  await writeFile(
    join(repo, 'manifests', 'tenants', 't.yaml'),
    'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: acme-corp, reseller: north }\nspec: { markup: 4 }\n',
  );
});
afterAll(async () => sim.close());

describe('found from the repository, not the current folder', () => {
  it('the configuration file and the state folder, from any folder of the repository', () => {
    for (const cwd of [repo, join(repo, 'manifests'), join(repo, 'manifests', 'tenants')]) {
      expect(findConfigFile(cwd)).toBe(join(repo, 'switchboard.config.yaml'));
      expect(projectRoot(cwd)).toBe(repo);
    }
  });

  it('plan from manifests/ uses them and says so at --log-level info', async () => {
    const env = { SWITCHBOARD_URL: sim.url, SWITCHBOARD_PASSWORD: 'admin' };
    const result = await runCli(['plan', '.', '--log-level', 'info'], { cwd: join(repo, 'manifests'), env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`"source":"${join(repo, 'switchboard.config.yaml')} (env lab)"`);
    expect(result.stderr).toContain(`"file":"${join(repo, '.switchboard', 'last-applied.demo.json')}"`);
  }, 60_000);

  // One default for every command with --state-dir (src/cli/options.ts addStateDirOption).
  it('coverage, verify and validate from a subfolder use the same state folder as plan and apply', async () => {
    const examples = await mkdtemp(join(tmpdir(), 'switchboard-root-examples-'));
    await mkdir(join(examples, '.git'));
    await cp(EXAMPLES, join(examples, 'manifests'), { recursive: true });
    const sub = join(examples, 'manifests', 'tenants');
    const state = join(examples, '.switchboard');
    const coverage = await runCli(['coverage', '..', '--sim', '--log-level', 'info'], { cwd: sub });
    expect(coverage.code, coverage.stderr).toBe(0);
    expect(coverage.stderr).toContain(`"file":"${join(state, 'last-applied.demo.json')}"`);
    const verify = await runCli(['verify', '..', '--sim'], { cwd: sub });
    expect(verify.stdout).toMatch(new RegExp(`Journal: ${state.replaceAll('/', '\\/')}/journal-`));
    expect((await readdir(state)).some((f) => f.startsWith('journal-'))).toBe(true);
    const validate = await runCli(['validate', '..'], { cwd: sub, cache: true });
    expect(validate.code, validate.stderr).toBe(0);
    expect((await readdir(join(state, 'cache'))).length).toBeGreaterThan(0);
    await expect(readdir(join(sub, '.switchboard'))).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it('--config puts the default state folder beside that file, not in the current folder', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'switchboard-root-elsewhere-'));
    const config = join(repo, 'switchboard.config.yaml');
    expect(defaultStateDir(config, elsewhere)).toBe(join(repo, '.switchboard'));
    expect(defaultStateDir(relative(elsewhere, config), elsewhere)).toBe(join(repo, '.switchboard'));
    // --config wins over the file the search would find.
    expect(defaultStateDir(join(elsewhere, 'other.yaml'), join(repo, 'manifests'))).toBe(
      join(elsewhere, '.switchboard'),
    );
    expect(defaultStateDir(undefined, join(repo, 'manifests'))).toBe(join(repo, '.switchboard'));
  });

  it('two applies of one --config from two folders share one lock and one journal folder', async () => {
    const env = { SWITCHBOARD_URL: sim.url, SWITCHBOARD_PASSWORD: 'admin' };
    const state = join(repo, '.switchboard');
    await mkdir(state, { recursive: true });
    // A live apply on this host holds the lock (this test's own process stands in for it).
    const lock = join(state, 'apply.lock');
    await writeFile(
      lock,
      `${JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() })}\n`,
    );
    const elsewhere = await mkdtemp(join(tmpdir(), 'switchboard-root-elsewhere-'));
    const config = relative(elsewhere, join(repo, 'switchboard.config.yaml'));
    const manifests = join(repo, 'more');
    await mkdir(manifests);
    await writeFile(
      join(manifests, 't.yaml'),
      'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: root-co, reseller: north }\nspec: { billingId: T-ROOT-CO }\n',
    );
    const args = ['apply', manifests, '--config', config, '--yes'];
    const refused = await runCli(args, { cwd: elsewhere, env });
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain(`another apply is running from this state directory (pid ${process.pid}`);
    await rm(lock);
    const applied = await runCli(args, { cwd: elsewhere, env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(`Journal: ${join(state, 'journal-')}`);
    expect(await readdir(elsewhere)).toEqual([]);
  }, 60_000);
});
