/**
 * The `baselines` benchmark's estate (test/bench/lib/baselines-estate.mjs), at a fifth of
 * its size: loaded with its three baselines, it declares what the flat `plan-org` manifests
 * declare, but for the entitlements its remove overrides leave unmanaged, and 5 % of its
 * tenants have overrides, with no diagnostic.
 */
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { said, scratch } from './helpers.js';

type Size = Record<string, number>;
// @ts-expect-error: a plain ES module of the benchmarks, without types
const estate = (await import('../bench/lib/estate.mjs')) as {
  ORG: Size;
  tenantName(t: number): string;
  writeOrgManifests(dir: string, size: Size): Promise<unknown>;
};
// @ts-expect-error: a plain ES module of the benchmarks, without types
const fixture = (await import('../bench/lib/baselines-estate.mjs')) as {
  leavesMobileOut(t: number): boolean;
  writeOrgBaselineManifests(dir: string, size: Size): Promise<Record<string, number>>;
};
const { ORG, tenantName, writeOrgManifests } = estate;
const { leavesMobileOut, writeOrgBaselineManifests } = fixture;

const SIZE: Size = { ...ORG, resellers: 4 };
let root: string;
let done: () => Promise<void>;
beforeAll(async () => ({ dir: root, done } = await scratch('baseline-bench')));
afterAll(() => done());

const objects = async (dir: string) => {
  const loaded = await loadManifests([dir], { cwd: dir, env: {} });
  expect(said(loaded.diagnostics)).toEqual([]);
  return new Map(loaded.set.platformObjects().map((o) => [o.address, o.fields]));
};

describe('the baselines benchmark estate', () => {
  it('declares the flat estate with three baselines and 5 % of the tenants overriding them', async () => {
    await writeOrgManifests(path.join(root, 'flat'), SIZE);
    const written = await writeOrgBaselineManifests(path.join(root, 'with'), SIZE);
    const tenants = (SIZE['resellers'] ?? 0) * (SIZE['tenantsPerReseller'] ?? 0);
    expect(tenants).toBe(400);
    expect(written).toEqual({ baselines: 3, tenants, withOverrides: tenants * 0.05, overrides: expect.any(Number) });
    const flat = await objects(path.join(root, 'flat'));
    const withBaselines = await objects(path.join(root, 'with'));
    const leftOut = Array.from({ length: tenants }, (_, t) => t)
      .filter(leavesMobileOut)
      .map((t) => `tenant/${tenantName(t)}/subscription/s1/entitlement/BE mobile`);
    expect(leftOut.every((address) => flat.has(address))).toBe(true);
    for (const address of leftOut) flat.delete(address);
    expect(withBaselines).toEqual(flat);
  });
});
