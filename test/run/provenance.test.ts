import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ciRun, gitState } from '../../src/run/provenance.js';

const git = promisify(execFile);

describe('gitState', () => {
  it('is absent, never an error, where there is no repository', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-nogit-'));
    expect(await gitState([dir])).toBeUndefined();
    expect(await gitState([join(dir, 'missing.yaml')])).toBeUndefined();
  });

  it('is the commit, dirty when the manifests differ from it (the state folder does not count)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-git-'));
    await mkdir(join(dir, 'manifests'));
    await writeFile(join(dir, 'manifests', 'a.yaml'), 'a: 1\n');
    const g = (...args: string[]) => git('git', ['-C', dir, ...args]);
    await g('init', '-q');
    await g('add', '-A');
    await g('-c', 'user.name=t', '-c', 'user.email=t@example.net', 'commit', '-qm', 'x');
    const head = (await g('rev-parse', 'HEAD')).stdout.trim();
    const manifests = join(dir, 'manifests');
    expect(await gitState([manifests], join(dir, '.switchboard'))).toEqual({ commit: head, dirty: false });
    await mkdir(join(dir, '.switchboard'));
    await writeFile(join(dir, '.switchboard', 'journal.jsonl'), '{}\n');
    expect(await gitState([manifests], join(dir, '.switchboard'))).toEqual({ commit: head, dirty: false });
    await writeFile(join(dir, 'manifests', 'b.yaml'), 'b: 1\n');
    expect(await gitState([join(manifests, 'a.yaml'), manifests])).toEqual({ commit: head, dirty: true });
  });
});

describe('ciRun', () => {
  it('records the identifying variables of GitHub Actions and GitLab CI, and no token', () => {
    const github = ciRun({
      GITHUB_RUN_ID: '7',
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: 'o/r',
      GITHUB_TOKEN: 'secret-token-value',
      GITHUB_ENV: '/tmp/env',
    });
    expect(github).toEqual({
      system: 'github-actions',
      url: 'https://github.example/o/r/actions/runs/7',
      vars: { GITHUB_RUN_ID: '7', GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'o/r' },
    });
    const gitlab = ciRun({ CI_JOB_ID: '9', CI_JOB_URL: 'https://gitlab.example/o/r/-/jobs/9', CI_JOB_TOKEN: 'x' });
    expect(gitlab).toEqual({
      system: 'gitlab-ci',
      url: 'https://gitlab.example/o/r/-/jobs/9',
      vars: { CI_JOB_ID: '9', CI_JOB_URL: 'https://gitlab.example/o/r/-/jobs/9' },
    });
    expect(ciRun({ CI: 'true' })).toBeUndefined();
  });
});
