/**
 * `plan --changed-since` / `apply --changed-since` through the real CLI: the scope in each
 * format, the plan file's record of it, `apply --plan` of a scoped plan, and the errors
 * (unknown ref, no git working tree, no git) as SB_CHANGED_SINCE with exit 1.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, runCli, simEnv } from './cli-helpers.js';

let sim: RunningSimulator;
let repo: string;
let base: string;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], {
    cwd: repo,
    encoding: 'utf8',
  }).trim();
const acme = () => join(repo, 'manifests', 'tenants', 'acme-corp.yaml');

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  repo = await mkdtemp(join(tmpdir(), 'switchboard-changed-e2e-'));
  await cp(EXAMPLES, join(repo, 'manifests'), { recursive: true });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'examples');
  base = git('rev-parse', 'HEAD');
  const applied = await runCli(['apply', 'manifests', '--yes'], { env: simEnv(sim.url), cwd: repo });
  expect(applied.code).toBe(0);
  // The pull request: acme-corp's markup changes.
  await writeFile(acme(), (await readFile(acme(), 'utf8')).replace(/markup: \d+/, 'markup: 9'));
}, 60_000);

afterAll(async () => {
  await sim?.close();
  await rm(repo, { recursive: true, force: true });
});

describe('--changed-since (end to end)', () => {
  it('plans the changed document only, and every format says so', async () => {
    const text = await runCli(['plan', 'manifests', '--changed-since', base, '--detailed-exitcode'], {
      env: simEnv(sim.url),
      cwd: repo,
    });
    expect(text.stderr).toBe('');
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(/SB_PLAN_SCOPED: scoped to 1 of 16 documents changed since [0-9a-f]{40}/);
    expect(text.stdout).toMatch(/~ tenant\/acme-corp \(Tenant/);
    expect(text.stdout).toMatch(/Plan: 0 to create, 1 to update, 0 to replace, 0 to delete\./);
    const markdown = await runCli(['plan', 'manifests', '--changed-since', base, '--format', 'markdown'], {
      env: simEnv(sim.url),
      cwd: repo,
    });
    expect(markdown.stdout).toContain('scoped to 1 of 16 documents changed since');
    const json = await runCli(['plan', 'manifests', '--changed-since', 'HEAD', '--format', 'json'], {
      env: simEnv(sim.url),
      cwd: repo,
    });
    const plan = JSON.parse(json.stdout) as { scope: Record<string, unknown>; warnings: { code: string }[] };
    expect(plan.scope).toEqual({
      changedSince: 'HEAD',
      commit: base,
      documents: 1,
      ofDocuments: 16,
      addresses: ['tenant/acme-corp'],
      files: { 'manifests/tenants/acme-corp.yaml': expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
      targets: ['tenant/acme-corp'],
    });
    expect(plan.warnings.map((w) => w.code)).toContain('SB_PLAN_SCOPED');
    // Through a symbolic link to the repository, git's paths still name the same files.
    const link = `${repo}-link`;
    await symlink(repo, link);
    const linked = await runCli(['plan', join(link, 'manifests'), '--changed-since', base, '--format', 'json'], {
      env: simEnv(sim.url),
      cwd: tmpdir(),
    });
    expect((JSON.parse(linked.stdout) as { scope: { addresses: string[] } }).scope.addresses).toEqual([
      'tenant/acme-corp',
    ]);
    await rm(link);
  });

  it('apply --plan of a scoped plan applies it while its files are the same, and refuses once one changed', async () => {
    const planFile = join(repo, 'scoped-plan.json');
    const made = await runCli(['plan', 'manifests', '--changed-since', base, '--out', planFile], {
      env: simEnv(sim.url),
      cwd: repo,
    });
    expect(made.code).toBe(0);
    const original = await readFile(acme(), 'utf8');
    // Same documents, another file text (a comment): the manifests' digest agrees, the recorded file digest does not.
    await writeFile(acme(), `${original}# reviewed\n`);
    const refused = await runCli(['apply', 'manifests', '--plan', planFile, '--yes'], {
      env: simEnv(sim.url),
      cwd: repo,
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('the plan was made from other versions of');
    expect(refused.stderr).toContain('manifests/tenants/acme-corp.yaml');
    await writeFile(acme(), original);
    const other = await runCli(['apply', 'manifests', '--plan', planFile, '--changed-since', 'HEAD~0', '--yes'], {
      env: simEnv(sim.url),
      cwd: repo,
    });
    expect(other.code).toBe(3);
    expect(other.stderr).toMatch(
      /was made with --changed-since [0-9a-f]{40}, this command gives --changed-since HEAD~0/,
    );
    const applied = await runCli(['apply', 'manifests', '--plan', planFile, '--yes'], {
      env: simEnv(sim.url),
      cwd: repo,
    });
    expect(applied.stdout).toMatch(/Apply complete: 1 applied, 0 failed, 0 skipped/);
    expect(applied.code).toBe(0);
    const again = await runCli(['apply', 'manifests', '--changed-since', base, '--yes'], {
      env: simEnv(sim.url),
      cwd: repo,
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes.');
  }, 60_000);

  it('an unknown ref, a folder outside git, or no git at all: SB_CHANGED_SINCE, exit 1', async () => {
    const unknown = await runCli(['plan', 'manifests', '--changed-since', 'no-such-branch'], {
      env: simEnv(sim.url),
      cwd: repo,
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^Error: SB_CHANGED_SINCE: --changed-since no-such-branch: no such commit/);
    expect(unknown.stderr).toContain('fetch-depth');

    const outside = await mkdtemp(join(tmpdir(), 'switchboard-nogit-'));
    await cp(join(repo, 'manifests', 'group.yaml'), join(outside, 'group.yaml'));
    const noRepo = await runCli(['plan', outside, '--changed-since', 'HEAD'], { env: simEnv(sim.url), cwd: outside });
    expect(noRepo.code).toBe(1);
    expect(noRepo.stderr).toMatch(/^Error: SB_CHANGED_SINCE: --changed-since HEAD: the manifests .* are not in a git/);
    // git is asked while the manifests load: their own mistakes are still what a run reports first.
    await writeFile(join(outside, 'broken.yaml'), 'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: {}\n');
    const broken = await runCli(['plan', outside, '--changed-since', 'HEAD'], { env: simEnv(sim.url), cwd: outside });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/broken\.yaml:\d+:\d+/);
    expect(broken.stderr).not.toContain('SB_CHANGED_SINCE');
    expect(broken.stderr).not.toMatch(/Unhandled|Warning/);
    await rm(outside, { recursive: true, force: true });

    const noGit = await runCli(['plan', 'manifests', '--changed-since', 'HEAD'], {
      env: { ...simEnv(sim.url), PATH: join(repo, 'no-such-folder') },
      cwd: repo,
    });
    expect(noGit.code).toBe(1);
    expect(noGit.stderr).toMatch(/^Error: SB_CHANGED_SINCE: --changed-since needs git, and git is not on PATH/);
  });
});
