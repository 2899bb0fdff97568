/**
 * V8's code cache of the precompiled validators (schemas.ts `PRECOMPILED_VALIDATORS`):
 * `npm run build` writes it beside their module after running every validator over example
 * documents, so that a start deserialises their compiled code instead of compiling the
 * 620 kB module and then each validator's functions at first use (about 30 → 13 ms here).
 *
 * Like the module, it is a build product of the package, trusted as its code is. V8 checks a
 * cache against its text's length only, so the cache's first line names the SHA-256 of the
 * module text it was made from, and it is used for that text alone; V8 refuses it for
 * another V8 version or other flags, and the module then compiles as it would without it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import * as path from 'node:path';
import { Script } from 'node:vm';

const CODE_CACHE_MAGIC = 'switchboard-validators-code 1';

/** The code cache's file: beside the module, `.v8cache` for `.cjs`. */
export function codeCacheFile(moduleFile: string): string {
  return moduleFile.replace(/\.cjs$/, '') + '.v8cache';
}

/** The cache's first line for a module text (ASCII). */
function headerOf(text: string): string {
  return `${CODE_CACHE_MAGIC} sha256:${createHash('sha256').update(text).digest('hex')}\n`;
}

/** Runs a CommonJS module's text as `require` would, compiled with `cachedData` when given. */
function evaluate(
  file: string,
  text: string,
  cachedData?: Buffer,
): { exports: Record<string, unknown>; script: Script } {
  const script = new Script(Module.wrap(text), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, script };
}

/**
 * The exports of the module at `file` through its code cache, and whether V8 took the cache;
 * undefined when there is no cache made from this module's text (the caller requires the
 * module then).
 */
export function requireWithCodeCache(
  file: string,
): { exports: Record<string, unknown>; accepted: boolean } | undefined {
  let cache: Buffer;
  let text: string;
  try {
    cache = readFileSync(codeCacheFile(file));
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const header = headerOf(text);
  if (cache.length <= header.length || cache.toString('latin1', 0, header.length) !== header) return undefined;
  const { exports, script } = evaluate(file, text, cache.subarray(header.length));
  return { exports, accepted: script.cachedDataRejected !== true };
}

/** Writes the code cache of the module at `file` once `exercise` has run its exports (build time). */
export function writeCodeCache(file: string, exercise: (exports: Record<string, unknown>) => void): void {
  const text = readFileSync(file, 'utf8');
  const { exports, script } = evaluate(file, text);
  exercise(exports);
  writeFileSync(codeCacheFile(file), Buffer.concat([Buffer.from(headerOf(text), 'latin1'), script.createCachedData()]));
}
