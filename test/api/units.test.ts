import { describe, expect, it } from 'vitest';
import { platformMessageOf } from '../../src/api/errors.js';
import {
  firstOf,
  pageNumber,
  toBoolean,
  toId,
  toInteger,
  toNumber,
  normalizeProfile,
  routePattern,
  totp,
  parseRetryAfter,
} from '../../src/api/index.js';
import { backoffDelay, DEFAULT_RETRY, isRetryableStatus } from '../../src/api/retry.js';
import { RequestStats } from '../../src/api/stats.js';
import { decodeBase32 } from '../../src/api/totp.js';
import { seededRandom } from '../../src/core/random.js';

describe('normalisation helpers', () => {
  it('Doc1 §2.6: markup as a number or a numeric string', () => {
    expect(toNumber('4.5')).toBe(4.5);
    expect(toNumber(3)).toBe(3);
    expect(toNumber(' 7 ')).toBe(7);
    expect(toNumber('-1e2')).toBe(-100);
    for (const bad of ['', 'abc', '4.5%', null, undefined, true, NaN, Infinity, '0x10'])
      expect(toNumber(bad)).toBeUndefined();
    expect(toInteger('3')).toBe(3);
    expect(toInteger('3.5')).toBeUndefined();
  });

  it('Doc2 §2.10: ids as strings or integers become strings', () => {
    expect(toId(0)).toBe('0');
    expect(toId('0')).toBe('0');
    expect(toId('4b7c')).toBe('4b7c');
    expect(toId('')).toBeUndefined();
    expect(toId(null)).toBeUndefined();
    expect(toId({})).toBeUndefined();
  });

  it('Doc2 §4.4: page typed as a string', () => {
    expect(pageNumber('2')).toBe(2);
    expect(pageNumber(2)).toBe(2);
    expect(pageNumber('0')).toBeUndefined();
    expect(pageNumber('two')).toBeUndefined();
  });

  it('Doc1 §2.2: the first present spelling of a field, and booleans as the API spells them', () => {
    expect(firstOf({ a: null, b: 0 }, 'a', 'b')).toBe(0);
    expect(toBoolean('true')).toBe(true);
    expect(toBoolean('no')).toBeUndefined();
  });

  it('Doc1 §2.2: the profile folds spellings and lifts draas_instance; malformed rules are dropped', () => {
    const profile = normalizeProfile({
      username: 'u',
      firstname: 'Ada',
      last_name: 'Lovelace',
      mobile_number: '+3212',
      is_system: false,
      properties: { draas_instance: 'main' },
      admin_of: [{ level: 'distributor', reference: '', owner: { type: 'group', uuid: 'g', name: 'G' } }],
      profile: {
        id: 3,
        name: 'p',
        api_rules: [
          { id: 1, method: 'GET', url: '.*', name: 'x' },
          { id: 2, method: 'get' },
          'junk',
          { id: 3, method: 'post', url: 'a', allowed: false },
        ],
      },
    });
    expect(profile).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      mobileNumber: '+3212',
      draasInstance: 'main',
      isSystem: false,
      adminOf: [{ level: 'distributor', owner: { uuid: 'g' } }],
    });
    expect(profile.apiRules).toEqual([
      { id: 1, method: 'get', url: '.*', name: 'x' },
      { id: 3, method: 'post', url: 'a', allowed: false, name: undefined },
    ]);
    expect(() => normalizeProfile({ email: 'x' })).toThrow(/no username/);
  });
});

describe('TOTP (RFC 6238 appendix B, SHA-1, last 6 digits)', () => {
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // "12345678901234567890"
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1111111111, '050471'],
    [1234567890, '005924'],
    [2000000000, '279037'],
  ])('at %i s the code is %s', (seconds, code) => {
    expect(totp(secret, seconds * 1000)).toBe(code);
  });
  it('accepts lower case, spaces and padding; rejects non-base32', () => {
    expect(decodeBase32('jbsw y3dp ehpk 3pxp==')).toEqual(decodeBase32('JBSWY3DPEHPK3PXP'));
    expect(() => decodeBase32('JBSW1')).toThrow(/base32/);
  });
});

describe('retry policy', () => {
  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('full jitter stays within the exponential ceiling and the cap', () => {
    expect(backoffDelay(3, DEFAULT_RETRY, () => 0.999)).toBe(1998);
    expect(backoffDelay(20, DEFAULT_RETRY, () => 0.999)).toBe(9990);
    expect(backoffDelay(3, DEFAULT_RETRY, () => 0)).toBe(0);
  });

  it('retries only repeatable methods, and 500 only for GET', () => {
    expect(isRetryableStatus('GET', 500)).toBe(true);
    expect(isRetryableStatus('PUT', 500)).toBe(false);
    expect(isRetryableStatus('DELETE', 503)).toBe(true);
    expect(isRetryableStatus('POST', 503)).toBe(false);
    expect(isRetryableStatus('GET', 400)).toBe(false);
  });
});

