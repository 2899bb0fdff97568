/**
 * A baseline edit over a fleet of 2,000 tenants, in-process against one simulator seeded
 * with the estate (estate.ts): the plan of the estate written with baselines holds the
 * per-object changes the flat estate's plan holds, its summary by baseline counts them the
 * same, the pull-request comment stays within GitHub's limit, and `--changed-since` of a
 * baseline edit plans exactly the full plan's changes of the tenants that baseline selects.
 */
import { execFileSync } from 'node:child_process';
import { writeFile, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import { baselineReports, documentOf } from '../../src/plan/baseline-summary.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { openSession, planRun, type PlanRunOptions, type Session } from '../../src/run/index.js';
import { generateEstate } from './estate.js';
import { scratch, writeFiles } from './helpers.js';

// Two edits of the standard: BE geo 10 → 12 for every tenant, FR geo 1 → 2 for the lab ones.
const estate = generateEstate({ resellers: 20, tenantsPerReseller: 100, exceptions: 0.05, beGeo: 12, frGeo: 2 });
let root: string;
let done: () => Promise<void>;
let session: Session;
let flat: Plan;
let withBaselines: Plan;
const options = (): PlanRunOptions => ({
  target: [],
  exclude: [],
  prune: false,
  allowReplace: false,
  maxDeletePercent: 10,
  // The edit updates every tenant's BE geo: the update rail would refuse it (this test reads the plan).
  maxUpdatePercent: 100,
  concurrency: 16,
  stateDir: path.join(root, 'state'),
});
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], {
    cwd: path.join(root, 'with'),
    encoding: 'utf8',
  }).trim();

beforeAll(async () => {
  ({ dir: root, done } = await scratch('baseline-fleet'));
  await writeFiles(path.join(root, 'flat'), estate.flat);
  await writeFiles(path.join(root, 'with'), estate.withBaselines);
  // The repository's last commit has the lab baseline before its edit (FR geo 1, as live).
  const lab = path.join(root, 'with', 'baselines', 'lab.yaml');
  const edited = await readFile(lab, 'utf8');
  await writeFile(lab, edited.replace('entitlement: 2 }', 'entitlement: 1 }'));
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'estate');
  await writeFile(lab, edited);
  await writeFile(path.join(root, 'seed.json'), JSON.stringify(estate.seed));
  session = await openSession(
    { sim: true, seed: path.join(root, 'seed.json'), concurrency: 16, logger: silentLogger },
    { platform: true, routing: false },
  );
  flat = (await planRun([path.join(root, 'flat')], options(), silentLogger, session)).plan;
  withBaselines = (await planRun([path.join(root, 'with')], options(), silentLogger, session)).plan;
}, 240_000);
afterAll(async () => {
  await session?.close();
  await done();
});

const essence = (c: Change) => ({ address: c.address, action: c.action, before: c.before, after: c.after });

describe('a baseline edit over 2,000 tenants', () => {
  it('plans the per-object changes the flat manifests plan', () => {
    expect(estate.tenants).toBe(2_000);
    expect(withBaselines.changes.map(essence)).toEqual(flat.changes.map(essence));
    expect(withBaselines.summary).toEqual(flat.summary);
    const updated = 2_000 - estate.ownBeGeo.size;
    expect(flat.changes.filter((c) => c.address.endsWith('/entitlement/BE geo'))).toHaveLength(updated);
  });

  it('summarises the changes by baseline, with the counts of the flat plan and the overrides kept', () => {
    const alpha = baselineReports(withBaselines).find((r) => r.baseline.name === 'alpha');
    expect(alpha?.baseline).toMatchObject({ documents: 2_000, documentKind: 'Tenant' });
    expect(alpha?.lines).toEqual([
      {
        type: 'change',
        path: 'spec.subscriptions[main].entitlements[BE geo].entitlement',
        before: { value: '10' },
        after: '12',
        documents: 2_000 - estate.ownBeGeo.size,
        changes: 2_000 - estate.ownBeGeo.size,
        kept: [...estate.ownBeGeo].map(([document, reason]) => ({ document, reason })),
      },
    ]);
    const markdown = renderMarkdown(withBaselines);
    expect(markdown.length).toBeLessThan(65_536);
    // By baseline first: before the capacity table and the per-object changes.
    expect(markdown.indexOf('#### Baselines')).toBeGreaterThan(0);
    expect(markdown.indexOf('#### Baselines')).toBeLessThan(markdown.indexOf('#### Capacity'));
    expect(markdown).toContain(
      `- ${(2_000 - estate.ownBeGeo.size).toLocaleString('en-US')} tenants change <code>spec.subscriptions&#91;main&#93;.entitlements&#91;BE geo&#93;.entitlement</code> <code>10</code> → <code>12</code>`,
    );
    expect(markdown).toMatch(/\d+ tenants keep their override \(std-t\d{4}: contract C-std-t\d{4}, /);
  });

  it('--changed-since of a baseline edit plans the full plan restricted to the tenants it selects', async () => {
    const cwd = process.cwd();
    process.chdir(path.join(root, 'with'));
    try {
      const full = withBaselines;
      const scoped = (await planRun(['.'], { ...options(), changedSince: 'HEAD' }, silentLogger, session)).plan;
      const selected = new Set(
        Object.entries(estate.withBaselines)
          .flatMap(([, text]) => [
            ...text.matchAll(/name: (std-t\d+)\n {2}reseller: \S+\n {2}labels: \{ lab: "yes" \}/g),
          ])
          .map((m) => `tenant/${m[1]}`),
      );
      expect(selected.size).toBe(200);
      expect(scoped.scope).toMatchObject({ documents: 1, addresses: ['baseline/lab'] });
      const restricted = full.changes.filter((c) => selected.has(documentOf(c.address)));
      expect(restricted.some((c) => c.address.endsWith('/entitlement/FR geo'))).toBe(true);
      expect(scoped.changes.map(essence)).toEqual(restricted.map(essence));
      expect(scoped.baselines?.find((b) => b.name === 'lab')?.edited).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  }, 120_000);
});
