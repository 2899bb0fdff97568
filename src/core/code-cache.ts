/**
 * V8's code cache of a CommonJS module of the package: the precompiled validators
 * (schemas.ts `PRECOMPILED_VALIDATORS`) and the CLI's own bundle (cli/main.ts). `npm run build`
 * writes each beside its module after exercising it (the validators over example documents,
 * the CLI through its commands), so that a start deserialises the compiled code instead of
 * compiling the module and then each function at its first call.
 *
 * Like the module, it is a build product of the package, trusted as its code is; nothing a
 * run writes is ever read back as code. V8 checks a cache against its text's length only, so
 * the cache's first line names the SHA-256 of the module text it was made from, and the
 * Node.js version and architecture it was made by: it is used for that text on that runtime
 * alone (another Node.js would refuse it after the compile it was meant to save), and not
 * when it was made with other V8 flags ({@link madeWithTheseFlags}). A cache V8 refuses all
 * the same leaves the module compiled as it would be without one.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import * as path from 'node:path';
import { Script } from 'node:vm';

const CODE_CACHE_MAGIC = 'switchboard-code-cache 2';

/** The code cache's file: beside the module, `.v8cache` for `.cjs`. */
export function codeCacheFile(moduleFile: string): string {
  return moduleFile.replace(/\.cjs$/, '') + '.v8cache';
}

/** The cache's first line for a module text on this runtime (ASCII). */
function headerOf(text: string): string {
  const digest = createHash('sha256').update(text).digest('hex');
  return `${CODE_CACHE_MAGIC} node:${process.version} ${process.arch} sha256:${digest}\n`;
}

/** Runs a CommonJS module's text as `require` would, compiled with `cachedData` when given. */
function evaluate(
  file: string,
  text: string,
  cachedData?: Buffer,
): { exports: Record<string, unknown>; script: Script } {
  // No `import()` in it: Node.js 20 loses a script's dynamic-import callback with its code cache.
  const script = new Script(Module.wrap(text), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, script };
}

/**
 * The exports of the module at `file` through its code cache, and whether V8 took the cache;
 * undefined when there is no cache made from this module's text on this runtime (the caller
 * loads the module its own way then).
 */
export function requireWithCodeCache(
  file: string,
): { exports: Record<string, unknown>; accepted: boolean } | undefined {
  let cache: Buffer;
  let text: string;
  try {
    cache = readFileSync(codeCacheFile(file));
    // Before the module's text is read and hashed: a cache of other flags is of no use either way.
    if (!madeWithTheseFlags(cache.subarray(cache.indexOf(0x0a) + 1))) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const header = headerOf(text);
  if (cache.length <= header.length || cache.toString('latin1', 0, header.length) !== header) return undefined;
  const { exports, script } = evaluate(file, text, cache.subarray(header.length));
  return { exports, accepted: script.cachedDataRejected !== true };
}

/**
 * Whether V8 made `cachedData` with the flags of this process. V8 refuses a cache made with
 * other flags (`--max-old-space-size`, often in a CI job's NODE_OPTIONS, is one) only after
 * compiling the whole module without it, slower than what the caller would load instead.
 * V8's code cache begins with 32-bit words (V8's code-serializer.h, `SerializedCodeData`):
 * a magic number, the V8 version's hash, the source's hash, then the flags' hash. The header
 * above already ties the cache to this Node.js, hence to that layout; a cache of a tiny script
 * made here now carries this process's words to compare. A wrong guess about the layout costs
 * only the speed the cache was for.
 */
function madeWithTheseFlags(cachedData: Buffer): boolean {
  // Made once per process: a start checks two caches (the CLI's bundle, the validators).
  ownWords ??= v8Words(new Script('0', { filename: 'switchboard-code-cache-probe' }).createCachedData());
  return ownWords !== undefined && ownWords === v8Words(cachedData);
}

let ownWords: string | undefined;

/** The magic, V8 version and flags words of a cache; undefined when it is too short to hold them. */
function v8Words(data: Buffer): string | undefined {
  return data.length >= 16 ? `${data.toString('hex', 0, 8)}:${data.toString('hex', 12, 16)}` : undefined;
}

/**
 * Writes the code cache of the module at `file` once `exercise` has run its exports (build
 * time): the functions it called are in the cache, compiled; the others compile at first use.
 */
export async function writeCodeCache(
  file: string,
  exercise: (exports: Record<string, unknown>) => void | Promise<void>,
): Promise<void> {
  const text = readFileSync(file, 'utf8');
  const { exports, script } = evaluate(file, text);
  await exercise(exports);
  writeFileSync(codeCacheFile(file), Buffer.concat([Buffer.from(headerOf(text), 'latin1'), script.createCachedData()]));
}
