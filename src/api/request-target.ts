import type { Query } from './types.js';

/** Where one request goes: the origin its connection is to, and the request-target line it sends. */
export interface RequestTarget {
  /** `https://host:port`, as `URL.origin` gives it. */
  origin: string;
  /** The path and query, as `URL.pathname + URL.search` give them. */
  path: string;
}

/**
 * A path the URL parser leaves as it is: unreserved and sub-delimiter characters, `:`, `@`,
 * `/` and escapes, starting with one `/` (two would name a host). Anything else (a space, a
 * non-ASCII letter, `\`, `?`, `#`, `^`…) is encoded or reinterpreted by the parser.
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
/** A segment the parser resolves (`.`, `..`, and their escaped spellings). */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * Joins the base URL's path prefix, the API path and the query into what `new URL` would
 * make of them. Built as text when the URL parser would not change it (every path the kind
 * table writes: the parser and its object's getters cost about 1 µs more per request, 0.3 s
 * of a national export's 300,000), by the parser otherwise; test/api/request-target.test.ts
 * compares the two.
 */
export function requestTarget(base: URL, path: string, query: Query | undefined): RequestTarget {
  const { prefix, origin } = partsOf(base);
  const joined = `${prefix}${path.startsWith('/') ? path : `/${path}`}`;
  if (!PLAIN_PATH.test(joined) || DOT_SEGMENT.test(joined)) return parsedTarget(base, joined, query);
  const text = query === undefined ? '' : (plainQueryText(query) ?? queryText(new URLSearchParams(), query));
  return { origin, path: text === '' ? joined : `${joined}?${text}` };
}

/**
 * A base URL's origin and path prefix, read once: each read of `URL.origin` or `URL.pathname`
 * makes a new string. The client's base URL is parsed once and never changed.
 */
const baseParts = new WeakMap<URL, { prefix: string; origin: string }>();
function partsOf(base: URL): { prefix: string; origin: string } {
  let parts = baseParts.get(base);
  if (parts === undefined) {
    parts = { prefix: base.pathname.replace(/\/+$/, ''), origin: base.origin };
    baseParts.set(base, parts);
  }
  return parts;
}

/** The same through the URL parser: a path it encodes or resolves, or one that brings a query of its own. */
function parsedTarget(base: URL, joined: string, query: Query | undefined): RequestTarget {
  const url = new URL(joined, base.origin);
  if (query !== undefined) {
    // Each append to `url.searchParams` serialises the whole query into the URL again; the
    // same parameters gathered first and set once give the same text (already encoded, the
    // URL parser leaves it as it is). Only when the path brings no query of its own.
    const own = url.search !== '';
    const text = queryText(own ? url.searchParams : new URLSearchParams(), query);
    if (!own && text !== '') url.search = text;
  }
  return { origin: url.origin, path: `${url.pathname}${url.search}` };
}

/** Appends the query's parameters (lists repeated, objects as JSON); returns them serialised. */
function queryText(params: URLSearchParams, query: Query): string {
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else if (typeof value === 'object') params.append(key, JSON.stringify(value));
    else params.append(key, String(value));
  }
  return params.toString();
}

/** Text the form encoding of a query leaves as it is. */
const PLAIN_PARAM = /^[A-Za-z0-9*\-._]*$/;

/**
 * {@link queryText} of a query whose keys and values it would not encode (page numbers and
 * sizes, uuids), joined as text; undefined for any other.
 */
function plainQueryText(query: Query): string | undefined {
  let text = '';
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'object' || !PLAIN_PARAM.test(key)) return undefined;
    const shown = String(value);
    if (!PLAIN_PARAM.test(shown)) return undefined;
    text += `${text === '' ? '' : '&'}${key}=${shown}`;
  }
  return text;
}
