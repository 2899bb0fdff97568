/**
 * What displays as nothing, or rewrites what is around it, never reaches a terminal or a
 * review raw (safe-text.ts), and the lookalike fold (values.ts) disregards exactly that, plus
 * case, surrounding spaces and compatibility forms.
 */
import { describe, expect, it } from 'vitest';
import { safeLines, safeText, withoutInvisibles } from '../../src/core/safe-text.js';
import { foldIdentity } from '../../src/core/values.js';

/** Code points that display as nothing: format characters and default-ignorables, by range. */
const INVISIBLE: [number, number][] = [
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // Arabic letter mark
  [0x115f, 0x1160], // Hangul fillers
  [0x17b4, 0x17b5], // Khmer inherent vowels
  [0x180b, 0x180f], // Mongolian variation selectors and vowel separator
  [0x200b, 0x200f], // zero-width characters, LRM, RLM
  [0x202a, 0x202e], // bidi embeddings and overrides
  [0x2060, 0x2064], // word joiner, invisible operators
  [0x2066, 0x2069], // bidi isolates
  [0x3164, 0x3164], // Hangul filler
  [0xfe00, 0xfe0f], // variation selectors
  [0xfeff, 0xfeff], // byte order mark
  [0xffa0, 0xffa0], // half-width Hangul filler
  [0xfff9, 0xfffb], // interlinear annotation controls
  [0x1bca0, 0x1bca3], // shorthand format controls
  [0x1d173, 0x1d17a], // musical symbol format controls
  [0xe0000, 0xe0fff], // tags and variation selectors supplement
];

function* codePoints(ranges: [number, number][]): Generator<number> {
  for (const [from, to] of ranges) for (let cp = from; cp <= to; cp++) yield cp;
}

/** The JSON-style escape of a code point: `\uXXXX`, a surrogate pair beyond U+FFFF. */
function escapeOf(cp: number): string {
  return [...String.fromCodePoint(cp)]
    .join('')
    .replace(/[\s\S]/g, (u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

describe('safeText', () => {
  it('escapes every invisible code point, as its surrogate pair beyond U+FFFF', () => {
    for (const cp of codePoints(INVISIBLE)) {
      const shown = safeText(`a${String.fromCodePoint(cp)}b`);
      expect(shown, `U+${cp.toString(16)}`).toBe(`a${escapeOf(cp)}b`);
    }
    expect(safeText('acme-corp\u{e0020}\u{e0041}')).toBe('acme-corp\\udb40\\udc20\\udb40\\udc41');
  });

  it('keeps escaping controls, line separators and lone surrogates (which all print as one �)', () => {
    expect(safeText('\u001b[2J\r\u0007\u009b\u007f')).toBe('\\u001b[2J\\u000d\\u0007\\u009b\\u007f');
    expect(safeText('a\u2028b\u2029c')).toBe('a\\u2028b\\u2029c');
    expect(safeText('x\ud800y\udc01z')).toBe('x\\ud800y\\udc01z');
  });

  it('leaves visible text as it is: accents, scripts, emoji, symbols, spaces', () => {
    for (const text of ['Zürich Straße', '東京 支店', 'Ελλάδα', 'עברית', 'العربية', '😀 ok', 'a + b = c', '한글']) {
      expect(safeText(text)).toBe(text);
    }
  });

  it('escaped JSON still parses to the same value, astral characters included', () => {
    const value = { name: 'acme\u{e0020}\u00ad\u202e\ufe0f', list: ['\u3164', '\u{1bca0}'] };
    const escaped = safeLines(JSON.stringify(value, null, 2));
    expect(escaped).not.toMatch(/\p{Cf}|\p{Default_Ignorable_Code_Point}|\p{Cs}/u);
    expect(JSON.parse(escaped)).toEqual(value);
  });

  it('safeLines keeps line breaks and escapes the rest of each line', () => {
    expect(safeLines('one\u00ad\ntwo\u034f')).toBe('one\\u00ad\ntwo\\u034f');
  });
});

describe('the lookalike fold', () => {
  it('the reported names fold to the live ones', () => {
    expect(foldIdentity('acme-corp\u{e0020}\u{e0041}')).toBe('acme-corp');
    expect(foldIdentity('globex\u3164')).toBe('globex');
    expect(foldIdentity('glo\u00adbex')).toBe('globex');
    expect(foldIdentity('x\u061cy')).toBe('xy');
    expect(foldIdentity('acme\ufe0f-corp')).toBe('acme-corp');
    expect(foldIdentity('acme-c\u034forp')).toBe('acme-corp');
  });

  it('every invisible code point is disregarded, wherever it stands', () => {
    for (const cp of codePoints(INVISIBLE)) {
      const c = String.fromCodePoint(cp);
      expect(foldIdentity(`${c}Ac${c}me${c}`), `U+${cp.toString(16)}`).toBe('acme');
    }
  });

  it('compatibility forms, case and surrounding spaces are disregarded', () => {
    expect(foldIdentity('ＡＣＭＥ')).toBe('acme');
    expect(foldIdentity(' ﬁle\u00a0')).toBe('file');
    expect(foldIdentity('SIP:ALICE@X.EXAMPLE ')).toBe('sip:alice@x.example');
    // An accent written as a combining mark, with a grapheme joiner between: the composed form.
    expect(foldIdentity('cafe\u034f\u0301')).toBe(foldIdentity('café'));
  });

  it('distinct visible names stay distinct', () => {
    expect(foldIdentity('acme')).not.toBe(foldIdentity('acne'));
    expect(foldIdentity('café')).not.toBe(foldIdentity('cafe'));
    expect(foldIdentity('a b')).not.toBe(foldIdentity('ab'));
  });

  it('withoutInvisibles drops only what displays as nothing', () => {
    expect(withoutInvisibles('\u200bA\u00adB\u{e0041} C\u0007')).toBe('AB C\u0007');
  });
});
