import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { compileLinearPattern, type LinearPattern } from '../../src/manifest/linear-pattern.js';

function compiled(source: string): LinearPattern {
  const pattern = compileLinearPattern(source);
  if ('error' in pattern) throw new Error(pattern.error);
  return pattern;
}

describe('compileLinearPattern', () => {
  it('answers as RE2 does for every text, repeated or not, short or long, before and after it stops remembering', () => {
    const sources = ['^\\+32[0-9]{9}$', '^trunk-1', '^[a-z]', '(?i)^ACME', 'a.c', '^$', '^(a+)+$', '!$'];
    // Texts alike but for their end (remembered first, as a wrong key would confuse them),
    // few distinct values, more distinct ones than a pattern remembers (a tenth of them one
    // digit too long), long ones; and each given twice.
    const texts = [
      ...Array.from({ length: 300 }, (_, i) => `${'a'.repeat(200 + (i >> 1))}${i % 2 === 0 ? '' : '!'}`),
      ...Array.from({ length: 3000 }, (_, i) => `trunk-${i % 40}`),
      ...Array.from({ length: 5_000 }, (_, i) => `+32${String(470_000_000 + i * 7919)}${i % 10 === 0 ? '5' : ''}`),
      ...['', 'ACME corp', 'acme', 'abc', 'a\nc', 'Trunk-1', 'x'],
    ];
    for (const source of sources) {
      const reference = RE2JS.compile(source);
      const pattern = compiled(source);
      const expected = texts.map((text) => reference.test(text));
      // Twice: the second round answers from what the first remembered.
      for (const round of [1, 2])
        expect(
          texts.map((text) => pattern.test(text)),
          `${source}, round ${round}`,
        ).toEqual(expected);
    }
  });

  it('each pattern remembers its own answers', () => {
    const digits = compiled('^[0-9]+$');
    const letters = compiled('^[a-z]+$');
    for (let i = 0; i < 3; i++) {
      expect(digits.test('123')).toBe(true);
      expect(letters.test('123')).toBe(false);
      expect(digits.test('abc')).toBe(false);
      expect(letters.test('abc')).toBe(true);
    }
  });
});
