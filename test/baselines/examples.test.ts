/**
 * examples/ with its baseline (examples/baselines/be-office.yaml): the example tenants hold
 * only what differs from it, and the manifests declare, and plan, exactly what they did
 * before the rewrite (test/fixtures/manifests/examples-flat holds the tenants as they were).
 * `explain` says where each value comes from, in text and JSON.
 */
import { cp, rm } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExplain } from '../../src/cli/commands/explain-run.js';
import { silentLogger } from '../../src/core/logger.js';
import { declaredDifferences, loadManifests } from '../../src/manifest/index.js';
import type { Change } from '../../src/plan/types.js';
import { openSession, planRun, type PlanRunOptions, type Session } from '../../src/run/index.js';
import { scratch } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;
let done: () => Promise<void>;
let flat: string;
let session: Session;

beforeAll(async () => {
  ({ dir, done } = await scratch('baseline-examples'));
  flat = path.join(dir, 'flat');
  await cp(path.join(ROOT, 'examples'), flat, { recursive: true });
  await rm(path.join(flat, 'baselines'), { recursive: true });
  for (const file of ['acme-corp.yaml', 'north-tenants.yaml'])
    await cp(path.join(ROOT, 'test/fixtures/manifests/examples-flat', file), path.join(flat, 'tenants', file));
  session = await openSession({ sim: true, concurrency: 8, logger: silentLogger }, { platform: true, routing: true });
});
afterAll(async () => {
  await session?.close();
  await done();
});

const options = (): PlanRunOptions => ({
  target: [],
  exclude: [],
  prune: false,
  allowReplace: false,
  maxDeletePercent: 10,
  concurrency: 8,
  stateDir: path.join(dir, 'state'),
});
const essence = (c: Change) => ({ address: c.address, action: c.action, before: c.before, after: c.after });

describe('examples/ with its baseline', () => {
  it('declares the objects the flat examples declared', async () => {
    const [before, after] = await Promise.all([
      loadManifests([flat], { cwd: dir, env: {} }),
      loadManifests([path.join(ROOT, 'examples')], { cwd: ROOT, env: {} }),
    ]);
    expect(after.diagnostics).toEqual([]);
    expect(declaredDifferences(before.set, after.set)).toEqual([]);
    expect(after.baselines?.selectedBy('be-office')).toEqual(['tenant/acme-corp', 'tenant/umbrella-bv']);
  });

  it('plans the changes the flat examples planned', async () => {
    const before = (await planRun([flat], options(), silentLogger, session)).plan;
    const after = (await planRun([path.join(ROOT, 'examples')], options(), silentLogger, session)).plan;
    expect(after.changes.map(essence)).toEqual(before.changes.map(essence));
    expect(after.summary).toEqual(before.summary);
    expect(after.changes.length).toBeGreaterThan(10);
    // The changes a baseline value has a part in say so, field by field.
    const template = after.changes.find((c) => c.address === 'tenant/umbrella-bv/subscription/office/template/TPL-STD');
    expect(template?.fieldSources).toMatchObject({
      vrp: {
        from: 'baseline',
        baseline: 'be-office',
        source: expect.stringMatching(/^examples\/baselines\/be-office\.yaml:20:/),
      },
      description: { from: 'override', baseline: 'be-office', reason: 'shorter text, ticket OPS-42' },
    });
    expect(after.baselines).toEqual([
      expect.objectContaining({ name: 'be-office', documents: 2, selector: 'resellers: north; labels: offer=office' }),
    ]);
    expect(after.baselines?.[0]?.overrides.map((o) => `${o.document} ${o.path}: ${o.reason}`)).toEqual([
      'tenant/acme-corp spec.subscriptions[main].entitlements[BE geo].entitlement: contract 2026-114',
      'tenant/umbrella-bv spec.subscriptions[office].templates[TPL-STD].description: shorter text, ticket OPS-42',
    ]);
  });
});

describe('explain', () => {
  it('prints each value with its source: the tenant, the baseline, or an override with its reason', async () => {
    const text = await runExplain('tenant/acme-corp/subscription/main', ['examples'], {
      format: 'text',
      cwd: ROOT,
      env: {},
    });
    const lines = text.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'tenant/acme-corp is selected by:',
      '  baseline be-office  (resellers: north; labels: offer=office)  examples/baselines/be-office.yaml:8:9',
      '',
      'Overrides (where it differs from its baselines):',
      '  spec.subscriptions[main].entitlements[BE geo].entitlement: 20 instead of 10 (baseline be-office)',
      '      reason: contract 2026-114  examples/tenants/acme-corp.yaml:11:7',
    ]);
    expect(text).toMatch(
      /\ntenant\/acme-corp\/subscription\/main\/entitlement\/BE geo \(Entitlement\) {2}examples\/tenants\/acme-corp\.yaml:\d+:\d+\n {2}type {9}"BE geo" {2}examples\/tenants\/acme-corp\.yaml:\d+:\d+\n {2}entitlement {2}20 {8}examples\/tenants\/acme-corp\.yaml:\d+:\d+ {2}override of baseline be-office, instead of 10: contract 2026-114\n/,
    );
    expect(text).toMatch(
      /\ntenant\/acme-corp\/subscription\/main\/template\/TPL-STD \(Template\) {2}from baseline be-office {2}examples\/baselines\/be-office\.yaml:20:13\n {2}sku +"TPL-STD" +examples\/baselines\/be-office\.yaml:20:15 {2}baseline be-office\n/,
    );
  });

  it('gives the same as JSON, and says which address is unknown', async () => {
    const json = JSON.parse(
      await runExplain('tenant/umbrella-bv', ['examples'], { format: 'json', cwd: ROOT, env: {} }),
    );
    expect(json.baselines).toEqual([
      {
        name: 'be-office',
        source: 'examples/baselines/be-office.yaml:8:9',
        selector: 'resellers: north; labels: offer=office',
      },
    ]);
    const template = json.objects.find((o: { address: string }) => o.address.endsWith('/template/TPL-STD'));
    expect(template.fields.description).toMatchObject({
      value: 'Default',
      from: 'override',
      reason: 'shorter text, ticket OPS-42',
      baselineValue: 'Default for office staff',
      path: 'spec.subscriptions[office].templates[TPL-STD].description',
    });
    expect(template.fields.vrp).toMatchObject({ value: 'vrp-std', from: 'baseline', baseline: 'be-office' });
    await expect(runExplain('tenant/acme-crop', ['examples'], { format: 'text', cwd: ROOT, env: {} })).rejects.toThrow(
      /no object is declared at tenant\/acme-crop \(did you mean "tenant\/acme-corp"\?\)/,
    );
  });
});
