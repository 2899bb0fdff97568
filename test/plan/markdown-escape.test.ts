/**
 * escapeMd escapes what can form markup, autolinks, mentions or references, and nothing
 * else: times, file positions, codes and addresses stay readable in the raw markdown.
 */
import { describe, expect, it } from 'vitest';
import { cutName, escapeMd } from '../../src/plan/markdown-escape.js';

describe('escapeMd', () => {
  it('leaves times, file positions, codes and plain addresses as they are', () => {
    for (const s of [
      '2026-11-26T15:10:00.000Z',
      'tenants/acme.yaml:6:3',
      'SB_DELETE_THRESHOLD',
      'tenant/acme-corp/subscription/main/entitlement/BE geo',
      'refused (28%, more than 10%): pass --max-delete-percent 30',
      'sha256:0f1e2d',
      'tenants.instance.delete',
    ])
      expect(escapeMd(s)).toBe(s);
  });

  it('breaks every autolink: a scheme of any name, www., e-mail addresses', () => {
    expect(escapeMd('https://evil.example/x')).toBe('https&#58;//evil.example/x');
    expect(escapeMd('ftp://x and javascript://y')).toBe('ftp&#58;//x and javascript&#58;//y');
    expect(escapeMd('see www.evil.com or WWW.EVIL.COM')).toBe('see www&#46;evil.com or WWW&#46;EVIL.COM');
    expect(escapeMd('it@acme.example')).toBe('it&#64;acme.example');
  });

  it('breaks emoji shortcodes, not the minutes and seconds of a time', () => {
    expect(escapeMd(':tada: :+1: :-1: :100: :8ball:')).toBe('&#58;tada: &#58;+1: &#58;-1: &#58;100: &#58;8ball:');
    expect(escapeMd('12:30:45 and 9:05:00')).toBe('12:30:45 and 9:05:00');
  });

  it('escapes an underscore that could open emphasis, never one inside a word', () => {
    // a `_` after a letter or digit cannot open emphasis, and no other can be left to open one
    expect(escapeMd('_x_ and __y__')).toBe('&#95;x_ and &#95;&#95;y_&#95;');
    expect(escapeMd('SB_POLICY a_b snake_case_')).toBe('SB_POLICY a_b snake_case_');
    expect(escapeMd('@_x_')).toBe('&#64;&#95;x_');
  });

  it('always escapes HTML, tables, code, emphasis, links, mentions, references, math and strikethrough', () => {
    expect(escapeMd('<b>|x|</b> #12 $x$ ~y~ `c` \\ *z* [a](b) &amp;')).toBe(
      '&#60;b&#62;&#124;x&#124;&#60;/b&#62; &#35;12 &#36;x&#36; &#126;y&#126; &#96;c&#96; &#92; &#42;z&#42; &#91;a&#93;(b) &#38;amp;',
    );
  });

  it('escapes control characters as text', () => {
    expect(escapeMd('a\u001b[31mb\nc')).toBe('a&#92;u001b&#91;31mb&#92;u000ac');
  });
});

describe('cutName', () => {
  it('keeps two long names that differ only past the cut apart, and leaves a short one alone', () => {
    const base = `tenant/${'a'.repeat(500)}`;
    const [x, y] = [cutName(`${base}/x`, 400), cutName(`${base}/y`, 400)];
    expect(x).not.toBe(y);
    expect(x.length).toBeLessThanOrEqual(400);
    expect(x).toMatch(/…#[0-9a-f]{8}$/);
    expect(cutName('tenant/acme-corp', 400)).toBe('tenant/acme-corp');
  });
});
