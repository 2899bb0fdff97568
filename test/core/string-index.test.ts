/**
 * StringIndex (src/core/string-index.ts) answers as a Map does: the same values, size and
 * insertion order through random sets, overwrites, growth and clears, with keys that collide
 * in its hash table's slots.
 */
import { describe, expect, it } from 'vitest';
import { keyHash, StringIndex } from '../../src/core/string-index.js';
import { seededRandom } from '../../src/core/random.js';

describe('StringIndex', () => {
  it('answers as a Map through 20,000 random sets, overwrites and lookups, across growth and clears', () => {
    const random = seededRandom(7);
    const index = new StringIndex();
    const model = new Map<string, number>();
    // Few distinct keys, some empty or non-ASCII: overwrites and probing chains are common.
    const keys = Array.from({ length: 3000 }, (_, i) => (i % 97 === 0 ? '' : `+32${i}${i % 5 === 0 ? 'é' : ''}`));
    for (let step = 0; step < 20_000; step++) {
      const key = keys[Math.floor(random() * keys.length)] as string;
      const roll = random();
      if (roll < 0.6) {
        const value = Math.floor(random() * 1_000_000);
        index.set(key, value);
        model.set(key, value);
      } else if (roll < 0.9995) {
        expect(index.get(key)).toBe(model.get(key));
        expect(index.has(key)).toBe(model.has(key));
      } else {
        index.clear();
        model.clear();
      }
      expect(index.size).toBe(model.size);
    }
    expect([...index.entries()]).toEqual([...model.entries()]);
    expect([...index]).toEqual([...model]);
    expect([...index.keys()]).toEqual([...model.keys()]);
    expect([...index.values()]).toEqual([...model.values()]);
    const seen: [string, number][] = [];
    index.forEach((value, key) => seen.push([key, value]));
    expect(seen).toEqual([...model]);
  });

  it('keeps a million keys, each found with its value, in the order they were set', () => {
    const index = new StringIndex();
    for (let i = 0; i < 1_000_000; i++) index.set(`+32${String(i).padStart(9, '0')}`, i);
    expect(index.size).toBe(1_000_000);
    for (let i = 0; i < 1_000_000; i += 997) expect(index.get(`+32${String(i).padStart(9, '0')}`)).toBe(i);
    expect(index.get('+32')).toBeUndefined();
    let expected = 0;
    for (const value of index.values()) if (value !== expected++) throw new Error(`out of order at ${value}`);
  });

  it('refuses a value it cannot hold', () => {
    const index = new StringIndex();
    for (const value of [-1, 0.5, 2 ** 31 - 1, Number.NaN]) expect(() => index.set('k', value)).toThrow(RangeError);
    expect(index.size).toBe(0);
  });

  it("keeps keys a file chose to share FNV-1a's low bits apart: its hash is seeded and mixed", () => {
    // Plain FNV-1a: the low 12 bits of its state depend only on the low 12 bits before, so
    // two-character pieces that collide there chain into 2^12 keys sharing one slot's bits.
    const LOW = 0xfff;
    const step = (state: number, piece: string) => {
      let h = state;
      for (let i = 0; i < piece.length; i++) h = Math.imul(h ^ piece.charCodeAt(i), 0x01000193);
      return h;
    };
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const pieces = [...alphabet].flatMap((a) => [...alphabet].map((b) => a + b));
    let states = [0x811c9dc5 | 0];
    let keys = [''];
    for (let round = 0; round < 12; round++) {
      // Two pieces that take this round's common low bits to the same low bits.
      const seen = new Map<number, string>();
      let pair: [string, string] | undefined;
      for (const piece of pieces) {
        const low = step(states[0] as number, piece) & LOW;
        const other = seen.get(low);
        if (other !== undefined) {
          pair = [other, piece];
          break;
        }
        seen.set(low, piece);
      }
      if (!pair) throw new Error('no colliding pieces');
      const [a, b] = pair;
      keys = keys.flatMap((k) => [k + a, k + b]);
      states = keys.map((k) => step(0x811c9dc5 | 0, k));
    }
    expect(keys.length).toBe(4096);
    expect(new Set(states.map((h) => h & LOW)).size).toBe(1);
    // Seeded and mixed, they spread over the slots as 4,096 random keys would (~2,600 values).
    for (const seed of [0, 1, 0x5eed]) {
      expect(new Set(keys.map((k) => keyHash(seed, k) & LOW)).size).toBeGreaterThan(2300);
    }
    const index = new StringIndex();
    keys.forEach((k, i) => index.set(k, i));
    expect(keys.every((k, i) => index.get(k) === i)).toBe(true);
  });
});
