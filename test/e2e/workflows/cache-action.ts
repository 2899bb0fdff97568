/**
 * actions/cache as the templates use it: restore `path` from the entry saved under `key`,
 * else from the newest entry whose key starts with one of `restore-keys`; the post step
 * saves `path` under `key` when the job succeeded and the key was not an exact hit. Entries
 * live beside the run's artifacts, so the runs of one test share them like a repository's.
 */
import { cp, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ActionHandler } from './runner.js';

export const CACHE = 'actions/cache';

export const cacheAction: ActionHandler = async ({ with: inputs, cwd, run, post }) => {
  const key = inputs['key'] ?? '';
  const path = inputs['path'] ?? '';
  if (key === '' || path === '' || path.includes('\n')) throw new Error('actions/cache: one path and a key');
  const store = join(run.artifactsRoot, 'actions-cache');
  await mkdir(store, { recursive: true });
  const entries = await readdir(store);
  const prefixes = (inputs['restore-keys'] ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  let hit: string | undefined = entries.includes(encode(key)) ? key : undefined;
  let restored = hit;
  if (!restored) {
    const candidates = await Promise.all(
      entries
        .map(decode)
        .filter((k) => prefixes.some((p) => k.startsWith(p)))
        .map(async (k) => ({ k, at: (await stat(join(store, encode(k)))).mtimeMs })),
    );
    restored = candidates.sort((a, b) => b.at - a.at)[0]?.k;
  }
  const target = resolve(cwd, path);
  if (restored) {
    await rm(target, { recursive: true, force: true });
    await cp(join(store, encode(restored)), target, { recursive: true });
  }
  post(async (jobFailed) => {
    if (jobFailed || hit) return;
    const saved = await stat(target).catch(() => undefined);
    if (!saved?.isDirectory()) return; // nothing to save: GitHub warns and goes on
    await cp(target, join(store, encode(key)), { recursive: true });
    hit = key;
  });
  return { 'cache-hit': String(hit === key), 'cache-matched-key': restored ?? '' };
};

const encode = (key: string): string => encodeURIComponent(key);
const decode = (name: string): string => decodeURIComponent(name);
