/**
 * Secrets as servers really echo them: PHP's json_encode (`\/`, `\u00e9`), Python's
 * json.dumps (`\u00e9`, `\ud83d\ude80`), upper-case `\u00E9`, HTML-safe JSON (`\u003c`),
 * JSON nested up to three times, URL-encoded by JavaScript, by a form (`+` for a space), by
 * Python's quote (`/` kept, lower-case hex) and twice, HTML character references, and
 * base64 inside a longer base64 text at each of its three alignments (standard and
 * URL-safe). Each form of each planted secret, inside surrounding text, must be masked;
 * text holding no secret must come out unchanged. Values shorter than 8 characters are
 * not masked (docs/reliability.md).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MASK, MIN_MASKED_LENGTH, clearSecrets, maskSecrets, registerSecret } from '../../src/core/secrets.js';
import { seededRandom } from '../../src/core/random.js';

afterEach(() => clearSecrets());

/** Secrets with what escapers treat specially: slashes, quotes, backslashes, spaces, `%`, `&`, `+`, non-ASCII, emoji. */
const SECRETS = [
  'Pw/with/slashes-42',
  'q"uo\\te&amp;<tag>',
  'späce and ünïcode',
  'rocket-🚀-token-x',
  'per%20cent+plus=eq',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaSJ9.c2lnbmF0dXJl',
];

const json = (s: string): string => JSON.stringify(s).slice(1, -1);
const asciiJson = (s: string, upper = false): string =>
  json(s).replace(/[^\x20-\x7e]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
const php = (s: string): string => asciiJson(s).replaceAll('/', '\\/');
const htmlSafeJson = (s: string): string =>
  asciiJson(s).replace(/[<>&']/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const pythonQuote = (s: string): string =>
  encodeURIComponent(s)
    .replace(/%2F/g, '/')
    .replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
const form = (s: string): string => new URLSearchParams({ v: s }).toString().slice(2);
const html = (s: string): string => [...s].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `&#${c.codePointAt(0)};`)).join('');
const htmlHex = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`);

/** Every form, by the name of who writes it that way. */
const FORMS: Record<string, (s: string) => string> = {
  raw: (s) => s,
  'JSON (JavaScript)': json,
  'JSON (PHP json_encode: \\/ and \\uXXXX)': php,
  'JSON (Python json.dumps: \\uXXXX)': (s) => asciiJson(s),
  'JSON (upper-case \\uXXXX)': (s) => asciiJson(s, true),
  'JSON (HTML-safe: \\u003c)': htmlSafeJson,
  'JSON twice': (s) => json(json(s)),
  'JSON three times, PHP style inside': (s) => json(json(php(s))),
  'URL (encodeURIComponent)': encodeURIComponent,
  'URL (a form: + for a space)': form,
  'URL (Python quote: / kept, lower-case hex)': pythonQuote,
  'URL twice': (s) => encodeURIComponent(encodeURIComponent(s)),
  'URL inside JSON': (s) => json(`{"q":"${encodeURIComponent(s)}"}`),
  'HTML decimal references': html,
  'HTML hexadecimal references': htmlHex,
  'base64 of the secret': (s) => Buffer.from(s).toString('base64'),
  'base64 after 1 byte (user:password)': (s) => Buffer.from(`u:${s}`).toString('base64'),
  'base64 after 2 bytes': (s) => Buffer.from(`ab${s}`).toString('base64'),
  'base64 after 3 bytes, then more': (s) => Buffer.from(`abc${s}tail`).toString('base64'),
  'base64url inside a body': (s) => Buffer.from(`{"password":"${s}"}`).toString('base64url'),
  'base64 in a JSON message (PHP \\/)': (s) =>
    php(`Authorization: Basic ${Buffer.from(`bot:${s}`).toString('base64')}`),
};

describe('every form of every secret is masked', () => {
  for (const secret of SECRETS) {
    it(`${JSON.stringify(secret)}`, () => {
      registerSecret(secret);
      for (const [name, encode] of Object.entries(FORMS)) {
        const form = encode(secret);
        const text = `{"error":"rejected: ${form} (code 7)","at":"2026-11-26"}`;
        const masked = maskSecrets(text);
        expect(masked, `${name}: ${form}`).toContain(MASK);
        expect(masked, `${name}: ${form}`).not.toContain(form);
        // What surrounds the secret is kept.
        expect(masked, name).toMatch(/^\{"error":"rejected: /);
        expect(masked, name).toMatch(/ \(code 7\)","at":"2026-11-26"\}$/);
      }
    });
  }

  it('each secret among the others: every one masked, in one text', () => {
    for (const secret of SECRETS) registerSecret(secret);
    const text = SECRETS.map((s, i) => `${i}:${Object.values(FORMS)[i % 5]!(s)}`).join(' | ');
    const masked = maskSecrets(text);
    expect(masked).toBe(SECRETS.map((_, i) => `${i}:${MASK}`).join(' | '));
  });
});

describe('where the form stands in a long text', () => {
  it('deep inside escaped noise, after runs of backslashes: every form masked, the text around kept', () => {
    for (const secret of SECRETS) registerSecret(secret);
    const noise = '\\"q\\" %2B32 &amp; caf\\u00e9 '.repeat(200);
    // One backslash, as three levels of JSON write it: the forms nested three times stay readable after it.
    const before = `${noise}${'\\'.repeat(8)}`;
    for (const secret of SECRETS) {
      for (const [name, encode] of Object.entries(FORMS)) {
        const form = encode(secret);
        const masked = maskSecrets(`${before}${form}${noise}`);
        expect(masked.startsWith(before), name).toBe(true);
        expect(masked.endsWith(noise), name).toBe(true);
        expect(masked, name).not.toContain(form);
        expect(masked.slice(before.length, -noise.length), name).toContain(MASK);
      }
    }
  });

  it('a secret without a letter or a digit is found escaped too', () => {
    registerSecret('/!/?:#[]@$&');
    for (const [name, encode] of Object.entries(FORMS)) {
      const form = encode('/!/?:#[]@$&');
      const masked = maskSecrets(`before ${form} after`);
      expect(masked, name).not.toContain(form);
      expect(masked, name).toMatch(/^before .*\[redacted\].* after$/);
    }
  });
});

describe('what is not a secret is left alone', () => {
  it('random text with escapes of every kind, holding no secret, comes out unchanged', () => {
    for (const secret of SECRETS) registerSecret(secret);
    const random = seededRandom(28);
    const pieces = [
      '\\u00e9',
      '\\/',
      '%2F',
      '%C3%A9',
      '+',
      '&amp;',
      '&#47;',
      'abc',
      ' ',
      '"',
      '\\\\',
      'ZXlK',
      '%',
      '&',
    ];
    for (let n = 0; n < 500; n++) {
      let text = '';
      for (let k = 0; k < 40; k++) text += pieces[Math.floor(random() * pieces.length)];
      expect(maskSecrets(text)).toBe(text);
    }
  });

  it(`values shorter than ${MIN_MASKED_LENGTH} characters are not masked, in any form`, () => {
    registerSecret('s3cr/t!');
    for (const encode of Object.values(FORMS)) {
      const text = `message: ${encode('s3cr/t!')} end`;
      expect(maskSecrets(text)).toBe(text);
    }
  });
});
