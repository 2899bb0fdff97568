import { describe, expect, it } from 'vitest';
import { wildcardMatch } from '../../src/compare/ignore.js';
import { seededRandom } from '../../src/core/random.js';

/** The definition: `*` any run of characters, everything else itself, the whole text. */
function byRegex(pattern: string, text: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(text);
}

describe('wildcardMatch', () => {
  it('matches whole names, * standing for any characters', () => {
    expect(wildcardMatch('markup', 'markup')).toBe(true);
    expect(wildcardMatch('markup', 'markups')).toBe(false);
    expect(wildcardMatch('Tenant.*', 'Tenant.metadata.uuid')).toBe(true);
    expect(wildcardMatch('*Reference', 'externalReference')).toBe(true);
    expect(wildcardMatch('metadata.*', 'metadata')).toBe(false);
    expect(wildcardMatch('*', '')).toBe(true);
    expect(wildcardMatch('a*b*c', 'aXbYbZc')).toBe(true);
    expect(wildcardMatch('a*b*c', 'aXbYbZ')).toBe(false);
  });

  it('agrees with its definition on 5,000 random patterns and names', () => {
    const random = seededRandom(31);
    const pick = (alphabet: string, max: number) =>
      Array.from({ length: Math.floor(random() * max) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
        '',
      );
    for (let i = 0; i < 5000; i++) {
      const pattern = pick('ab*.', 6);
      const text = pick('ab.', 8);
      expect(wildcardMatch(pattern, text), `${pattern} ~ ${text}`).toBe(byRegex(pattern, text));
    }
  });
});
