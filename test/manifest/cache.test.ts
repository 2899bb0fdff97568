/**
 * The manifest cache (src/manifest/cache/): a load through it gives what a load without it
 * gives, whatever the cache folder holds: entries of other content (a file edited, with or
 * without a commit), of another version, another key, or corrupted in any part, are refused
 * and written again; a file moved or renamed with the same content is put back under its
 * new name; files that depend on the environment or have findings are never kept.
 */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import {
  chmod,
  cp,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  truncate,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/core/package.js';
import { loadManifests, ManifestCache, type LoadResult } from '../../src/manifest/index.js';
import { CACHE_KEY_ENV, keyFromEnv } from '../../src/manifest/cache/key.js';
import { CacheStore, contentDigest, ENTRY_MAGIC, maxEntryBytes } from '../../src/manifest/cache/store.js';
import { generateEstate } from './generate.mjs';

const root = path.resolve(import.meta.dirname, '../..');
let work: string;

/** The user's key lives in $XDG_CACHE_HOME: a temporary one, never the real home's. */
let xdgBefore: string | undefined;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'sb-cache-'));
  xdgBefore = process.env['XDG_CACHE_HOME'];
  process.env['XDG_CACHE_HOME'] = path.join(work, 'xdg');
});
afterAll(async () => {
  if (xdgBefore === undefined) delete process.env['XDG_CACHE_HOME'];
  else process.env['XDG_CACHE_HOME'] = xdgBefore;
  await rm(work, { recursive: true, force: true });
});
afterEach(() => {
  delete process.env[CACHE_KEY_ENV];
});

/** A fresh folder holding a copy of examples/ and a small generated estate (40 tenants in 4 files). */
async function estate(): Promise<{ dir: string; cacheDir: string }> {
  const dir = await mkdtemp(path.join(work, 'estate-'));
  await cp(path.join(root, 'examples'), path.join(dir, 'examples'), {
    recursive: true,
    filter: (source) => !source.includes('.github'),
  });
  await generateEstate(path.join(dir, 'generated'), 40, 10);
  return { dir, cacheDir: path.join(dir, '.switchboard', 'cache') };
}

async function load(dir: string, cacheDir?: string, version?: string, documents = true): Promise<LoadResult> {
  const cache = cacheDir === undefined ? {} : { cache: new ManifestCache(cacheDir, version) };
  return loadManifests(['.'], { cwd: dir, env: {}, documents, ...cache });
}

/** Everything a load gives, as plain data: the objects (with their origin and position), rows, rules, digests, records. */
function snapshot(result: LoadResult): unknown {
  const { set } = result;
  return {
    objects: set.objects.map((o) => ({ ...o, position: set.sourceOf(o) })),
    tables: set.routingTables.map((t) => ({ ...t, table: t.table.address, index: [...t.index] })),
    externalParents: set.externalParents,
    // As JSON: a rule's compiled patterns are functions, a new one per load; their sources stay.
    policies: JSON.parse(JSON.stringify(result.policies)) as unknown,
    diagnostics: result.diagnostics,
    files: result.files,
    digest: result.digest,
    documents: result.documents,
    ok: result.ok,
  };
}

async function entries(cacheDir: string): Promise<string[]> {
  return (await readdir(path.join(cacheDir, 'manifests'))).filter((f) => f.endsWith('.entry')).sort();
}

const entryOf = (cacheDir: string, text: string): string =>
  path.join(cacheDir, 'manifests', `${contentDigest(text).slice('sha256:'.length)}.entry`);

