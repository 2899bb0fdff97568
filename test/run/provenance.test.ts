import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ciRun, gitState, pullRequestOf } from '../../src/run/provenance.js';

const git = promisify(execFile);

describe('gitState', () => {
  it('is absent, never an error, where there is no repository', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-nogit-'));
    expect(await gitState({ files: [], paths: [dir] }, dir)).toBeUndefined();
    expect(await gitState({ files: ['missing.yaml'], paths: [join(dir, 'missing.yaml')] }, dir)).toBeUndefined();
  });

  it('is the commit and branch; dirty names each file read that is not as committed, ignored ones included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-git-'));
    await mkdir(join(dir, 'manifests'));
    await writeFile(join(dir, 'manifests', 'a.yaml'), 'a: 1\n');
    await writeFile(join(dir, 'manifests', 'gone.yaml'), 'g: 1\n');
    await writeFile(join(dir, '.gitignore'), 'manifests/secret/\nmanifests/*.local.yaml\n.switchboard/\n');
    await mkdir(join(dir, '.github'));
    await writeFile(join(dir, '.github', 'ci.yml'), 'on: push\n');
    const g = (...args: string[]) => git('git', ['-C', dir, ...args]);
    await g('init', '-q', '-b', 'main');
    await g('add', '-A');
    await g('-c', 'user.name=t', '-c', 'user.email=t@example.net', 'commit', '-qm', 'x');
    const head = (await g('rev-parse', 'HEAD')).stdout.trim();
    const paths = ['manifests'];
    const clean = { commit: head, branch: 'main', dirty: false, authenticated: false };
    expect(await gitState({ files: ['manifests/a.yaml', 'manifests/gone.yaml'], paths }, dir)).toEqual(clean);
    // The state folder (ignored, or untracked) is never looked at: only the files read count.
    await mkdir(join(dir, '.switchboard'));
    await writeFile(join(dir, '.switchboard', 'journal.jsonl'), '{}\n');
    expect(await gitState({ files: ['manifests/a.yaml', 'manifests/gone.yaml'], paths }, dir)).toEqual(clean);

    await writeFile(join(dir, 'manifests', 'a.yaml'), 'a: 2\n');
    await writeFile(join(dir, 'manifests', 'b.yaml'), 'b: 1\n');
    await writeFile(join(dir, 'manifests', 'x.local.yaml'), 'x: 1\n');
    await mkdir(join(dir, 'manifests', 'secret'));
    await writeFile(join(dir, 'manifests', 'secret', 'rows.csv'), 'a\n1\n');
    await rm(join(dir, 'manifests', 'gone.yaml'));
    const outside = await mkdtemp(join(tmpdir(), 'sb-outside-'));
    await writeFile(join(outside, 'o.yaml'), 'o: 1\n');
    const files = [
      'manifests/a.yaml',
      'manifests/b.yaml',
      'manifests/x.local.yaml',
      'manifests/secret/rows.csv',
      relative(dir, join(outside, 'o.yaml')),
    ];
    const dirty = await gitState({ files, paths }, dir);
    expect(dirty).toMatchObject({ commit: head, branch: 'main', dirty: true, authenticated: false });
    expect(dirty?.uncommitted).toEqual(
      expect.arrayContaining([
        { file: 'manifests/a.yaml', state: 'modified' },
        { file: 'manifests/b.yaml', state: 'untracked' },
        { file: 'manifests/x.local.yaml', state: 'ignored' },
        { file: 'manifests/secret/rows.csv', state: 'ignored' },
        { file: relative(dir, join(outside, 'o.yaml')), state: 'outside the repository' },
        { file: 'manifests/gone.yaml', state: 'deleted' },
      ]),
    );
    expect(dirty?.uncommitted).toHaveLength(6);
    // A file no plan of the folder would read (in a dot folder) is not the manifests' business.
    await rm(join(dir, '.github', 'ci.yml'));
    const whole = await gitState({ files: ['manifests/a.yaml'], paths: ['.'] }, dir);
    expect(whole?.uncommitted).toEqual([
      { file: 'manifests/a.yaml', state: 'modified' },
      { file: 'manifests/gone.yaml', state: 'deleted' },
    ]);
    // A detached HEAD (a CI checkout of a commit) has no branch.
    await g('checkout', '-q', '--detach');
    expect((await gitState({ files: [], paths }, dir))?.branch).toBeUndefined();
  });
});

describe('pullRequestOf', () => {
  it('reads the pull request from the CI variables, marked as not authenticated', () => {
    expect(
      pullRequestOf({
        GITHUB_RUN_ID: '1',
        GITHUB_REF: 'refs/pull/42/merge',
        GITHUB_SERVER_URL: 'https://github.example',
        GITHUB_REPOSITORY: 'o/r',
      }),
    ).toEqual({ number: 42, url: 'https://github.example/o/r/pull/42', from: 'GITHUB_REF', authenticated: false });
    expect(pullRequestOf({ GITHUB_RUN_ID: '1', GITHUB_REF: 'refs/heads/main' })).toBeUndefined();
    expect(pullRequestOf({ CI_JOB_ID: '9', CI_MERGE_REQUEST_IID: '7' })).toEqual({
      number: 7,
      from: 'CI_MERGE_REQUEST_IID',
      authenticated: false,
    });
    expect(pullRequestOf({ GITHUB_REF: 'refs/pull/42/merge' })).toBeUndefined();
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
