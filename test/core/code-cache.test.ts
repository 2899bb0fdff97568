/**
 * V8's code cache of a module of the package (src/core/code-cache.ts: the precompiled
 * validators, the CLI's bundle), on a module of its own: used only for the module text and the
 * runtime it was made from, whatever V8 would accept, and never in place of the module when
 * V8 refuses it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeCacheFile, requireWithCodeCache, writeCodeCache } from '../../src/core/code-cache.js';

const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let made = 0;
/** A module at a fresh path, its cache written after a call of each export. */
async function moduleWithCache(text: string): Promise<string> {
  const file = path.join(dir, `m${made++}.cjs`);
  writeFileSync(file, text);
  await writeCodeCache(file, (exports) => {
    for (const value of Object.values(exports)) if (typeof value === 'function') value(2, 3);
  });
  return file;
}

const ADD = "exports.combine = (a, b) => a + b;\nexports.sep = require('node:path').sep;\n";

describe('a code cache', () => {
  // Whether V8 takes a cache is seen in a process that never compiled the text (V8 keeps what
  // it compiled): test/e2e/validators-code.test.ts, test/e2e/cli-code-cache.test.ts.
  it('gives the module exports through its cache', async () => {
    const file = await moduleWithCache(ADD);
    const loaded = requireWithCodeCache(file);
    expect((loaded?.exports['combine'] as (a: number, b: number) => number)(2, 3)).toBe(5);
    expect(loaded?.exports['sep']).toBe(path.sep);
    expect(readFileSync(codeCacheFile(file), 'latin1').replace(/[0-9a-f]{64}\n[^]*$/, '')).toBe(
      `switchboard-code-cache 2 node:${process.version} ${process.arch} sha256:`,
    );
  });

  it('is not used for another module text, even of the same length (V8 checks only the length)', async () => {
    const file = await moduleWithCache(ADD);
    writeFileSync(file, ADD.replace('a + b', 'a - b'));
    expect(requireWithCodeCache(file)).toBeUndefined();
  });

  it('is not used when made by another Node.js or on another architecture', async () => {
    for (const [made, now] of [
      [`node:${process.version} `, 'node:v0.0.1 '],
      [` ${process.arch} `, ' other-arch '],
    ] as const) {
      const file = await moduleWithCache(ADD);
      const cache = readFileSync(codeCacheFile(file));
      const header = cache.toString('latin1', 0, cache.indexOf(10) + 1);
      expect(header).toContain(made);
      const other = Buffer.from(header.replace(made, now), 'latin1');
      writeFileSync(codeCacheFile(file), Buffer.concat([other, cache.subarray(header.length)]));
      expect(requireWithCodeCache(file)).toBeUndefined();
    }
  });

  it("is not used when V8's flags hash in it is not this process's (V8 would refuse it after a whole compile)", async () => {
    const file = await moduleWithCache(ADD);
    const cache = readFileSync(codeCacheFile(file));
    const data = cache.indexOf(10) + 1;
    expect(requireWithCodeCache(file)?.exports['sep']).toBe(path.sep);
    // V8's header words: magic, version hash, source hash, flags hash (code-serializer.h).
    const otherFlags = Buffer.from(cache);
    otherFlags[data + 12] = (otherFlags[data + 12] as number) ^ 0xff;
    writeFileSync(codeCacheFile(file), otherFlags);
    expect(requireWithCodeCache(file)).toBeUndefined();
    const otherVersion = Buffer.from(cache);
    otherVersion[data + 4] = (otherVersion[data + 4] as number) ^ 0xff;
    writeFileSync(codeCacheFile(file), otherVersion);
    expect(requireWithCodeCache(file)).toBeUndefined();
  });

  it('is absent without a cache file, or with a header alone', async () => {
    const file = path.join(dir, 'alone.cjs');
    writeFileSync(file, ADD);
    expect(requireWithCodeCache(file)).toBeUndefined();
    const cached = await moduleWithCache(ADD);
    const cache = readFileSync(codeCacheFile(cached));
    writeFileSync(codeCacheFile(cached), cache.subarray(0, cache.indexOf(10) + 1));
    expect(requireWithCodeCache(cached)).toBeUndefined();
    expect(requireWithCodeCache(path.join(dir, 'missing.cjs'))).toBeUndefined();
  });
});
