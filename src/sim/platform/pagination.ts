/**
 * Pagination of Document 1 §1.8 and the common list parameters of §1.9.
 *
 * - Page style: `page` (default 1) and `page_size` (default 10) → `results`, `pages`, `page`.
 * - Token style: `page_size` and `next` → `next` only while more rows remain. The token is
 *   base64url JSON of the original query (search, sort, dir, page_size and the endpoint's
 *   own filters such as `parent`) plus the offset, so later calls may send `next` alone;
 *   when they also send filters, the token's win (it pins the listing it started), while an
 *   explicit `page_size` is honoured. Token-style responses also carry `results`, `pages`
 *   and `page` (the spec lists them for those endpoints), and accept `page` when no `next`.
 * - `page_size` above {@link MAX_PAGE_SIZE} is capped, not refused (the spec shows no
 *   maximum; documented design decision). Below 1, or not an integer: 400.
 * - `search`: case-insensitive substring of any searchable property; `sort`: one searchable
 *   property (400 otherwise); `dir`: `asc` (default) or `desc`.
 */
import { badRequest } from './errors.js';
import type { IndexedTable, Scope } from './store/table.js';
import type { AnswerForms } from './variants.js';

const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 10;

export interface ListQuery {
  search?: string;
  sort: string;
  dir: 'asc' | 'desc';
  pageSize: number;
  /** Index of the first row of the page. */
  offset: number;
  /** Endpoint-specific filters that the token carries (e.g. `parent`). */
  filters: Record<string, string>;
}

export interface ListOptions {
  /** Properties `search` looks through and `sort` may name. */
  searchable: readonly string[];
  defaultSort: string;
  /** Names of endpoint query parameters that the `next` token must remember. */
  filters?: readonly string[];
  /** The page-size parameter (`size` for suspension profiles, Document 1 §4.5). */
  sizeParam?: string;
  defaultPageSize?: number;
}

interface TokenPayload {
  v: 1;
  q: { search?: string; sort: string; dir: 'asc' | 'desc'; pageSize: number; filters: Record<string, string> };
  o: number;
}

/** Reads the list parameters, from the `next` token when one is given. */
export function readListQuery(query: URLSearchParams, options: ListOptions): ListQuery {
  const sizeParam = options.sizeParam ?? 'page_size';
  const explicitSize = query.get(sizeParam);
  const next = query.get('next');
  if (next) {
    const token = decodeToken(next);
    const pageSize = explicitSize === null ? token.q.pageSize : readPageSize(explicitSize, sizeParam, options);
    return { ...token.q, pageSize, offset: token.o };
  }
  const pageSize = readPageSize(explicitSize, sizeParam, options);
  const page = readPositiveInt(query.get('page'), 'page', 1);
  const sort = query.get('sort') ?? options.defaultSort;
  if (!options.searchable.includes(sort) && sort !== options.defaultSort) {
    throw badRequest('bad_sort', `sort must name a searchable property: ${options.searchable.join(', ')}`);
  }
  const dir = query.get('dir') ?? 'asc';
  if (dir !== 'asc' && dir !== 'desc') throw badRequest('bad_dir', 'dir must be asc or desc');
  const filters: Record<string, string> = {};
  for (const f of options.filters ?? []) {
    const v = query.get(f);
    if (v !== null) filters[f] = v;
  }
  const search = query.get('search') ?? undefined;
  return { ...(search ? { search } : {}), sort, dir, pageSize, offset: (page - 1) * pageSize, filters };
}

function readPageSize(raw: string | null, name: string, options: ListOptions): number {
  return Math.min(readPositiveInt(raw, name, options.defaultPageSize ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
}

function readPositiveInt(raw: string | null, name: string, fallback: number): number {
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw badRequest('bad_query', `${name} must be a positive integer`);
  return n;
}

function encodeToken(q: ListQuery, offset: number): string {
  const payload: TokenPayload = {
    v: 1,
    o: offset,
    q: {
      ...(q.search ? { search: q.search } : {}),
      sort: q.sort,
      dir: q.dir,
      pageSize: q.pageSize,
      filters: q.filters,
    },
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

function decodeToken(token: string): TokenPayload {
  try {
    const payload = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as TokenPayload;
    if (payload.v !== 1 || typeof payload.o !== 'number' || typeof payload.q?.sort !== 'string')
      throw new Error('shape');
    return payload;
  } catch {
    throw badRequest('bad_next', 'next is not a token returned by a previous page of this list');
  }
}

/** Case-insensitive substring match through the searchable properties. */
export function matchesSearch(row: object, search: string | undefined, searchable: readonly string[]): boolean {
  if (!search) return true;
  const needle = search.toLowerCase();
  const record = row as Record<string, unknown>;
  return searchable.some((p) => {
    const v = record[p];
    return v !== undefined && v !== null && String(v).toLowerCase().includes(needle);
  });
}

export interface Page<T> {
  items: T[];
  results: number;
  pages: number;
  page: number;
  /** Set (token style) only when more rows remain. */
  next?: string;
}

/** Cuts one page out of rows that are already filtered and sorted. */
export function paginate<T>(rows: readonly T[], q: ListQuery, style: 'page' | 'token'): Page<T> {
  const results = rows.length;
  const pages = Math.ceil(results / q.pageSize);
  const end = q.offset + q.pageSize;
  const page: Page<T> = {
    items: rows.slice(q.offset, end),
    results,
    pages,
    page: Math.floor(q.offset / q.pageSize) + 1,
  };
  if (style === 'token' && end < results) page.next = encodeToken(q, end);
  return page;
}

/**
 * The usual list: rows of a table scope, sorted through the table's cache, searched, then
 * paged. `keep` filters further (visibility); with neither search nor keep it costs one
 * cached lookup and a slice.
 */
export function listScope<T extends object>(
  table: IndexedTable<T>,
  scope: Scope,
  q: ListQuery,
  style: 'page' | 'token',
  searchable: readonly string[],
  keep?: (row: T) => boolean,
): Page<T> {
  let rows: readonly T[] = table.sorted(scope, { field: q.sort, dir: q.dir });
  if (q.search || keep) rows = rows.filter((r) => matchesSearch(r, q.search, searchable) && (!keep || keep(r)));
  return paginate(rows, q, style);
}

/**
 * The body fields of a page under `key` (e.g. `tenants`). `page` takes the form of the
 * answer (variant mode: an integer or its text, Document 1 §1.8, Document 2 §4.4).
 */
export function pageBody<T>(
  page: Page<T>,
  key: string,
  view: (row: T) => unknown,
  forms: AnswerForms,
): Record<string, unknown> {
  return {
    results: page.results,
    pages: page.pages,
    page: forms.form('page') === 'string' ? String(page.page) : page.page,
    ...(page.next ? { next: page.next } : {}),
    [key]: page.items.map(view),
  };
}
