import { describe, expect, it } from 'vitest';
import { countText } from '../../src/core/count-text.js';

describe('countText', () => {
  it("writes whole numbers as toLocaleString('en-US') does", () => {
    const samples = [
      0, 1, 9, 10, 99, 100, 999, 1000, 1001, 12_000, 99_999, 100_000, 999_999, 1_000_000, 250_000, 1_234_567_890,
    ];
    for (let n = 0; n < 2000; n += 7) samples.push(n, n * 1009, n * 1_000_003);
    for (const n of [...samples, ...samples.map((s) => -s), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])
      expect(countText(n), String(n)).toBe(n.toLocaleString('en-US'));
  });

  it('leaves what is not a whole number to Intl', () => {
    for (const n of [1.5, 1234.5678, Number.NaN, Infinity, 2 ** 60])
      expect(countText(n)).toBe(n.toLocaleString('en-US'));
  });
});
