/**
 * Adopting baselines on a generated estate with random exceptions: the estate written with
 * baselines (by hand, in estate.ts) declares what the flat one does; `baseline suggest
 * --write` and `export --baselines` rewrite a flat set so that, with the baseline, it
 * declares exactly the same objects (and write nothing when it would not).
 */
import { cp, readFile, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredDifferences, loadManifests } from '../../src/manifest/index.js';
import { reduceToBaselines, suggestBaseline } from '../../src/run/baselines.js';
import { generateEstate } from './estate.js';
import { said, scratch, writeFiles } from './helpers.js';

const estate = generateEstate({ resellers: 4, tenantsPerReseller: 25, exceptions: 0.1, beGeo: 10 });
let root: string;
let done: () => Promise<void>;
beforeAll(async () => {
  ({ dir: root, done } = await scratch('baseline-adopt'));
  await writeFiles(path.join(root, 'flat'), estate.flat);
  await writeFiles(path.join(root, 'with'), estate.withBaselines);
});
afterAll(() => done());

const load = (dir: string) => loadManifests([path.join(root, dir)], { cwd: root, env: {} });

describe('a generated estate, flat and with baselines', () => {
  it('declares the same objects both ways, with every exception an override', async () => {
    const [flat, withBaselines] = await Promise.all([load('flat'), load('with')]);
    expect(said(flat.diagnostics)).toEqual([]);
    expect(said(withBaselines.diagnostics)).toEqual([]);
    expect(declaredDifferences(flat.set, withBaselines.set)).toEqual([]);
    const overrides = [...(withBaselines.baselines?.resolutions.values() ?? [])].flatMap((r) => r.overrides);
    const beGeo = overrides.filter((o) => o.path.endsWith('[BE geo].entitlement'));
    expect(beGeo.length).toBe(estate.ownBeGeo.size);
    expect(overrides.filter((o) => o.remove).length).toBe(estate.withoutNlGeo.size);
    expect(estate.ownBeGeo.size).toBeGreaterThan(0);
    expect(estate.withoutNlGeo.size).toBeGreaterThan(0);
  });
});

describe('baseline suggest --write', () => {
  it('proposes what most selected tenants share and rewrites them to their differences only', async () => {
    const dir = path.join(root, 'suggest');
    await cp(path.join(root, 'flat'), dir, { recursive: true });
    const before = await load('suggest');
    const result = await suggestBaseline(dir, {
      select: ['reseller=std-r01'],
      coverage: 0.5,
      by: ['subscriptions.uc'],
      write: true,
      reason: 'adopted',
      cwd: root,
    });
    expect(result.selected).toHaveLength(25);
    expect(result.text).toContain('selector: { resellers: [std-r01] }');
    expect(result.text).toContain('- select: { uc: uc_alpha }');
    expect(result.text).toMatch(/markup: 5\n/);
    expect(result.rewritten).toEqual([path.join(dir, 'tenants', 'std-r01.yaml')]);
    const after = await load('suggest');
    expect(said(after.diagnostics)).toEqual([]);
    expect(declaredDifferences(before.set, after.set)).toEqual([]);
    // The tenants keep what differs: the exceptions of reseller 01, each with an override.
    const rewritten = await readFile(path.join(dir, 'tenants', 'std-r01.yaml'), 'utf8');
    expect(rewritten).not.toContain('BE tollfree');
    const exceptions = [...estate.ownBeGeo.keys()].filter((t) => Number(t.slice(-4)) >= 25 && Number(t.slice(-4)) < 50);
    expect((rewritten.match(/\[BE geo\]\.entitlement", reason: adopted/g) ?? []).length).toBe(exceptions.length);
    expect(await readdir(path.join(dir, 'baselines'))).toEqual(['reseller-std-r01.yaml']);
  });

  it('leaves a collection a tenant does not have undeclared: one override removes it (no prune there)', async () => {
    const dir = path.join(root, 'without');
    const sub = (t: number, templates: boolean) =>
      `    - name: main\n      billingId: B-${t}-MAIN\n      uc: uc_alpha\n` +
      (templates
        ? '      templates:\n        - { sku: TPL-STD, name: Std, description: D, location: BE, vrp: vrp-std }\n'
        : '');
    const files: Record<string, string> = {
      'resellers.yaml': 'apiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: north, group: g }\nspec: {}\n',
    };
    for (const t of [1, 2, 3, 4])
      files[`t${t}.yaml`] =
        `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: t${t}, reseller: north }\nspec:\n` +
        `  billingId: B-${t}\n  subscriptions:\n${sub(t, t !== 4)}`;
    await writeFiles(dir, files);
    const before = await load('without');
    const result = await suggestBaseline(dir, {
      select: ['reseller=north'],
      coverage: 0.5,
      by: ['subscriptions.uc'],
      write: true,
      reason: 'adopted',
      cwd: root,
    });
    expect(result.rewritten).toContain(path.join(dir, 't4.yaml'));
    const after = await load('without');
    expect(said(after.diagnostics)).toEqual([]);
    expect(declaredDifferences(before.set, after.set)).toEqual([]);
    expect(after.set.get('tenant/t4/subscription/main')?.declaredCollections).toEqual([]);
    expect(await readFile(path.join(dir, 't4.yaml'), 'utf8')).toContain(
      '{ path: "spec.subscriptions[main].templates", reason: adopted, remove: true }',
    );
  });

  it('writes nothing when the documents are not flat', async () => {
    await expect(
      suggestBaseline(path.join(root, 'with'), {
        select: ['reseller=std-r00'],
        coverage: 0.5,
        by: [],
        write: true,
        reason: 'x',
        cwd: root,
      }),
    ).rejects.toThrow(/holds baselines already/);
  });
});

describe('export --baselines', () => {
  it('rewrites flat documents against given baselines: the overrides are the exceptions', async () => {
    const dir = path.join(root, 'exported');
    await cp(path.join(root, 'flat'), dir, { recursive: true });
    const baselines = path.join(root, 'standards');
    await writeFiles(
      baselines,
      Object.fromEntries(Object.entries(estate.withBaselines).filter(([f]) => f.startsWith('baselines/'))),
    );
    const before = await load('exported');
    const { overrides, rewritten } = await reduceToBaselines(dir, baselines, 'live value at export', root);
    expect(rewritten).toHaveLength(4);
    const markups = [...estate.flat['tenants/std-r00.yaml']!.matchAll(/markup: (\d+)/g)].length;
    expect(markups).toBeGreaterThan(0);
    expect(overrides).toBe(estate.ownBeGeo.size + estate.withoutNlGeo.size + countOwnMarkups(estate.flat));
    const after = await loadManifests([dir, baselines], { cwd: root, env: {} });
    expect(said(after.diagnostics)).toEqual([]);
    expect(declaredDifferences(before.set, after.set)).toEqual([]);
  });
});

function countOwnMarkups(flat: Record<string, string>): number {
  return Object.entries(flat)
    .filter(([f]) => f.startsWith('tenants/'))
    .reduce((n, [, text]) => n + [...text.matchAll(/^ {2}markup: (\d+)$/gm)].filter((m) => m[1] !== '5').length, 0);
}
