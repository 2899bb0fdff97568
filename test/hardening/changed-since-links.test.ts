/**
 * `plan --changed-since` through symbolic links and files outside the repository: a change
 * made in the target of a linked manifest file or folder is in the scoped plan exactly as
 * the full plan shows it; what git cannot answer for (a manifest outside the working tree,
 * a link new or retargeted since the commit, a CSV outside the repository) refuses the plan
 * instead of leaving a change out of it, so an apply on merge can never skip one with exit 0.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import type { Change } from '../../src/plan/types.js';
import { applyRun, openSession, planRun, type PlanRunOptions, type Session } from '../../src/run/index.js';

let top: string;
let repo: string;
let session: Session;
let applied: string;

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
const tenant = (name: string, markup: number) =>
  `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: ${name}, reseller: north }\nspec: { billingId: T-${name}, markup: ${markup} }\n`;
const options = (changedSince?: string): PlanRunOptions => ({
  target: [],
  exclude: [],
  prune: false,
  allowReplace: false,
  maxDeletePercent: 100,
  concurrency: 4,
  stateDir: join(top, 'state'),
  ...(changedSince !== undefined ? { changedSince } : {}),
});
const plan = async (changedSince?: string) =>
  (await planRun([join(repo, 'manifests')], options(changedSince), silentLogger, session)).plan;
const key = (c: Change) => `${c.action} ${c.address} ${JSON.stringify(c.patch)}`;

beforeAll(async () => {
  top = await mkdtemp(join(tmpdir(), 'switchboard-links-'));
  repo = join(top, 'repo');
  await mkdir(join(repo, 'manifests'), { recursive: true });
  await mkdir(join(repo, 'common', 'dir'), { recursive: true });
  await mkdir(join(top, 'outside'), { recursive: true });
  await writeFile(join(repo, 'manifests', 'plain.yaml'), tenant('lk-plain', 1));
  await writeFile(join(repo, 'common', 'file.yaml'), tenant('lk-file', 1));
  await writeFile(join(repo, 'common', 'other.yaml'), tenant('lk-other', 1));
  await writeFile(join(repo, 'common', 'dir', 'dir.yaml'), tenant('lk-dir', 1));
  await mkdir(join(repo, 'common', 'solo'), { recursive: true });
  await writeFile(join(repo, 'common', 'solo', 'solo.yaml'), tenant('lk-solo', 1));
  await symlink('../common/file.yaml', join(repo, 'manifests', 'file.yaml'));
  await symlink('../common/dir', join(repo, 'manifests', 'dir'));
  await symlink('../common/solo', join(repo, 'manifests', 'solo'));
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'applied');
  applied = git('rev-parse', 'HEAD').trim();
  session = await openSession({ sim: true, concurrency: 4, logger: silentLogger }, { platform: true, routing: false });
  const run = await planRun([join(repo, 'manifests')], options(), silentLogger, session);
  const progress = { write: () => true } as unknown as NodeJS.WritableStream;
  await applyRun(run, run.plan.changes, {
    concurrency: 4,
    failFast: false,
    stateDir: join(top, 'state'),
    progressOut: progress,
  });
  expect((await plan()).changes).toEqual([]);
}, 60_000);

afterAll(async () => {
  await session?.close();
  await rm(top, { recursive: true, force: true });
});

describe('plan --changed-since through symbolic links', () => {
  it.each([
    ['a linked manifest file', 'common/file.yaml', 'lk-file'],
    ['a manifest in a linked folder', 'common/dir/dir.yaml', 'lk-dir'],
  ])(
    'an edit of %s is in the scoped plan, as in the full plan',
    async (_name, file, name) => {
      await writeFile(join(repo, file), tenant(name, 7));
      try {
        const full = await plan();
        const scoped = await plan(applied);
        expect(full.changes.map(key)).toEqual([`update tenant/${name} [{"op":"replace","path":"/markup","value":7}]`]);
        expect(scoped.changes.map(key)).toEqual(full.changes.map(key));
        expect(scoped.scope?.addresses).toEqual([`tenant/${name}`]);
      } finally {
        await writeFile(join(repo, file), tenant(name, 1));
      }
    },
    30_000,
  );

  it('the manifest deleted from a linked folder it leaves empty is in the scoped plan', async () => {
    await unlink(join(repo, 'common', 'solo', 'solo.yaml'));
    try {
      const full = await plan();
      const scoped = await plan(applied);
      expect(scoped.scope?.addresses).toEqual(['tenant/lk-solo']);
      expect(scoped.changes.map(key)).toEqual(full.changes.map(key));
    } finally {
      await writeFile(join(repo, 'common', 'solo', 'solo.yaml'), tenant('lk-solo', 1));
    }
  }, 30_000);

  it('a link to a folder removed since the commit refuses the scoped plan: its documents left the set', async () => {
    await unlink(join(repo, 'manifests', 'dir'));
    try {
      await expect(plan(applied)).rejects.toThrow(
        /SB_CHANGED_SINCE: .*the symbolic link manifests\/dir is new, removed or changed since that commit/,
      );
    } finally {
      await symlink('../common/dir', join(repo, 'manifests', 'dir'));
    }
  }, 30_000);

  it('a link retargeted since the commit refuses the scoped plan', async () => {
    await unlink(join(repo, 'manifests', 'file.yaml'));
    await symlink('../common/other.yaml', join(repo, 'manifests', 'file.yaml'));
    try {
      await expect(plan(applied)).rejects.toThrow(
        /SB_CHANGED_SINCE: .*the symbolic link manifests\/file\.yaml is new or changed/,
      );
    } finally {
      await unlink(join(repo, 'manifests', 'file.yaml'));
      await symlink('../common/file.yaml', join(repo, 'manifests', 'file.yaml'));
    }
  }, 30_000);

  it('a manifest outside the working tree, through a link to a file or a folder, refuses the scoped plan', async () => {
    await writeFile(join(top, 'outside', 'out.yaml'), tenant('lk-out', 1));
    for (const [link, target] of [
      ['out.yaml', join(top, 'outside', 'out.yaml')],
      ['out-dir', join(top, 'outside')],
    ] as const) {
      await symlink(target, join(repo, 'manifests', link));
      try {
        await expect(plan(applied)).rejects.toThrow(/SB_CHANGED_SINCE: .*is outside the git working tree/);
      } finally {
        await unlink(join(repo, 'manifests', link));
      }
    }
  }, 30_000);

  it('a CSV outside the repository refuses the plan, scoped or not', async () => {
    await writeFile(join(top, 'outside', 'rows.csv'), 'number,route\n+321,x\n');
    await writeFile(
      join(repo, 'manifests', 'table.yaml'),
      'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: r, service: draas, version: standby }\n' +
        'spec:\n  key: [number]\n  fields: { number: string, route: string }\n  recordsFrom: ../../outside/rows.csv\n',
    );
    try {
      for (const since of [undefined, applied])
        await expect(plan(since)).rejects.toMatchObject({
          diagnostics: [expect.objectContaining({ code: 'SB_PATH_OUTSIDE_ROOT' })],
        });
    } finally {
      await unlink(join(repo, 'manifests', 'table.yaml'));
    }
  }, 30_000);
});
