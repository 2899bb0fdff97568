/**
 * `noBaselines` (src/manifest/load.ts): export's check of the files it wrote builds each
 * document as its file is read. For files without a Baseline document the load gives the
 * same objects and findings as without the option (in the files' order); a Baseline document
 * among them is an error, never silently applied.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests, type LoadResult } from '../../src/manifest/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Groups and resellers, then tenants in their own folder: kinds built at once and the kind that waits. */
const MIXED = ['examples/group.yaml', 'examples/resellers.yaml', 'test/fixtures/manifests/examples-flat'];

/** What a load says: its objects (fields, parents, positions) by address, digest and diagnostics. */
function said(loaded: LoadResult) {
  return {
    objects: loaded.set.objects.map((o) => ({ ...o })).sort((a, b) => (a.address < b.address ? -1 : 1)),
    digest: loaded.digest,
    diagnostics: loaded.diagnostics,
    files: loaded.files,
  };
}

describe('a load of files known to hold no Baseline document', () => {
  it('gives the objects and findings the load without the option gives', async () => {
    const plain = await loadManifests(MIXED, { cwd: ROOT, env: {} });
    const known = await loadManifests(MIXED, { cwd: ROOT, env: {}, noBaselines: true });
    // Its mistakes too (a CSV it names is not there): said alike.
    expect(plain.diagnostics.length).toBeGreaterThan(0);
    expect(new Set(plain.set.objects.map((o) => o.kind)).size).toBeGreaterThan(4);
    expect(said(known)).toEqual(said(plain));
  });

  it('is not taken with document records: what selected a document needs every file read', async () => {
    const loaded = await loadManifests(MIXED, { cwd: ROOT, env: {}, noBaselines: true, documents: true });
    const plain = await loadManifests(MIXED, { cwd: ROOT, env: {}, documents: true });
    expect(loaded.documents).toEqual(plain.documents);
    expect(loaded.set.objects.map((o) => o.address)).toEqual(plain.set.objects.map((o) => o.address));
  });

  it("reports a tenant's mistakes as the load without the option does, overrides of no baseline too", async () => {
    const text =
      'apiVersion: switchboard/v1\nkind: Tenant\nmetadata:\n  name: t\n  reseller: r\n' +
      '  overrides: [{ path: "spec.markup", reason: contract }]\nspec: { billingId: T-1 }\n---\n' +
      'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: u, reseller: r }\n' +
      'spec: { billingId: T-2, extra: 1 }\n';
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
      'b.yaml:2 Baseline standard: this load expects none (the files an export wrote hold none)',
    ]);
  });
});
