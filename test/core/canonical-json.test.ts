import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestOf, isDigest, sortKeysDeep } from '../../src/core/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, 2], c: null } })).toBe('{"a":{"c":null,"d":[3,1,2]},"b":1}');
  });

  it('writes JSON without whitespace that JSON.parse reads back', () => {
    const value = { s: 'é "q" \n', n: -1.5e-7, t: true, f: false, list: [{}, [], ''] };
    const text = canonicalJson(value);
    expect(text).not.toMatch(/\s(?=(?:[^"]*"[^"]*")*[^"]*$)/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('follows JSON.stringify for undefined, non-finite numbers and toJSON', () => {
    expect(canonicalJson({ a: undefined, b: () => 1, c: NaN })).toBe('{"c":null}');
    expect(canonicalJson([undefined, Infinity])).toBe('[null,null]');
    expect(canonicalJson({ when: new Date(0) })).toBe('{"when":"1970-01-01T00:00:00.000Z"}');
  });

  it('rejects values without a JSON form (cycles, bigint) instead of looping', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
    expect(() => canonicalJson({ n: 1n })).toThrow(/bigint/);
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
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

  // How fast digests are is the benchmark's business (npm run bench: every plan digests each object).
  it('gives 50,000 distinct small objects 50,000 distinct digests', () => {
    const objects = Array.from({ length: 50_000 }, (_, i) => ({
      number: `+3221${i}`,
      route: `trunk-${i % 7}`,
      priority: i % 100,
      tags: ['a', 'b'],
      meta: { id: i, on: true },
    }));
    const digests = new Set(objects.map(digestOf));
    expect(digests.size).toBe(50_000);
  });
});

describe('canonicalJson: the RFC 8785 examples', () => {
  it('§3.2.3: the sample with numbers, an escaped string and literals', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('§3.2.3: members sorted by UTF-16 code units, integer-like names as text', () => {
    const input = JSON.parse(
      '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh",' +
        ' "1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control",' +
        ' "\\u00f6": "Latin Small Letter O With Diaeresis", "10": "Ten", "2": "Two"}',
    );
    const names = Object.keys(JSON.parse(canonicalJson(input)) as object);
    // JSON.parse puts integer-like names first again: compare the text instead.
    expect(names.length).toBe(9);
    const order = [...canonicalJson(input).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`));
    expect(order).toEqual(['\r', '1', '10', '2', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
  });

  it('Appendix B: numbers as ECMAScript writes them', () => {
    const cases: [string, string][] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [bits, expected] of cases) {
      const value = Buffer.from(bits, 'hex').readDoubleBE(0);
      expect(canonicalJson(value), bits).toBe(expected);
    }
  });
});

describe('sortKeysDeep', () => {
  it('sorts at every depth, keeps arrays in order, and keeps a __proto__ key as data', () => {
    const value = JSON.parse('{"b":{"z":1,"__proto__":{"x":2}},"a":[{"d":1,"c":2}]}') as Record<string, unknown>;
    const sorted = sortKeysDeep(value);
    expect(JSON.stringify(sorted)).toBe('{"a":[{"c":2,"d":1}],"b":{"__proto__":{"x":2},"z":1}}');
    expect(Object.getPrototypeOf(sorted['b'])).toBe(Object.prototype);
    expect(canonicalJson(sorted)).toBe(canonicalJson(value));
  });
});

describe('canonicalJson: the fast path and the written form agree', () => {
  /** RFC 8785 by the letter, for JSON values: the reference the implementation is checked against. */
  function reference(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
    if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(record[k])}`).join(',')}}`;
    }
    return JSON.stringify(value);
  }

  it('on random values with shuffled keys, integer-like keys, escapes and numbers', () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const names = ['b', 'a', '10', '2', 'é', '\u20ac', 'z\n', '__proto__', 'A', ''];
    const make = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3) return [1e21, -0, 0.1, 'x"\\\u0001', true, null][Math.floor(random() * 6)];
      if (r < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => make(depth + 1));
      const entries = names.filter(() => random() < 0.4).map((k) => [k, make(depth + 1)]);
      return Object.fromEntries(entries);
    };
    for (let i = 0; i < 500; i++) {
      const value = make(0);
      expect(canonicalJson(value)).toBe(reference(JSON.parse(JSON.stringify(value))));
    }
  });
});
