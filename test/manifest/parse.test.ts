import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseManifest } from '../../src/manifest/parse.js';
import { Reporter } from '../../src/manifest/reporter.js';
import { closest } from '../../src/manifest/suggest.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('parseManifest', () => {
  it('reads valid documents exactly as the yaml package does (fast path and slow path agree)', async () => {
    for (const file of [
      'examples/group.yaml',
      'examples/resellers.yaml',
      'examples/tenants/acme-corp.yaml',
      'examples/routing/routes.yaml',
    ]) {
      const text = await readFile(path.join(root, file), 'utf8');
      const fast = parseManifest(file, text, new Reporter()).map((d) => d.value);
      const exact = parseAllDocuments(text).map((d) => d.toJS() as unknown);
      expect(fast, file).toEqual(exact);
    }
  });

  it('falls back to the yaml package for errors, keeping the valid documents of the file', () => {
    const reporter = new Reporter();
    const docs = parseManifest('f.yaml', 'a: 1\n---\nb: [1, 2\n---\nc: 3\n', reporter);
    expect(docs.map((d) => d.value)).toEqual([{ a: 1 }, { c: 3 }]);
    expect(reporter.diagnostics.map((d) => [d.code, d.source?.line])).toEqual([['SB_YAML', 4]]);
  });

  it('reads unquoted E.164-looking keys as numbers on both paths (the schema says to quote them)', () => {
    const docs = parseManifest('f.yaml', '+3221234567: x\n', new Reporter());
    expect(docs[0]?.value).toEqual({ 3221234567: 'x' });
  });

  it('reports duplicate keys with their position', () => {
    const reporter = new Reporter();
    parseManifest('f.yaml', 'a: 1\nb: 2\na: 3\n', reporter);
    expect(reporter.diagnostics.map((d) => `${d.source?.line}:${d.source?.column} ${d.code}`)).toEqual(['3:1 SB_YAML']);
  });
});

describe('did you mean', () => {
  it('suggests the closest known name, case-insensitively, within a small distance', () => {
    expect(closest('billingID', ['billingId', 'markup'])).toBe('billingId');
    expect(closest('markupp', ['billingId', 'markup'])).toBe('markup');
    expect(closest('subscriptons', ['subscriptions', 'admins'])).toBe('subscriptions');
    expect(closest('colour', ['billingId', 'markup'])).toBeUndefined();
  });
});

describe('positions', () => {
  it('numbers documents the same way on both paths (empty and null documents skipped)', async () => {
    const { loadManifests } = await import('../../src/manifest/index.js');
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(path.join(tmpdir(), 'sb-pos-'));
    const text =
      '---\n~\n---\n# only a comment\n---\napiVersion: switchboard/v1\nkind: Group\nmetadata: { name: g }\nspec: { draasDomian: x }\n';
    await writeFile(path.join(dir, 'g.yaml'), text);
    const { diagnostics } = await loadManifests([dir], { cwd: dir, env: {} });
    await rm(dir, { recursive: true, force: true });
    expect(diagnostics.map((d) => `${d.source?.line}:${d.source?.column} ${d.message}`)).toEqual([
      '9:9 unknown field "draasDomian" (did you mean "draasDomain"?)',
    ]);
  });
});

describe('a collection used as a mapping key', () => {
  it('is an unknown-field diagnostic with a position, and no Node warning on stderr (slow path: the file also holds a syntax error)', async () => {
    const { loadManifests } = await import('../../src/manifest/index.js');
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'sb-key-'));
    await writeFile(
      join(dir, 'k.yaml'),
      'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: x, reseller: north }\nspec:\n  ? [a, b]\n  : 1\n---\nkind: [unclosed\n',
    );
    const warnings: unknown[] = [];
    const listener = (w: unknown) => warnings.push(w);
    process.on('warning', listener);
    try {
      const result = await loadManifests([dir], { cwd: dir, env: {} });
      await new Promise((r) => setImmediate(r));
      expect(result.diagnostics.map((d) => d.code)).toContain('SB_UNKNOWN_FIELD');
      expect(result.diagnostics.every((d) => d.source && d.source.line > 0)).toBe(true);
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', listener);
    }
  });
});