describe('the manifest cache', () => {
  it('gives what a load without it gives: empty, then full', async () => {
    const { dir, cacheDir } = await estate();
    const fresh = snapshot(await load(dir));
    const cold = await load(dir, cacheDir);
    expect(snapshot(cold)).toEqual(fresh);
    // examples/ holds ${VAR}-free files only; every file is kept (CSV files are data, not manifests).
    expect(cold.cache).toMatchObject({ hits: 0, refused: 0, uncacheable: 0 });
    expect(cold.cache?.written).toBe(cold.cache?.missing);
    const warm = await load(dir, cacheDir);
    expect(warm.cache).toMatchObject({ hits: cold.cache?.written, missing: 0, refused: 0, written: 0 });
    expect(snapshot(warm)).toEqual(fresh);
    // Without document records too (validate, a full plan).
    expect(snapshot(await load(dir, cacheDir, undefined, false))).toEqual(
      snapshot(await load(dir, undefined, undefined, false)),
    );
    expect(await readFile(path.join(cacheDir, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
  });

  it('in the background, gives the same load and has every entry on disk once written() settles', async () => {
    const { dir, cacheDir } = await estate();
    const fresh = snapshot(await load(dir));
    const cache = new ManifestCache(cacheDir);
    const cold = await loadManifests(['.'], { cwd: dir, env: {}, documents: true, cache, cacheInBackground: true });
    expect(snapshot(cold)).toEqual(fresh);
    await cache.written();
    expect(cold.cache?.written).toBe(cold.cache?.missing);
    expect((await entries(cacheDir)).length).toBe(cold.cache?.written);
    expect((await load(dir, cacheDir)).cache).toMatchObject({ hits: cold.cache?.written, missing: 0 });
    // A load that kept nothing has nothing to wait for.
    await expect(new ManifestCache(cacheDir).written()).resolves.toBeUndefined();
  });

  it("looks a file's entry up ahead of its turn, with the file's read, and puts the files back in order", async () => {
    const { dir, cacheDir } = await estate();
    await load(dir, cacheDir);
    const events: string[] = [];
    const cache = new ManifestCache(cacheDir);
    const lookup = cache.lookup.bind(cache);
    const replay = cache.replay.bind(cache);
    let looked = 0;
    let replayed = 0;
    cache.lookup = (text) => {
      events.push(`lookup ${looked++}`);
      return lookup(text);
    };
    cache.replay = (found, out, where) => {
      events.push(`replay ${replayed++}`);
      return replay(found, out, where);
    };
    const warm = await loadManifests(['.'], { cwd: dir, env: {}, documents: true, cache });
    expect(snapshot(warm)).toEqual(snapshot(await load(dir)));
    expect(warm.cache).toMatchObject({ hits: replayed, missing: 0, refused: 0 });
    expect(replayed).toBeGreaterThan(5);
    // Before the first file is put back, the next ones' lookups are under way.
    expect(events.indexOf('lookup 1')).toBeLessThan(events.indexOf('replay 0'));
  });

  it('loads a file edited since its entry was written afresh (stale), and keeps the others', async () => {
    const { dir, cacheDir } = await estate();
    await load(dir, cacheDir);
    const file = path.join(dir, 'generated', 'tenants-001.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('markup: 0', 'markup: 6'));
    const edited = await load(dir, cacheDir);
    expect(edited.cache).toMatchObject({ missing: 1, written: 1, refused: 0 });
    expect(snapshot(edited)).toEqual(snapshot(await load(dir)));
  });

  it('loads a file changed without a commit as it is on disk, not as git has it', async () => {
    const { dir, cacheDir } = await estate();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'estate');
    await load(dir, cacheDir);
    const file = path.join(dir, 'examples', 'tenants', 'globex.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/markup: \d+/, 'markup: 4'));
    expect(git('status', '--porcelain').toString()).toContain('globex.yaml');
    const changed = await load(dir, cacheDir);
    expect(changed.cache).toMatchObject({ missing: 1 });
    expect(changed.set.get('tenant/globex')?.fields['markup']).toBe(4);
    expect(snapshot(changed)).toEqual(snapshot(await load(dir)));
  });

  it('puts a moved or renamed file back under its new name, with its positions there', async () => {
    const { dir, cacheDir } = await estate();
    await load(dir, cacheDir);
    await mkdir(path.join(dir, 'elsewhere'));
    await rename(path.join(dir, 'generated', 'tenants-002.yaml'), path.join(dir, 'elsewhere', 'moved.yaml'));
    await rename(path.join(dir, 'generated', 'tenants-003.yaml'), path.join(dir, 'generated', 'renamed.yaml'));
    const after = await load(dir, cacheDir);
    expect(after.cache).toMatchObject({ missing: 0, refused: 0, written: 0 });
    expect(snapshot(after)).toEqual(snapshot(await load(dir)));
    const moved = after.set.objects.find((o) => o.origin.file === 'elsewhere/moved.yaml');
    expect(moved && after.set.sourceOf(moved)).toMatchObject({ file: 'elsewhere/moved.yaml', line: 1 });
    expect(after.documents?.records.some((r) => r.file === 'generated/renamed.yaml')).toBe(true);
  });

  it('refuses an entry written by another switchboard version, and writes it again', async () => {
    const { dir, cacheDir } = await estate();
    const older = await load(dir, cacheDir, '0.0.1-older');
    const now = await load(dir, cacheDir);
    expect(now.cache).toMatchObject({ hits: 0, refused: older.cache?.written, written: older.cache?.written });
    expect(snapshot(now)).toEqual(snapshot(await load(dir)));
    expect((await load(dir, cacheDir)).cache).toMatchObject({ hits: older.cache?.written, refused: 0 });
    const text = await readFile((await entries(cacheDir)).map((e) => path.join(cacheDir, 'manifests', e))[0]!, 'utf8');
    expect(text.split('\n')[1]).toContain(`"switchboard":"${VERSION}"`);
  });

  describe('refuses an entry corrupted in any part, loads the file afresh and writes it again', () => {
    const file = 'examples/tenants/globex.yaml';
    /** Each part of an entry and a way to break it. */
    const corruptions: Record<string, (entry: string) => string> = {
      'the first line': (e) => e.replace(ENTRY_MAGIC, 'switchboard-manifest-cache 9'),
      'the header, unreadable': (e) => e.replace('{"switchboard"', '{switchboard'),
      'the header, another version': (e) => e.replace(`"switchboard":"${VERSION}"`, '"switchboard":"9.9.9"'),
      'the header, another source': (e) => e.replace(/"source":"sha256:[0-9a-f]/, '"source":"sha256:x'),
      'the header, the seal': (e) =>
        e.replace(
          /("seal":"hmac-sha256:[0-9a-f]{8}:)([0-9a-f])/,
          (_m, p: string, c: string) => `${p}${c === '0' ? '1' : '0'}`,
        ),
      'the header, the length': (e) => e.replace(/"bytes":(\d+)/, (_m, n: string) => `"bytes":${Number(n) - 1}`),
      'the body, one character': (e) => e.replace('globex', 'globez'),
      'the body, cut short': (e) => e.slice(0, -20),
      'the body, extended': (e) => `${e}{"kind":"Tenant"}\n`,
      'nothing but the first line': () => `${ENTRY_MAGIC}\n`,
      empty: () => '',
    };
    for (const [part, corrupt] of Object.entries(corruptions)) {
      it(part, async () => {
        const { dir, cacheDir } = await estate();
        await load(dir, cacheDir);
        const entry = entryOf(cacheDir, await readFile(path.join(dir, file), 'utf8'));
        const good = await readFile(entry, 'utf8');
        await writeFile(entry, corrupt(good));
        const after = await load(dir, cacheDir);
        expect(after.cache).toMatchObject({ refused: 1, written: 1 });
        expect(snapshot(after)).toEqual(snapshot(await load(dir)));
        expect(await readFile(entry, 'utf8')).toBe(good);
      });
    }

    it('an entry that is a folder is refused', async () => {
      const { dir, cacheDir } = await estate();
      await load(dir, cacheDir);
      const entry = entryOf(cacheDir, await readFile(path.join(dir, file), 'utf8'));
      await rm(entry);
      await mkdir(entry);
      const after = await load(dir, cacheDir);
      expect(after.cache).toMatchObject({ refused: 1 });
      expect(snapshot(after)).toEqual(snapshot(await load(dir)));
    });

    it('an entry that is a symbolic link is not followed, even to a good entry, and is written again as a file', async () => {
      const { dir, cacheDir } = await estate();
      await load(dir, cacheDir);
      const entry = entryOf(cacheDir, await readFile(path.join(dir, file), 'utf8'));
      const elsewhere = path.join(work, `linked-${path.basename(dir)}.entry`);
      await rename(entry, elsewhere);
      await symlink(elsewhere, entry);
      const after = await load(dir, cacheDir);
      expect(after.cache).toMatchObject({ refused: 1, written: 1 });
      expect(snapshot(after)).toEqual(snapshot(await load(dir)));
      expect((await lstat(entry)).isFile()).toBe(true);
    });

    it('an entry longer than its file could make is refused unread', async () => {
      const { dir, cacheDir } = await estate();
      await load(dir, cacheDir);
      const text = await readFile(path.join(dir, file), 'utf8');
      const entry = entryOf(cacheDir, text);
      const textBytes = Buffer.byteLength(text);
      const store = new CacheStore(cacheDir);
      expect(await store.read(contentDigest(text), textBytes)).toMatchObject({ status: 'hit' });
      // Sparse: as long as the bound allows plus one byte, then far beyond it.
      for (const size of [maxEntryBytes(textBytes) + 1, 3 * 1024 ** 3]) {
        await truncate(entry, size);
        expect(await store.read(contentDigest(text), textBytes)).toEqual({
          status: 'refused',
          reason: 'larger than its file allows',
        });
      }
      expect((await load(dir, cacheDir)).cache).toMatchObject({ refused: 1, written: 1 });
    });
  });

  describe('entries no load used for a month', () => {
    const DAY = 24 * 3600 * 1000;
    it('are removed when a load writes entries; a used entry says when it was last used, to the day', async () => {
      const { dir, cacheDir } = await estate();
      await load(dir, cacheDir);
      const all = (await entries(cacheDir)).map((e) => path.join(cacheDir, 'manifests', e));
      const [recent, old, ...rest] = all;
      const ago = (days: number) => new Date(Date.now() - days * DAY);
      // Used an hour ago: its time is left as it is (no system call per hit); used 40 days ago: renewed.
      const hourAgo = ago(1 / 24);
      await utimes(recent!, hourAgo, hourAgo);
      await utimes(old!, ago(40), ago(40));
      // An entry of content no file has any more, unused for 40 days, and one for 20 days.
      const stale = path.join(cacheDir, 'manifests', `${'a'.repeat(64)}.entry`);
      const younger = path.join(cacheDir, 'manifests', `${'b'.repeat(64)}.entry`);
      await writeFile(stale, 'x');
      await writeFile(younger, 'x');
      await utimes(stale, ago(40), ago(40));
      await utimes(younger, ago(20), ago(20));
      const hit = await load(dir, cacheDir);
      expect(hit.cache).toMatchObject({ hits: all.length, written: 0 });
      expect(Math.abs((await stat(recent!)).mtimeMs - hourAgo.getTime())).toBeLessThan(1000);
      expect(Date.now() - (await stat(old!)).mtimeMs).toBeLessThan(DAY);
      // Nothing written: nothing pruned.
      expect(await readFile(stale, 'utf8')).toBe('x');
      // A load that writes an entry prunes: the stale one goes, the younger and every used one stay.
      const edited = path.join(dir, 'examples/tenants/globex.yaml');
      await writeFile(edited, (await readFile(edited, 'utf8')).replace(/markup: \d+/, 'markup: 9'));
      expect((await load(dir, cacheDir)).cache).toMatchObject({ written: 1 });
      const left = await readdir(path.join(cacheDir, 'manifests'));
      expect(left).not.toContain(path.basename(stale));
      expect(left).toContain(path.basename(younger));
      for (const entry of [recent!, old!, ...rest]) expect(left).toContain(path.basename(entry));
    });
  });

  describe('a body sealed again by hand', () => {
    const KEY = 'k'.repeat(40);

    /** Replaces the body of the entry of `file` and seals it with `seal` (of the entry's sealed text). */
    async function forge(
      dir: string,
      cacheDir: string,
      file: string,
      body: (lines: string[]) => string[],
      seal: (sealed: string, data: Buffer) => string,
    ): Promise<void> {
      const text = await readFile(path.join(dir, file), 'utf8');
      const entry = entryOf(cacheDir, text);
      const [, header, ...rest] = (await readFile(entry, 'utf8')).split('\n');
      const lines = body(rest.slice(0, -1));
      const data = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
      const sealed = `${ENTRY_MAGIC}\u0000${VERSION}\u0000${contentDigest(text)}\u0000`;
      const parsed = JSON.parse(header ?? '{}') as Record<string, unknown>;
      const forged = { ...parsed, seal: seal(sealed, data), bytes: data.length };
      await writeFile(entry, Buffer.concat([Buffer.from(`${ENTRY_MAGIC}\n${JSON.stringify(forged)}\n`), data]));
    }
    const hmac = (secret: Buffer | string, sealed: string, data: Buffer) =>
      createHmac('sha256', secret).update(sealed).update(data).digest('hex');
    /** The seal switchboard writes under SWITCHBOARD_CACHE_KEY = KEY: what only a holder of the key can make. */
    const withKey = (sealed: string, data: Buffer) => {
      const key = keyFromEnv({ [CACHE_KEY_ENV]: KEY })!;
      return `hmac-sha256:${key.id}:${hmac(key.secret, sealed, data)}`;
    };
    const markup5 = (lines: string[]) => lines.map((l) => l.replace(/"markup":\d+/, '"markup":5'));

    it('is refused when sealed without the key: a plain digest, the key used raw, or another key', async () => {
      const { dir, cacheDir } = await estate();
      process.env[CACHE_KEY_ENV] = KEY;
      await load(dir, cacheDir);
      const id = keyFromEnv({ [CACHE_KEY_ENV]: KEY })!.id;
      const { createHash } = await import('node:crypto');
      const seals: ((sealed: string, data: Buffer) => string)[] = [
        (sealed, data) => `sha256:${createHash('sha256').update(sealed).update(data).digest('hex')}`,
        (sealed, data) => `hmac-sha256:${id}:${hmac(KEY, sealed, data)}`,
        (sealed, data) => `hmac-sha256:${id}:${hmac('x'.repeat(40), sealed, data)}`,
      ];
      for (const seal of seals) {
        await forge(dir, cacheDir, 'examples/tenants/globex.yaml', markup5, seal);
        const after = await load(dir, cacheDir);
        // A valid document that the file does not say: used, it would change the plan.
        expect(after.cache).toMatchObject({ refused: 1, written: 1 });
        expect(after.set.get('tenant/globex')?.fields['markup']).not.toBe(5);
        expect(snapshot(after)).toEqual(snapshot(await load(dir)));
      }
    });

    const cases: Record<string, (lines: string[]) => string[]> = {
      'a document that is not JSON': (lines) => lines.map((l) => l.slice(1)),
      'a document that is not a mapping': (lines) => lines.map(() => '[1,2]'),
      'a document of an unknown kind': (lines) => lines.map((l) => l.replace('"kind":"Tenant"', '"kind":"Tenantz"')),
      'no document': () => [],
    };
    for (const [what, edit] of Object.entries(cases)) {
      it(`is refused, even sealed with the key, when it holds ${what}`, async () => {
        const { dir, cacheDir } = await estate();
        process.env[CACHE_KEY_ENV] = KEY;
        await load(dir, cacheDir);
        await forge(dir, cacheDir, 'examples/tenants/globex.yaml', edit, withKey);
        const after = await load(dir, cacheDir);
        expect(after.cache).toMatchObject({ refused: 1, written: 1 });
        expect(snapshot(after)).toEqual(snapshot(await load(dir)));
      });
    }
  });

  describe('the key', () => {
    const KEY_A = 'a'.repeat(40);
    const KEY_B = 'b'.repeat(40);

    it('SWITCHBOARD_CACHE_KEY seals the entries: another key, or the user key, refuses them', async () => {
      const { dir, cacheDir } = await estate();
      process.env[CACHE_KEY_ENV] = KEY_A;
      const written = (await load(dir, cacheDir)).cache?.written ?? 0;
      expect(written).toBeGreaterThan(0);
      const header = (await readFile(path.join(cacheDir, 'manifests', (await entries(cacheDir))[0]!), 'utf8')).split(
        '\n',
      )[1];
      expect(header).toMatch(/"seal":"hmac-sha256:[0-9a-f]{8}:[0-9a-f]{64}"/);
      expect(header).not.toContain(KEY_A);
      expect((await load(dir, cacheDir)).cache).toMatchObject({ hits: written, refused: 0 });
      process.env[CACHE_KEY_ENV] = KEY_B;
      const other = await load(dir, cacheDir);
      expect(other.cache).toMatchObject({ hits: 0, refused: written });
      expect(snapshot(other)).toEqual(snapshot(await load(dir)));
      delete process.env[CACHE_KEY_ENV];
      expect((await load(dir, cacheDir)).cache).toMatchObject({ hits: 0, refused: written });
      process.env[CACHE_KEY_ENV] = KEY_B;
      expect((await load(dir, cacheDir)).cache).toMatchObject({ hits: 0, refused: written });
    });

    it('SWITCHBOARD_CACHE_KEY too short is an error naming the variable, not a silent cache', async () => {
      process.env[CACHE_KEY_ENV] = 'short';
      expect(() => new ManifestCache(path.join(work, 'unused'))).toThrow(
        expect.objectContaining({ code: 'SB_CACHE_KEY', message: expect.stringContaining(CACHE_KEY_ENV) }),
      );
    });

    it("the user's key is made once, readable by this user alone; one others could read or replace turns the cache off", async () => {
      const { dir, cacheDir } = await estate();
      const xdg = path.join(work, 'xdg-own');
      process.env['XDG_CACHE_HOME'] = xdg;
      try {
        const keyFile = path.join(xdg, 'switchboard', 'manifest-cache.key');
        const written = (await load(dir, cacheDir)).cache?.written ?? 0;
        expect(written).toBeGreaterThan(0);
        expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
        expect((await load(dir, cacheDir)).cache).toMatchObject({ hits: written });
        await chmod(keyFile, 0o644);
        const readable = await load(dir, cacheDir);
        expect(readable.cache).toMatchObject({ hits: 0, written: 0 });
        expect(snapshot(readable)).toEqual(snapshot(await load(dir)));
        await rename(keyFile, `${keyFile}.real`);
        await chmod(`${keyFile}.real`, 0o600);
        await symlink(`${keyFile}.real`, keyFile);
        expect((await load(dir, cacheDir)).cache).toMatchObject({ hits: 0, written: 0 });
      } finally {
        process.env['XDG_CACHE_HOME'] = path.join(work, 'xdg');
      }
    });

    it('writes nothing through a cache folder that is a symbolic link', async () => {
      const { dir } = await estate();
      const elsewhere = path.join(work, 'elsewhere-' + path.basename(dir));
      await mkdir(elsewhere);
      await mkdir(path.join(dir, '.switchboard'));
      await symlink(elsewhere, path.join(dir, '.switchboard', 'cache'));
      const linked = await load(dir, path.join(dir, '.switchboard', 'cache'));
      expect(linked.cache).toMatchObject({ written: 0 });
      expect(await readdir(elsewhere)).toEqual(['manifests']);
      expect(await readdir(path.join(elsewhere, 'manifests'))).toEqual([]);
    });
  });

  it('resolves a tenant put back from the cache with the baselines of this load (one edited since is applied)', async () => {
    const { dir, cacheDir } = await estate();
    const cold = await load(dir, cacheDir);
    expect(cold.cache).toMatchObject({ refused: 0, uncacheable: 0 });
    const file = path.join(dir, 'examples', 'baselines', 'be-office.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('{ type: BE geo, entitlement: 10 }', '{ type: BE geo, entitlement: 12 }'));
    const warm = await load(dir, cacheDir);
    // The tenant files are put back; only the baseline is read afresh, and what it gives them is the new value.
    expect(warm.cache).toMatchObject({ missing: 1, written: 1, hits: (cold.cache?.written ?? 0) - 1 });
    expect(snapshot(warm)).toEqual(snapshot(await load(dir)));
    expect(snapshot(warm)).not.toEqual(snapshot(cold));
  });

  it('puts a file back under the checks of this load: a CSV it names outside this root is refused', async () => {
    const dir = await mkdtemp(path.join(work, 'root-'));
    await mkdir(path.join(dir, 'outer', 'in'), { recursive: true });
    await writeFile(
      path.join(dir, 'outer', 'addresses.csv'),
      'premises,city,country,isoCode,number,postalCode,state,street\n,Gent,Belgium,BE,1,9000,,Korenmarkt\n',
    );
    const text =
      'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: t, reseller: r }\n' +
      'spec:\n  billingId: T-1\n  subscriptions:\n    - { name: main, billingId: S-1, uc: uc_alpha, addressesFrom: ../addresses.csv }\n';
    await writeFile(path.join(dir, 'outer', 'in', 'm.yaml'), text);
    const cacheDir = path.join(dir, 'cache');
    const at = (given: string, cached: boolean) =>
      loadManifests([given], { cwd: dir, env: {}, ...(cached ? { cache: new ManifestCache(cacheDir) } : {}) });
    // From outer/, the CSV is inside the root: the file loads cleanly and is kept.
    const inside = await at('outer', true);
    expect(inside.ok).toBe(true);
    expect(inside.cache?.written).toBe(1);
    // From outer/in/, the same content is put back, and the CSV is outside this load's root.
    const outside = await at('outer/in', true);
    expect(outside.cache?.hits).toBe(1);
    expect(outside.ok).toBe(false);
    expect(outside.diagnostics.map((d) => d.message).join('\n')).toContain("outside the manifests' root");
    expect(snapshot(outside)).toEqual(snapshot(await at('outer/in', false)));
  });

  describe('never keeps a file that does not decide alone what it says', () => {
    const cases: Record<string, { text: string; env?: Record<string, string> }> = {
      'one that reads the environment (${VAR})': {
        text: 'apiVersion: switchboard/v1\nkind: Group\nmetadata: { name: g }\nspec: { draasDomain: "${DOMAIN}" }\n',
        env: { DOMAIN: 'g.example.net' },
      },
      'one that reads the environment through a YAML escape ("\\x24{VAR}")': {
        text: 'apiVersion: switchboard/v1\nkind: Group\nmetadata: { name: g }\nspec: { draasDomain: "\\x24{DOMAIN}" }\n',
        env: { DOMAIN: 'g.example.net' },
      },
      'a tenant that reads an unset variable through a YAML escape': {
        text: 'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: t, reseller: r }\nspec: { billingId: "$\\x7bBILL}" }\n',
      },
      'one with a finding': {
        text: 'apiVersion: switchboard/v1\nkind: Group\nmetadata: { name: g }\nspec: { draasDomain: 7, extra: 1 }\n',
      },
      'one whose values JSON would change (.nan)': {
        text: 'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: t, reseller: r }\nspec: { billingId: T-1, markup: .nan }\n',
      },
      'one with no document': { text: '# nothing\n' },
      // Its valid document alone put back, the next load would drop the broken one unsaid.
      'one with a valid document and one YAML cannot read': {
        text:
          'apiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: north, group: g }\nspec: {}\n---\n' +
          'apiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: south, group: g\nspec: {}\n',
      },
      'one with a valid document and one that is not a mapping': {
        text: 'apiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: north, group: g }\nspec: {}\n---\n- a list\n',
      },
    };
    for (const [what, { text, env = {} }] of Object.entries(cases)) {
      it(what, async () => {
        const dir = await mkdtemp(path.join(work, 'uncacheable-'));
        await writeFile(path.join(dir, 'm.yaml'), text);
        const cacheDir = path.join(dir, '.switchboard', 'cache');
        const first = await loadManifests(['m.yaml'], { cwd: dir, env, cache: new ManifestCache(cacheDir) });
        const again = await loadManifests(['m.yaml'], { cwd: dir, env, cache: new ManifestCache(cacheDir) });
        expect(first.cache?.written ?? 0).toBe(0);
        expect(again.cache?.hits ?? 0).toBe(0);
        expect(snapshot(again)).toEqual(snapshot(await loadManifests(['m.yaml'], { cwd: dir, env })));
        expect(again.diagnostics).toEqual(first.diagnostics);
        await expect(stat(path.join(cacheDir, 'manifests', `${contentDigest(text).slice(7)}.entry`))).rejects.toThrow();
      });
    }
  });
});
