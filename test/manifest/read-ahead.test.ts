/**
 * The loader reads files a few ahead of the one it parses (src/manifest/load.ts `readAhead`):
 * their file-system waits overlap the work on the files before them. What it reports stays in
 * the files' order, each file read once.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import type { FileSource } from '../../src/manifest/index.js';

const tenant = (n: number) =>
  `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: t${n}, reseller: north }\nspec: { billingId: B-${n} }\n`;

async function folderOf(count: number): Promise<{ dir: string; files: string[] }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'switchboard-read-ahead-'));
  await mkdir(path.join(dir, 'm'));
  const files: string[] = [];
  for (let n = 0; n < count; n++) {
    const file = path.join(dir, 'm', `t${String(n).padStart(2, '0')}.yaml`);
    await writeFile(file, tenant(n));
    files.push(file);
  }
  return { dir, files };
}

describe('reading ahead', () => {
  it("a file's read is under way before the file before it is answered", async () => {
    const { dir, files } = await folderOf(6);
    const called: string[] = [];
    const waiters = new Map<string, () => void>();
    // Each file is answered only once the next one's read has started: read one at a time, the load never ends.
    const source: FileSource = {
      has: (absolute) => files.includes(absolute),
      read: async (absolute) => {
        called.push(absolute);
        waiters.get(absolute)?.();
        const index = files.indexOf(absolute);
        const next = files[index + 1];
        if (next !== undefined && !called.includes(next)) await new Promise<void>((r) => waiters.set(next, r));
        return Buffer.from(tenant(index));
      },
    };
    const loaded = await loadManifests([path.join(dir, 'm')], { cwd: dir, env: {}, source });
    expect(loaded.ok).toBe(true);
    expect(called).toEqual(files);
    expect(loaded.set.objects.map((o) => o.address)).toEqual(files.map((_, n) => `tenant/t${n}`));
  });

  it("reports each file's problem in the files' order, among files read ahead", async () => {
    const { dir, files } = await folderOf(12);
    await writeFile(files[2]!, Buffer.from([0x61, 0, 0x62]));
    await writeFile(files[3]!, `${tenant(3)}---\n${'x: '.repeat(40)}\n`);
    await writeFile(files[7]!, Buffer.from([0xff, 0xfe, 0xfd]));
    const loaded = await loadManifests([path.join(dir, 'm')], { cwd: dir, env: {}, maxManifestBytes: 200 });
    const shown = loaded.diagnostics.map((d) => `${d.source?.file} ${d.code}`);
    expect(shown).toEqual(['m/t02.yaml SB_BINARY', 'm/t03.yaml SB_TOO_LARGE', 'm/t07.yaml SB_BINARY']);
    expect(loaded.files).toEqual(files.filter((_, n) => ![2, 3, 7].includes(n)).map((f) => path.relative(dir, f)));
  });

  it("takes a file's root from the source that names it (export's check: its folders' roots found once)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'switchboard-source-root-'));
    await mkdir(path.join(dir, 'outer'));
    await writeFile(
      path.join(dir, 'outer', 'addresses.csv'),
      'premises,city,country,isoCode,number,postalCode,state,street\n,Gent,Belgium,BE,1,9000,,Korenmarkt\n',
    );
    // Not on disk: its root cannot be found from it, only given.
    const file = path.join(dir, 'outer', 'in', 'm.yaml');
    const text =
      'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: t, reseller: r }\n' +
      'spec:\n  billingId: T-1\n  subscriptions:\n' +
      '    - { name: main, billingId: S-1, uc: uc_alpha, addressesFrom: ../addresses.csv }\n';
    const load = (root: string | undefined) =>
      loadManifests([file], {
        cwd: dir,
        env: {},
        source: { has: (f) => f === file, read: async () => Buffer.from(text), rootOf: () => root },
      });
    const rooted = await load(path.join(dir, 'outer'));
    expect(rooted.diagnostics).toEqual([]);
    expect(rooted.set.get('tenant/t/subscription/main')).toBeDefined();
    // Without it, the root is the file's own folder: the CSV beside it is outside.
    const unrooted = await load(undefined);
    expect(unrooted.diagnostics.map((d) => d.message).join('\n')).toContain("outside the manifests' root");
  });
});
