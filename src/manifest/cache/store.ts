/**
 * The manifest cache on disk (`<state-dir>/cache/manifests/`): one entry per manifest file
 * content, named by the SHA-256 of that content, holding what the load built from it
 * (entry.ts). A file that a pull request, a restored CI cache or a crash could have written:
 * an entry is used only when its seal holds for this switchboard version and this content,
 * and anything else about it (missing, torn, edited, another version, another key) makes
 * the file load afresh and its entry be written again. Nothing here ever fails a load.
 *
 * The seal is an HMAC-SHA-256 under the cache's key (key.ts): an entry then proves that a
 * switchboard holding the key wrote it for this content. Without a key there is no cache.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { VERSION } from '../../core/package.js';
import { keyFromEnv, userKey, type CacheKey } from './key.js';

/**
 * The first line of every entry; the number changes with the entry's layout or what an entry
 * may stand for. 3: no entry for a file with a finding outside its documents (an entry of 2
 * may hold the valid documents of such a file alone: none is put back).
 */
export const ENTRY_MAGIC = 'switchboard-manifest-cache 3';
/** Entries nobody used for this long are removed when a load writes new ones. */
const UNUSED_FOR_MS = 30 * 24 * 3600 * 1000;
/**
 * The largest entry of a manifest file of `textBytes` bytes, header included: an entry is
 * JSON of what the file's YAML says, a few times its length at most (escapes: `\x01` is 4
 * characters in YAML and 6 in JSON) unless YAML aliases repeat parts of it. A larger entry
 * is neither written (that file is loaded afresh each time) nor read, so a planted one costs
 * no more to refuse than the file it claims to stand for.
 */
export function maxEntryBytes(textBytes: number): number {
  return 8 * textBytes + 4096;
}
/** A used entry's time is brought up to date when it is older than this (pruning looks at it), not at every hit. */
const TOUCH_AFTER_MS = 24 * 3600 * 1000;

/** What an entry's second line says about it. */
interface EntryHeader {
  switchboard: string;
  source: string;
  seal: string;
  /** The body's length in bytes. */
  bytes: number;
}

/** How an entry was found: what a test (and `--log-level debug`) can tell apart. */
export type EntryStatus = 'hit' | 'missing' | 'refused';

