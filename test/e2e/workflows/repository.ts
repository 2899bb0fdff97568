/**
 * The manifests repository the workflow runs work on, as GitHub holds it: a bare git
 * repository ("origin") with a main branch, pull requests as branches (their head commits),
 * merges and direct pushes, and the checkout the runs' actions/checkout steps make of it.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ActionHandler } from './runner.js';

const exec = promisify(execFile);

const IDENTITY = ['-c', 'user.name=dev', '-c', 'user.email=dev@example.com'];

export class Repository {
  private constructor(readonly origin: string) {}

  /** A repository whose main branch holds package.json and .gitignore (no manifests yet). */
  static async create(): Promise<Repository> {
    const origin = await mkdtemp(join(tmpdir(), 'switchboard-gha-origin-'));
    await exec('git', ['init', '-q', '--bare', '-b', 'main', origin]);
    const repo = new Repository(origin);
    await repo.push('main', async (dir) => {
      await writeFile(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'platform-manifests', private: true, devDependencies: { switchboard: '0.1.0' } }),
      );
      // What the runs leave in their workspace; init's own .gitignore (the history is committed).
      await writeFile(
        join(dir, '.gitignore'),
        'node_modules/\n.switchboard/*\n!.switchboard/last-applied.*.json\n!.switchboard/history/\n' +
          '/plan.*\n/reviewed-plan/\n/approved-plan/\n/pull-request/\n',
      );
    });
    return repo;
  }

  async git(dir: string, ...args: string[]): Promise<string> {
    return (await exec('git', [...IDENTITY, ...args], { cwd: dir, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
  }

  /** A fresh clone of `ref` (a branch or a commit). */
  async clone(ref = 'main'): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-gha-clone-'));
    await this.fetchInto(dir, ref);
    return dir;
  }

  /** `dir` made a checkout of `ref` with origin as its remote, whatever it holds already (untracked files stay). */
  async fetchInto(dir: string, ref: string): Promise<string> {
    await mkdir(dir, { recursive: true });
    await this.git(dir, 'init', '-q', '-b', 'main');
    await this.git(dir, 'remote', 'add', 'origin', this.origin).catch(() => undefined);
    await this.git(dir, 'fetch', '-q', 'origin', '+refs/heads/*:refs/remotes/origin/*');
    const sha = await this.git(dir, 'rev-parse', /^[0-9a-f]{40}$/.test(ref) ? ref : `origin/${ref}`);
    await this.git(dir, 'checkout', '-q', '-f', '-B', 'main', sha);
    return sha;
  }

  /** Commits `edit` on top of `from` and pushes it as `branch`; the new commit. */
  async push(branch: string, edit: (dir: string) => Promise<void>, from = branch): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-gha-edit-'));
    await this.git(dir, 'init', '-q', '-b', 'main');
    await this.git(dir, 'remote', 'add', 'origin', this.origin);
    const exists = (await this.git(dir, 'ls-remote', 'origin', `refs/heads/${from}`)) !== '';
    if (exists) {
      await this.git(dir, 'fetch', '-q', 'origin', from);
      await this.git(dir, 'checkout', '-q', '-B', 'work', 'FETCH_HEAD');
    }
    await edit(dir);
    await this.git(dir, 'add', '-A');
    await this.git(dir, 'commit', '-q', '--allow-empty', '-m', `edit ${branch}`);
    await this.git(dir, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
    const sha = await this.git(dir, 'rev-parse', 'HEAD');
    await rm(dir, { recursive: true, force: true });
    return sha;
  }

  /** Merges `branch` into main with a merge commit (GitHub's "Create a merge commit"); the merge commit. */
  async merge(branch: string): Promise<string> {
    const dir = await this.clone('main');
    await this.git(dir, 'fetch', '-q', 'origin', branch);
    await this.git(dir, 'merge', '-q', '--no-ff', '-m', `Merge ${branch}`, 'FETCH_HEAD');
    await this.git(dir, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
    return this.git(dir, 'rev-parse', 'HEAD');
  }

  async head(ref = 'main'): Promise<string> {
    return this.git(this.origin, 'rev-parse', ref);
  }

  /**
   * actions/checkout: `ref` when given, else the run's commit (for a pull_request run, the
   * pull request's head: its merge with an unmoved base has the same files); into `path`
   * when given. The remote is origin, so a job can push.
   */
  checkout(): ActionHandler {
    return async ({ with: inputs, cwd, run }) => {
      const into = inputs['path'] ? join(cwd, inputs['path']) : cwd;
      await this.fetchInto(into, inputs['ref'] || run.headSha);
    };
  }

  /** Copies `from` (a folder) to `to` in a working tree. */
  static async put(dir: string, from: string, to: string): Promise<void> {
    await cp(from, join(dir, to), { recursive: true });
  }
}
