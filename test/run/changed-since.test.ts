/**
 * `plan --changed-since`: on a generated estate applied to the simulator, random edits
 * (renames, moves between files, removed documents and files, CSV edits) give a scoped plan
 * whose changes are the full plan's for the same addresses. Seeded: a failure prints its seed.
 * Run without the manifest cache and with it: the scoped plans then load through the cache
 * (the files unchanged since the last round from it, the edited ones afresh), the full plan
 * they are compared with never does.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import { seededRandom } from '../../src/core/random.js';
import { matchesPattern } from '../../src/plan/targets.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { applyRun, openSession, planRun, type PlanRunOptions, type Session } from '../../src/run/index.js';
import { changedDocuments, EDITS, generateEstate, git, writeEstate, type Estate } from './changed-since-estate.js';

let dir: string;
let session: Session;
/** The applied commit (live = these manifests), and one with edits never applied (drift outside any scope). */
let applied: string;
let drifted: string;
let base: Estate;
/** The estate of the drift commit. */
let driftEstate: Estate;

let xdgBefore: string | undefined;
/** Whether the plans of the tests go through the manifest cache (in the state folder). */
let manifestCache = false;

const options = (changedSince?: string, cached = manifestCache): PlanRunOptions => ({
  manifestCache: cached,
  target: [],
  exclude: [],
  prune: false,
  allowReplace: false,
  maxDeletePercent: 100,
  concurrency: 8,
  stateDir: join(dir, '.state'),
  ...(changedSince !== undefined ? { changedSince } : {}),
});

async function plan(changedSince?: string, cached = manifestCache): Promise<Plan> {
  return (await planRun([dir], options(changedSince, cached), silentLogger, session)).plan;
}

const key = (c: Change) =>
  `${c.action} ${c.address} ${c.previousAddress ?? ''} ${JSON.stringify(c.patch)} ${c.requests.map((r) => `${r.method} ${r.path}`).join(' ')}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-changed-'));
  // The manifest cache's user key: in the test's folder, never the real home's.
  xdgBefore = process.env['XDG_CACHE_HOME'];
  process.env['XDG_CACHE_HOME'] = join(dir, '.xdg');
  session = await openSession({ sim: true, concurrency: 8, logger: silentLogger }, { platform: true, routing: true });
  base = generateEstate(9, seededRandom(7));
  await writeEstate(dir, base);
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'applied');
  applied = git(dir, 'rev-parse', 'HEAD').trim();
  const run = await planRun([dir], options(), silentLogger, session);
  const progress = { write: () => true } as unknown as NodeJS.WritableStream;
  const result = await applyRun(run, run.plan.changes, {
    concurrency: 8,
    failFast: false,
    stateDir: join(dir, '.state'),
    progressOut: progress,
  });
  const failures = result.result.results.filter((r) => r.outcome.status !== 'applied');
  expect(failures.map((r) => `${r.change.address}: ${JSON.stringify(r.outcome)}`)).toEqual([]);
  expect((await plan()).changes).toEqual([]);
  // Drift: the first tenant's markup and a route's priority change in the manifests, never applied.
  driftEstate = structuredClone(base);
  EDITS['markup']!(driftEstate, () => 0);
  EDITS['routingCsv']!(driftEstate, () => 0);
  await writeEstate(dir, driftEstate);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'drift');
  drifted = git(dir, 'rev-parse', 'HEAD').trim();
}, 60_000);

afterAll(async () => {
  if (xdgBefore === undefined) delete process.env['XDG_CACHE_HOME'];
  else process.env['XDG_CACHE_HOME'] = xdgBefore;
  await session?.close();
  await rm(dir, { recursive: true, force: true });
});

describe.each([
  ['without', false],
  ['with', true],
])('plan --changed-since, %s the manifest cache', (_with, cached) => {
  beforeAll(() => {
    manifestCache = cached;
  });

  it('equals the full plan restricted to the changed documents, on random edits', async () => {
    const names = Object.keys(EDITS);
    // 16 seeds in all, half of them through the cache: the file costs what it did before the cache.
    for (let round = 0; round < 8; round++) {
      const seed = 1000 + round + (cached ? 8 : 0);
      const random = seededRandom(seed);
      const estate = structuredClone(driftEstate);
      const done: string[] = [];
      for (let e = 0; e < 1 + Math.floor(random() * 3); e++) {
        const name = names[Math.floor(random() * names.length)] ?? 'markup';
        if (EDITS[name]!(estate, random)) done.push(name);
      }
      await writeEstate(dir, estate);
      const context = `seed ${seed}, edits ${done.join(', ')}`;
      // The reference never goes through the cache.
      const full = await plan(undefined, false);
      // Since the applied commit, live state is exactly that commit's: every change of the full plan is in scope.
      const sinceApplied = await plan(applied);
      expect(sinceApplied.changes.map(key), context).toEqual(full.changes.map(key));
      // Since the drift commit, the drift is outside the scope: the scoped plan is the full one restricted to it.
      const sinceDrift = await plan(drifted);
      const scope = sinceDrift.scope?.addresses ?? [];
      // Exactly the documents the edits changed (a move between files changes none).
      expect(scope, context).toEqual(changedDocuments(driftEstate, estate));
      const restricted = full.changes.filter((c) =>
        scope.some((a) => matchesPattern(a, c.address) || (c.previousAddress && matchesPattern(a, c.previousAddress))),
      );
      expect(sinceDrift.changes.map(key), context).toEqual(restricted.map(key));
      expect(
        sinceDrift.warnings.map((w) => w.code),
        context,
      ).toContain('SB_PLAN_SCOPED');
    }
    const kept = await readdir(join(dir, '.state', 'cache', 'manifests')).catch(() => [] as string[]);
    expect(kept.length > 0).toBe(cached);
  }, 60_000);

  it('a document moved to another file unchanged is no change; nothing changed reads nothing', async () => {
    const estate = structuredClone(driftEstate);
    await writeEstate(dir, estate);
    const unchanged = await plan(drifted);
    expect(unchanged.scope).toMatchObject({ documents: 0, addresses: [] });
    expect(unchanged.changes).toEqual([]);
    expect(unchanged.summary.noop).toBe(0);
    // The first tenant (of the first file) goes to the end of the third.
    const answers = [0, 0.5, 0.99];
    EDITS['moveTenant']!(estate, () => answers.shift() ?? 0);
    await writeEstate(dir, estate);
    expect(git(dir, 'status', '--porcelain')).not.toBe('');
    const moved = await plan(drifted);
    expect(moved.scope).toMatchObject({ documents: 0 });
    expect(moved.warnings.find((w) => w.code === 'SB_PLAN_SCOPED')?.message).toMatch(
      /^scoped to 0 of \d+ documents changed since [0-9a-f]{40}/,
    );
  }, 30_000);

  it('records the ref, the commit and the digest of each file of the changed documents', async () => {
    const estate = structuredClone(driftEstate);
    EDITS['addressCsv']!(estate, () => 0);
    await writeEstate(dir, estate);
    const scoped = await plan(drifted);
    expect(scoped.scope?.changedSince).toBe(drifted);
    expect(scoped.scope?.commit).toBe(drifted);
    expect(scoped.scope?.addresses).toEqual(changedDocuments(driftEstate, estate));
    expect(scoped.scope?.documents).toBe(1);
    const files = Object.keys(scoped.scope?.files ?? {});
    expect(files.some((f) => f.endsWith('.csv'))).toBe(true);
    expect(Object.values(scoped.scope?.files ?? {}).every((d) => /^sha256:[0-9a-f]{64}$/.test(d))).toBe(true);
  }, 30_000);
});