describe('accounting and messages', () => {
  it('lists the routes by UTF-16 code units of route, then method, and sums them', () => {
    const stats = new RequestStats();
    const attempt = { ok: true, retry: false, status: 200, bytesIn: 10, bytesOut: 1, timeMs: 2.4 };
    for (const [method, route] of [
      ['GET', '/p/tenants'],
      ['POST', '/p/Tenants'],
      ['GET', '/p/Tenants'],
      ['GET', '/p/_bulk'],
      ['GET', '/p/tenants'],
    ])
      stats.record({ ...attempt, method: method as string, route: route as string });
    const snapshot = stats.snapshot();
    // Capitals before `_` before small letters, as code units order them (a collation would not).
    expect(snapshot.routes.map((r) => `${r.method} ${r.route}`)).toEqual([
      'GET /p/Tenants',
      'POST /p/Tenants',
      'GET /p/_bulk',
      'GET /p/tenants',
    ]);
    expect(snapshot).toMatchObject({ requests: 5, bytesIn: 50, bytesOut: 5, errors: 0, retries: 0 });
    expect(snapshot.routes.at(-1)).toMatchObject({ requests: 2, timeMs: 5, statuses: { '2xx': 2 } });
  });

  it('route patterns hide instance and identifiers', () => {
    expect(routePattern('/api/v01/draas/demo/tenants/4b7c0a4e-1111-2222-3333-444455556666/subscriptions/3?x=1')).toBe(
      '/api/v01/draas/{instance}/tenants/{id}/subscriptions/{id}',
    );
    expect(routePattern('/api/v01/draas/main/groups/g/admins/it%40acme.example')).toBe(
      '/api/v01/draas/{instance}/groups/g/admins/{id}',
    );
    expect(routePattern('/api/v01/system/users/local')).toBe('/api/v01/system/users/local');
  });

  it('route patterns equal their definition (one pattern per segment) on 20,000 generated paths', () => {
    const IDENTIFIER = /^(?:\d+|\+\d+|[0-9a-f]{16,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    };
    const definition = (path: string) => {
      const segments = path.split('?')[0]!.split('/');
      segments.forEach((segment, i) => {
        if (i > 1 && segments[i - 1] === 'draas' && segments[i - 2] === 'v01') segments[i] = '{instance}';
        else if (decode(segment).includes('@') || IDENTIFIER.test(decode(segment))) segments[i] = '{id}';
      });
      return segments.join('/');
    };
    const pieces = [
      ...['', 'api', 'v01', 'draas', 'demo', 'tenants', 'x', '+', '+3', '+32470', '+32a', '0', '42', '-1', '1.5'],
      ...[
        'a1b2c3d4e5f60718',
        'A1B2C3D4E5F6071',
        'A1B2C3D4E5F607182',
        'abcdefabcdefabcdg',
        'it@acme',
        'it%40acme',
        '%zz',
      ],
      ...[
        '4b7c0a4e-1111-2222-3333-444455556666',
        '4B7C0A4E-1111-2222-3333-44445555666G',
        '4b7c0a4e-1111-2222-3333_444455556666',
      ],
    ];
    const random = seededRandom(11);
    const next = (n: number) => Math.floor(random() * n);
    for (let i = 0; i < 20_000; i++) {
      const count = 1 + next(9);
      const path =
        Array.from({ length: count }, () => pieces[next(pieces.length)]).join('/') + (next(5) === 0 ? '?a=1/2' : '');
      expect(routePattern(path), path).toBe(definition(path));
    }
  });

  it('Doc1 §7: the platform message comes from a JSON field or a short text excerpt', () => {
    expect(platformMessageOf('{"message":"duplicate e-mail"}')).toBe('duplicate e-mail');
    expect(platformMessageOf('{"code":3076,"reason":"bulk started"}')).toBe('bulk started');
    expect(platformMessageOf('<html><head><style>p{}</style></head><body>Bad Gateway</body></html>')).toBe(
      'Bad Gateway',
    );
    expect(platformMessageOf('')).toBeUndefined();
    expect(platformMessageOf('x'.repeat(1000))!.length).toBeLessThan(310);
  });
});