/** `sha256:` of a manifest file's text: the name of its entry. */
export function contentDigest(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

export class CacheStore {
  /** Entries read or written by this run: never removed as unused. */
  private readonly used = new Set<string>();
  private wrote = false;
  /** The key, once known; undefined: no cache (every entry missing, none written). */
  private readonly key: Promise<CacheKey | undefined>;

  /** Throws SB_CACHE_KEY for an unusable `SWITCHBOARD_CACHE_KEY` (key.ts). */
  constructor(
    /** `<state-dir>/cache`. */
    readonly dir: string,
    private readonly version: string = VERSION,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    const fromEnv = keyFromEnv(env);
    this.key = fromEnv ? Promise.resolve(fromEnv) : userKey(env);
  }

  private get entries(): string {
    return path.join(this.dir, 'manifests');
  }

  private fileOf(source: string): string {
    return path.join(this.entries, `${source.replace(/^sha256:/, '')}.entry`);
  }

  /**
   * The body of the entry of `source` (a content digest), when its seal holds for it;
   * `keyed`: the seal is an HMAC (it proves who wrote the entry), not a plain digest.
   */
  async read(source: string, textBytes: number): Promise<{ status: EntryStatus; body?: string; reason?: string }> {
    const key = await this.key;
    if (!key) return { status: 'missing' };
    const file = this.fileOf(source);
    let bytes: Buffer;
    let info: Stats;
    try {
      // Not through a symbolic link: an entry is a file this cache wrote, in its own folder.
      info = await lstat(file);
      if (!info.isFile()) return { status: 'refused', reason: 'not a regular file' };
      if (info.size > maxEntryBytes(textBytes)) return { status: 'refused', reason: 'larger than its file allows' };
      bytes = await readFile(file);
    } catch {
      return { status: 'missing' };
    }
    const checked = this.check(bytes, source, key);
    if (typeof checked === 'string') return { status: 'refused', reason: checked };
    this.used.add(file);
    // A used entry is kept: its time says when it was last useful (to the day: a touch per hit is a system call per file).
    if (Date.now() - info.mtimeMs > TOUCH_AFTER_MS) {
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined);
    }
    return { status: 'hit', body: checked.body };
  }

  /** The body of an entry, or why it is refused. */
  private check(bytes: Buffer, source: string, key: CacheKey): { body: string } | string {
    const first = bytes.indexOf(10);
    const second = first < 0 ? -1 : bytes.indexOf(10, first + 1);
    if (second < 0 || bytes.toString('utf8', 0, first) !== ENTRY_MAGIC) return 'not a manifest cache entry';
    let header: EntryHeader;
    try {
      header = JSON.parse(bytes.toString('utf8', first + 1, second)) as EntryHeader;
    } catch {
      return 'unreadable header';
    }
    if (header === null || typeof header !== 'object') return 'unreadable header';
    if (header.switchboard !== this.version) return `written by switchboard ${String(header.switchboard)}`;
    if (header.source !== source) return 'made from other content';
    const body = bytes.subarray(second + 1);
    if (header.bytes !== body.length) return 'truncated or extended';
    if (typeof header.seal !== 'string' || !this.sealHolds(header.seal, source, body, key))
      return 'its seal does not hold';
    return { body: body.toString('utf8') };
  }

  /** Writes the entry of `source` whole (a temporary file renamed over it), or not at all (false). */
  async write(source: string, body: string, textBytes: number): Promise<boolean> {
    const key = await this.key;
    if (!key) return false;
    const file = this.fileOf(source);
    const data = Buffer.from(body, 'utf8');
    try {
      const header: EntryHeader = {
        switchboard: this.version,
        source,
        seal: this.seal(source, data, key),
        bytes: data.length,
      };
      const text = Buffer.concat([Buffer.from(`${ENTRY_MAGIC}\n${JSON.stringify(header)}\n`, 'utf8'), data]);
      if (text.length > maxEntryBytes(textBytes)) return false;
      await this.prepare();
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, text, { flag: 'wx', mode: 0o600 });
      await rename(temporary, file).catch(async (error: unknown) => {
        await unlink(temporary).catch(() => undefined);
        throw error;
      });
      this.used.add(file);
      this.wrote = true;
      return true;
    } catch {
      // A cache that cannot be written is a slower next run, never a failed one.
      return false;
    }
  }

  /** Removes the entries no run used for a month (when this one wrote some: the folder changed anyway). */
  async prune(now = Date.now()): Promise<void> {
    if (!this.wrote) return;
    const names = await readdir(this.entries).catch(() => [] as string[]);
    for (const name of names) {
      const file = path.join(this.entries, name);
      if (this.used.has(file)) continue;
      const info = await stat(file).catch(() => undefined);
      if (info && now - info.mtimeMs > UNUSED_FOR_MS) await unlink(file).catch(() => undefined);
    }
  }

  /**
   * The folder, with a .gitignore that keeps the whole cache out of git (`git add .switchboard`
   * included). Rejects when the folder or its `manifests` is not a real folder: a symbolic
   * link (committed, say) would have entries written wherever it points.
   */
  private prepared: Promise<void> | undefined;
  private prepare(): Promise<void> {
    this.prepared ??= (async () => {
      await mkdir(this.entries, { recursive: true });
      for (const folder of [this.dir, this.entries]) {
        if (!(await lstat(folder)).isDirectory()) throw new Error(`${folder} is not a folder`);
      }
      const ignore = '# switchboard: the manifest cache, rebuilt when missing\n*\n';
      await writeFile(path.join(this.dir, '.gitignore'), ignore, { flag: 'wx' }).catch(() => undefined);
    })();
    return this.prepared;
  }

  private seal(source: string, body: Buffer, key: CacheKey): string {
    const mac = createHmac('sha256', key.secret).update(this.sealed(source)).update(body).digest('hex');
    return `hmac-sha256:${key.id}:${mac}`;
  }

  /** A seal holds when this process, with its key, would have written it. */
  private sealHolds(seal: string, source: string, body: Buffer, key: CacheKey): boolean {
    const a = Buffer.from(seal, 'utf8');
    const b = Buffer.from(this.seal(source, body, key), 'utf8');
    return a.length === b.length && timingSafeEqual(a, b);
  }

  private sealed(source: string): string {
    return `${ENTRY_MAGIC}\u0000${this.version}\u0000${source}\u0000`;
  }
}
