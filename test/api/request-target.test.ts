import { describe, expect, it } from 'vitest';
import { requestTarget } from '../../src/api/request-target.js';
import { seededRandom } from '../../src/core/random.js';
import type { Query } from '../../src/api/types.js';

/**
 * The reference: what the client sent before requests were addressed as text (a URL object
 * per request, its query appended through `searchParams`), as origin and path.
 */
function byParser(base: URL, path: string, query: Query | undefined) {
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = new URL(`${prefix}${path.startsWith('/') ? path : `/${path}`}`, base.origin);
  if (query !== undefined) {
    const params = url.search === '' ? new URLSearchParams() : url.searchParams;
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
      else if (typeof value === 'object') params.append(key, JSON.stringify(value));
      else params.append(key, String(value));
    }
    const text = params === url.searchParams ? '' : params.toString();
    if (text !== '') url.search = text;
  }
  return { origin: url.origin, path: `${url.pathname}${url.search}` };
}

/** Whole numbers below `n` from the project's seeded generator: the same cases on every run. */
function generator(seed: number): (n: number) => number {
  const random = seededRandom(seed);
  return (n) => Math.floor(random() * n);
}

const BASES = ['http://127.0.0.1:8080', 'https://platform.example.net/', 'https://h.example:8443/prefix/v/'];
// Every printable ASCII character, escapes valid and not, dot segments, and letters the parser encodes.
const PIECES = [
  ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
  '/',
  '/',
  '/.',
  '/..',
  '/%2e',
  '/%2E%2e',
  '/.%2e/',
  '%41',
  '%zz',
  '%',
  'é',
  'ß',
  '☎',
  '\t',
  'tenants',
  'a1b2c3d4-0000-4000-8000-000000000001',
  '+32470111222',
  '..',
  '.',
];

/** No query, or one of a few parameters: plain ones (numbers, words, uuids) or any piece, a list, an object. */
function generatedQuery(next: (n: number) => number): Query | undefined {
  if (next(4) === 0) return undefined;
  const plain = ['1', '1000', 'tenants', 'a1b2c3d4-0000-4000-8000-000000000001', 'x*y.z_w', ''];
  const query: Record<string, Query[string]> = {};
  const count = 1 + next(4);
  for (let i = 0; i < count; i++) {
    const key = next(6) === 0 ? PIECES[next(PIECES.length)]! : `k${i}`;
    const choice = next(10);
    query[key] =
      choice < 5
        ? plain[next(plain.length)]
        : choice === 5
          ? next(1000)
          : choice === 6
            ? null
            : choice === 7
              ? ['a', PIECES[next(PIECES.length)]!]
              : choice === 8
                ? { addressId: next(9) }
                : PIECES[next(PIECES.length)];
  }
  return query;
}

describe('requestTarget', () => {
  it('is what the URL parser makes of every path the kind table writes', () => {
    const base = new URL('https://platform.example.net');
    const paths = [
      '/api/v01/draas/demo/tenants',
      '/api/v01/draas/demo/tenants/4b7c0c1e-6f1a-4a57-9a1b-0c1d2e3f4a5b/subscriptions/17/entitlements',
      '/api/v01/draas/demo/tenants/x/subscriptions/3/numbers/+3225551234',
      "/api/v01/draas/demo/resellers/Acme%20(EU)%2C%20Ltd'/x",
      'api/v01/system/users/local',
    ];
    for (const path of paths) {
      const query = { page: 2, page_size: 100, parent: 'a b&c=d', ids: [1, 2], filters: { addressId: 7 } };
      expect(requestTarget(base, path, query)).toEqual(byParser(base, path, query));
      expect(requestTarget(base, path, undefined)).toEqual(byParser(base, path, undefined));
    }
    // Each character at the edge of what the form encoding leaves as it is, alone in a query.
    for (const c of ['~', '!', "'", '(', ')', ' ', '+', '%', '&', '=', 'é', '*', '-', '.', '_']) {
      for (const query of [{ name: `a${c}b` }, { [`k${c}`]: 'v' }, { page: 1, search: c }]) {
        const path = '/api/v01/draas/demo/tenants';
        expect(requestTarget(base, path, query), JSON.stringify(query)).toEqual(byParser(base, path, query));
      }
    }
    expect(requestTarget(base, '/api/v01/draas/demo/tenants', { page: 1 }).path).toBe(
      '/api/v01/draas/demo/tenants?page=1',
    );
  });

  it('equals the parser on 20,000 generated paths and queries: encoding, dot segments, escapes, own queries', () => {
    const next = generator(7);
    let textBuilt = 0;
    let plainQueries = 0;
    for (let i = 0; i < 20_000; i++) {
      const base = new URL(BASES[next(BASES.length)]!);
      let path = next(4) === 0 ? '' : '/';
      const pieces = 1 + next(8);
      for (let p = 0; p < pieces; p++) path += PIECES[next(PIECES.length)];
      const query = generatedQuery(next);
      const where = JSON.stringify({ base: base.href, path, query });
      let expected;
      try {
        expected = byParser(base, path, query);
      } catch {
        // A path the parser refuses (`//` and then no valid host) is refused the same way.
        expect(() => requestTarget(base, path, query), where).toThrow(TypeError);
        continue;
      }
      expect(requestTarget(base, path, query), where).toEqual(expected);
      if (/^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/.test(path)) textBuilt++;
      const values = query === undefined ? [] : Object.values(query);
      if (
        values.length > 0 &&
        values.every((v) => v === null || (typeof v !== 'object' && /^[\w*.-]*$/.test(String(v))))
      )
        plainQueries++;
    }
    // The text-built way was taken often enough, for paths and for queries, for the comparison to mean something.
    expect(textBuilt).toBeGreaterThan(3000);
    expect(plainQueries).toBeGreaterThan(3000);
  });

  it('leaves a path that starts with two slashes to the parser (it reads them as a host)', () => {
    const base = new URL('https://platform.example.net');
    expect(requestTarget(base, '//other.example/x', undefined)).toEqual(byParser(base, '//other.example/x', undefined));
  });
});
