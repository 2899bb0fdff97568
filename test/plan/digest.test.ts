import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestOf, isDigest, stableStringify } from '../../src/plan/digest.js';

describe('stableStringify', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(stableStringify({ b: 1, a: { d: [3, 1, 2], c: null } })).toBe('{"a":{"c":null,"d":[3,1,2]},"b":1}');
  });

  it('writes JSON without whitespace that JSON.parse reads back', () => {
    const value = { s: 'é "q" \n', n: -1.5e-7, t: true, f: false, list: [{}, [], ''] };
    const text = stableStringify(value);
    expect(text).not.toMatch(/\s(?=(?:[^"]*"[^"]*")*[^"]*$)/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('follows JSON.stringify for undefined, non-finite numbers and toJSON', () => {
    expect(stableStringify({ a: undefined, b: () => 1, c: NaN })).toBe('{"c":null}');
    expect(stableStringify([undefined, Infinity])).toBe('[null,null]');
    expect(stableStringify({ when: new Date(0) })).toBe('{"when":"1970-01-01T00:00:00.000Z"}');
  });

  it('rejects values without a JSON form (cycles, bigint) instead of looping', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => stableStringify(cyclic)).toThrow(/cycle/);
    expect(() => stableStringify({ n: 1n })).toThrow(/bigint/);
    const shared = { x: 1 };
    expect(stableStringify([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});

describe('digestOf', () => {
  it('is sha256 of the canonical form, independent of key order', () => {
    const expected = `sha256:${createHash('sha256').update('{"a":1,"b":[2,1]}').digest('hex')}`;
    expect(digestOf({ b: [2, 1], a: 1 })).toBe(expected);
    expect(digestOf({ a: 1, b: [2, 1] })).toBe(expected);
    expect(digestOf({ a: 1, b: [1, 2] })).not.toBe(expected);
    expect(isDigest(expected)).toBe(true);
    expect(isDigest('sha256:xyz')).toBe(false);
  });

  it('digests 50,000 small objects in well under a second', () => {
    const objects = Array.from({ length: 50_000 }, (_, i) => ({
      number: `+3221${i}`,
      route: `trunk-${i % 7}`,
      priority: i % 100,
      tags: ['a', 'b'],
      meta: { id: i, on: true },
    }));
    const start = performance.now();
    const digests = new Set(objects.map(digestOf));
    const ms = performance.now() - start;
    expect(digests.size).toBe(50_000);
    expect(ms).toBeLessThan(1_000);
  });
});
