/**
 * `noBaselines` (src/manifest/load.ts): export's check of the files it wrote builds each
 * document as its file is read. For files without a Baseline document the load is the one
 * without the option; a Baseline document among them is an error, never silently applied.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests, type LoadResult } from '../../src/manifest/index.js';

const EXAMPLES = path.resolve(import.meta.dirname, '../fixtures/manifests/examples-flat');

/** What a load says: its objects (fields, parents, positions), digest and diagnostics. */
function said(loaded: LoadResult) {
  return {
    objects: loaded.set.objects.map((o) => ({ ...o })),
    digest: loaded.digest,
    diagnostics: loaded.diagnostics,
    files: loaded.files,
  };
}

describe('a load of files known to hold no Baseline document', () => {
  it('gives what the load without the option gives', async () => {
    const plain = await loadManifests([EXAMPLES], { cwd: EXAMPLES, env: {} });
    const known = await loadManifests([EXAMPLES], { cwd: EXAMPLES, env: {}, noBaselines: true });
    // Its mistakes too (a CSV it names is not there): said alike.
    expect(plain.diagnostics.length).toBeGreaterThan(0);
    expect(plain.set.objects.length).toBeGreaterThan(20);
    expect(said(known)).toEqual(said(plain));
  });

  it("reports a tenant's mistakes as the load without the option does, its overrides of no baseline too", async () => {
    const text =
      'apiVersion: switchboard/v1\nkind: Tenant\nmetadata:\n  name: t\n  reseller: r\n' +
      '  overrides: [{ path: "spec.markup", reason: contract }]\nspec: { billingId: T-1 }\n---\n' +
      'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: u, reseller: r }\nspec: { billingId: T-2, extra: 1 }\n';
    const load = (noBaselines: boolean) =>
      loadManifests(['/m/t.yaml'], {
        cwd: '/m',
        env: {},
        noBaselines,
        source: { has: () => true, read: async () => Buffer.from(text), rootOf: () => '/m' },
      });
    const plain = await load(false);
    expect(plain.diagnostics.map((d) => d.code)).toEqual([expect.stringMatching(/STALE/), 'SB_UNKNOWN_FIELD']);
    expect((await load(true)).diagnostics).toEqual(plain.diagnostics);
  });

  it('refuses a Baseline document among them', async () => {
    const text =
      'apiVersion: switchboard/v1\nkind: Baseline\nmetadata: { name: standard }\n' +
      'spec: { selector: {}, values: { markup: 5 } }\n';
    const loaded = await loadManifests(['/m/b.yaml'], {
      cwd: '/m',
      env: {},
      noBaselines: true,
      source: { has: () => true, read: async () => Buffer.from(text), rootOf: () => '/m' },
    });
    expect(loaded.ok).toBe(false);
    expect(loaded.diagnostics.map((d) => `${d.source?.file}:${d.source?.line} ${d.message}`)).toEqual([
      "b.yaml:2 baseline standard: these files are loaded as holding no Baseline document (an export's)",
    ]);
  });
});
