/**
 * V8's code cache of the precompiled validators (src/manifest/validators-code.ts), on a module
 * of its own: used only for the module text it was made from, whatever V8 would accept, and
 * never in place of the module when V8 refuses it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeCacheFile, requireWithCodeCache, writeCodeCache } from '../../src/manifest/validators-code.js';

const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let made = 0;
/** A module at a fresh path, its cache written after a call of each export. */
function moduleWithCache(text: string): string {
  const file = path.join(dir, `m${made++}.cjs`);
  writeFileSync(file, text);
  writeCodeCache(file, (exports) => {
    for (const value of Object.values(exports)) if (typeof value === 'function') value(2, 3);
  });
  return file;
}

const ADD = "exports.combine = (a, b) => a + b;\nexports.sep = require('node:path').sep;\n";

describe('the validators code cache', () => {
  // Whether V8 takes a cache is seen in a process that never compiled the text (V8 keeps what
  // it compiled): test/e2e/validators-code.test.ts.
  it('gives the module exports through its cache', () => {
    const file = moduleWithCache(ADD);
    const loaded = requireWithCodeCache(file);
    expect((loaded?.exports['combine'] as (a: number, b: number) => number)(2, 3)).toBe(5);
    expect(loaded?.exports['sep']).toBe(path.sep);
    expect(readFileSync(codeCacheFile(file), 'latin1')).toMatch(/^switchboard-validators-code 1 sha256:[0-9a-f]{64}\n/);
  });

  it('is not used for another module text, even of the same length (V8 checks only the length)', () => {
    const file = moduleWithCache(ADD);
    writeFileSync(file, ADD.replace('a + b', 'a - b'));
    expect(requireWithCodeCache(file)).toBeUndefined();
  });

  it('is absent without a cache file, or with a header alone', () => {
    const file = path.join(dir, 'alone.cjs');
    writeFileSync(file, ADD);
    expect(requireWithCodeCache(file)).toBeUndefined();
    const cached = moduleWithCache(ADD);
    const cache = readFileSync(codeCacheFile(cached));
    writeFileSync(codeCacheFile(cached), cache.subarray(0, cache.indexOf(10) + 1));
    expect(requireWithCodeCache(cached)).toBeUndefined();
    expect(requireWithCodeCache(path.join(dir, 'missing.cjs'))).toBeUndefined();
  });
});
