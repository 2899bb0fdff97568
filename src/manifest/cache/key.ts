/**
 * The key that seals the manifest cache's entries (store.ts). An entry is put back only
 * when its HMAC holds under this key: a plain digest would prove an entry whole, not that
 * switchboard wrote it, and anyone who can write the cache folder (a pull request, a
 * restored CI cache) could then make a file say what it does not.
 *
 * - `SWITCHBOARD_CACHE_KEY` (at least 32 characters), for CI jobs that restore the cache
 *   between runs: a secret of its own, so the job that plans a pull request needs neither
 *   the digest key nor any credential to prove its cache.
 * - Otherwise this user's own key, made once: 32 random bytes in
 *   `$XDG_CACHE_HOME/switchboard/manifest-cache.key` (`~/.cache/…`), outside every
 *   checkout. A key file that is not a regular file of this user, readable by no one else,
 *   is not used: the cache is then off (every file is loaded afresh).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { checkedKeyText } from '../../core/value-digest.js';

export const CACHE_KEY_ENV = 'SWITCHBOARD_CACHE_KEY';
const KEY_FILE = path.join('switchboard', 'manifest-cache.key');
const KEY_BYTES = 32;

export interface CacheKey {
  /** Names the key in an entry's seal (8 hex), never reveals it. */
  id: string;
  secret: Buffer;
}

/**
 * The key from the environment, or undefined when it names none; a key too short is a
 * configuration error (`SB_CACHE_KEY`), not a cache that silently does nothing.
 */
export function keyFromEnv(env: NodeJS.ProcessEnv): CacheKey | undefined {
  const text = env[CACHE_KEY_ENV] || undefined;
  if (text === undefined) return undefined;
  const checked = checkedKeyText(text, CACHE_KEY_ENV, 'SB_CACHE_KEY', ', or unset it to use a key of this user');
  return keyOf(Buffer.from(checked, 'utf8'));
}

/** This user's key (made when there is none), or undefined when it cannot be had safely. */
export async function userKey(env: NodeJS.ProcessEnv): Promise<CacheKey | undefined> {
  const base = env['XDG_CACHE_HOME'] || path.join(homedir(), '.cache');
  const file = path.join(base, KEY_FILE);
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, randomBytes(KEY_BYTES).toString('hex'), { flag: 'wx', mode: 0o600 }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      },
    );
    const info = await lstat(file);
    const own = typeof process.getuid !== 'function' || info.uid === process.getuid();
    // Readable or writable by another user: someone else could read or have chosen it.
    if (!info.isFile() || !own || (info.mode & 0o077) !== 0) return undefined;
    const text = (await readFile(file, 'utf8')).trim();
    if (!/^[0-9a-f]{64}$/.test(text)) return undefined;
    return keyOf(Buffer.from(text, 'hex'));
  } catch {
    // No home, a read-only one: no cache, never a failed load.
    return undefined;
  }
}

function keyOf(material: Buffer): CacheKey {
  // Its own purpose: an entry's MAC can never stand for another switchboard digest.
  const secret = createHmac('sha256', material).update('switchboard manifest cache key').digest();
  return { id: createHmac('sha256', secret).update('id').digest('hex').slice(0, 8), secret };
}
