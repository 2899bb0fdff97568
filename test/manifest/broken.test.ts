import { mkdtemp, readFile, rm, writeFile, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/commands/validate.js';
import { loadManifests } from '../../src/manifest/index.js';

const root = path.resolve(import.meta.dirname, '../..');
const broken = 'test/fixtures/manifests/broken';
const golden = path.join(root, 'test/fixtures/manifests/broken.expected.txt');

describe('broken manifests', () => {
  it('docs/manifests.md: every mistake of the broken folder is reported at once, as the golden file says', async () => {
    const { output, exitCode } = await runValidate([broken], { format: 'text', cwd: root, env: {} });
    if (process.env['UPDATE_GOLDEN'] === '1') await writeFile(golden, output);
    expect(output).toBe(await readFile(golden, 'utf8'));
    expect(exitCode).toBe(1);
  });

  it('puts file:line:col on every diagnostic and sorts them by file and line', async () => {
    const { result } = await runValidate([broken], { format: 'text', cwd: root, env: {} });
    expect(result.diagnostics.length).toBeGreaterThan(30);
    for (const d of result.diagnostics) {
      expect(d.source?.file).toMatch(/^test\/fixtures\/manifests\/broken\/.+\.(yaml|csv)$/);
      expect(d.source?.line).toBeGreaterThanOrEqual(1);
      expect(d.source?.column).toBeGreaterThanOrEqual(1);
    }
    const keys = result.diagnostics.map((d) => [d.source!.file, d.source!.line] as const);
    const sorted = [...keys].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1));
    expect(keys).toEqual(sorted);
  });

  it('gives no partial result: invalid documents contribute no object', async () => {
    const { result } = await runValidate([broken], { format: 'text', cwd: root, env: {} });
    const addresses = result.set.objects.map((o) => o.address);
    expect(addresses).not.toContain('tenant/typo-corp');
    expect(addresses).not.toContain('tenant/dup-keys');
    expect(addresses).not.toContain('reseller/west');
    expect(addresses.filter((a) => a === 'tenant/twin')).toHaveLength(1);
  });

  it('--format json prints the diagnostics for editors and CI annotations', async () => {
    const { output } = await runValidate([broken], { format: 'json', cwd: root, env: {} });
    const parsed = JSON.parse(output) as {
      ok: boolean;
      diagnostics: { file: string; line: number; column: number; code: string; severity: string }[];
    };
    expect(parsed.ok).toBe(false);
    expect(parsed.diagnostics.find((d) => d.code === 'SB_UNKNOWN_FIELD')).toMatchObject({
      file: `${broken}/types.yaml`,
      line: 8,
      column: 3,
      severity: 'error',
    });
  });
});

describe('bad input never throws', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sb-manifest-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a 50 MB file (size cap) without reading it', async () => {
    const big = path.join(dir, 'big.yaml');
    await writeFile(big, 'apiVersion: switchboard/v1\n');
    await truncate(big, 50 * 1024 * 1024);
    const { diagnostics } = await loadManifests([big], { cwd: dir, env: {} });
    expect(diagnostics).toEqual([
      {
        severity: 'error',
        code: 'SB_TOO_LARGE',
        message: 'file is 50.0 MB, above the 16.0 MB limit',
        source: { file: 'big.yaml', line: 1, column: 1 },
      },
    ]);
  });

  it('reports an unreadable path and a folder with no manifests', async () => {
    const { diagnostics, ok } = await loadManifests(['does-not-exist.yaml', 'test/fixtures/manifests/no-manifests'], {
      cwd: root,
      env: {},
    });
    expect(ok).toBe(false);
    expect(
      diagnostics.map((d) => `${d.source?.file}:${d.source?.line}:${d.source?.column} ${d.code} ${d.message}`),
    ).toEqual([
      'does-not-exist.yaml:1:1 SB_READ cannot read: no such file or directory',
      'test/fixtures/manifests/no-manifests:1:1 SB_NO_MANIFESTS no *.yaml or *.yml manifest in this folder',
    ]);
  });

  it('reports a manifest that is only comments as empty', async () => {
    const file = path.join(dir, 'comments.yaml');
    await writeFile(file, '# nothing here yet\n---\n');
    const { diagnostics } = await loadManifests([file], { cwd: dir, env: {} });
    expect(diagnostics.map((d) => d.code)).toEqual(['SB_EMPTY']);
  });

  it('reports text that is not UTF-8 as binary', async () => {
    const file = path.join(dir, 'latin1.yaml');
    await writeFile(file, Buffer.from([0x6b, 0x69, 0x6e, 0x64, 0x3a, 0x20, 0xe9, 0xe9, 0x0a]));
    const { diagnostics } = await loadManifests([file], { cwd: dir, env: {} });
    expect(diagnostics.map((d) => d.code)).toEqual(['SB_BINARY']);
  });

  it('caps alias expansion the way the yaml package does (more than 100 aliases)', async () => {
    const file = path.join(dir, 'many-aliases.yaml');
    const refs = Array.from({ length: 101 }, () => '*a').join(', ');
    await writeFile(
      file,
      `apiVersion: switchboard/v1\nkind: Group\nmetadata: { name: g }\nspec:\n  branding: { font: { allowed: &a [x] } }\n  x: [${refs}]\n`,
    );
    const { diagnostics } = await loadManifests([file], { cwd: dir, env: {} });
    expect(diagnostics.map((d) => d.code)).toEqual(['SB_YAML_ALIAS']);
    expect(diagnostics[0]?.source?.line).toBe(6);
  });
});
