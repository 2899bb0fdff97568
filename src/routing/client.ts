import pLimit from 'p-limit';
import type { ConcurrencyReport } from '../api/adaptive-concurrency.js';
import type { ClientStats } from '../api/types.js';
import { slotsOf } from '../api/limiter.js';
import type { Logger } from '../core/logger.js';
import type { ReadMeter } from '../core/read-meter.js';
import { silentLogger } from '../core/logger.js';
import { RoutingApiError } from './errors.js';
import { RoutingHttp, type RoutingConnection, type RoutingRequestStats } from './http.js';
import { encodeQuery, keysFilter, type Filter, type RoutingQuery } from './query.js';
import { label } from './row-key.js';
import type { RoutingPage, RoutingRecord, RoutingTableRef } from './types.js';

export interface RoutingClientOptions extends RoutingConnection {
  /** Page size asked for when reading a whole table; the server caps it (default 10,000). */
  readPageSize?: number;
  logger?: Logger;
  /** Counts the pages read and the rows they held (the progress line of plan). */
  meter?: ReadMeter;
}

/** The routing engine's request figures (`plan --stats`): as the platform client's, without logins. */
export type RoutingStats = Omit<ClientStats, 'reauthentications' | 'tokenRenewals'>;

/** A whole table (or search result) and how it was read. */
export interface ReadAllResult {
  rows: RoutingRecord[];
  /** The page size the server actually used (its cap, when it has one). */
  pageSize: number;
  /** List requests sent. */
  requests: number;
  /** Pages of the read that counted: more than one, and the table could shift between two of them. */
  pages: number;
}

/**
 * Rows looked up by key per request: a page at the usual cap (Flask-Restless's 100) holds
 * them all, and the `q` stays short enough for a request line (gunicorn takes 4,094 bytes).
 */
const KEYS_PER_LOOKUP = 100;
const MAX_LOOKUP_QUERY = 3000;

/**
 * The routing engine's record API (Doc3 §4.2). Reads go through `q` in the URL; collection
 * updates always carry their filter in the JSON body, never in the URL, so an engine that
 * ignores a URL filter cannot turn a targeted update into an update of every row.
 */
/** Page size used when an engine answers 400 to a larger one (the usual Flask-Restless cap). */
const FALLBACK_PAGE_SIZE = 100;
/** Reads of one table before it is declared unsettled (the first read included). */
export const MAX_TABLE_READS = 3;
/** Pause before re-reading a table that changed, times the number of reads so far. */
const REREAD_PAUSE_MS = 250;

export class RoutingClient {
  readonly http: RoutingHttp;
  readonly logger: Logger;
  /** Tasks the client's loops keep going at once: the most requests its limiter ever lets run. */
  readonly concurrency: number;
  private readonly readPageSize: number;
  private readonly meter: ReadMeter | undefined;

  constructor(options: RoutingClientOptions) {
    this.meter = options.meter;
    this.concurrency = slotsOf(options.concurrency ?? 8);
    this.http = new RoutingHttp({ ...options, connections: options.connections ?? this.concurrency });
    this.logger = options.logger ?? silentLogger;
    this.readPageSize = options.readPageSize ?? 10_000;
  }

  /** Requests sent, by method. */
  get stats(): RoutingRequestStats {
    return this.http.stats;
  }

  /**
   * What `--stats` prints: attempts, retries, errors, status classes, bytes and time per
   * method and route pattern (`GET /draas/active/routes`, `DELETE /draas/active/routes/{id}`),
   * the totals, and what `--concurrency auto` did.
   */
  requestStats(): RoutingStats {
    const { reauthentications: _none, ...totals } = this.http.requestStats.snapshot();
    const concurrency = this.concurrencyReport();
    return { ...totals, ...(concurrency ? { concurrency } : {}) };
  }

  /** One list page; null when the engine answers 404 (no data / no match, Doc3 §4.2). */
  async listPage(
    ref: RoutingTableRef,
    opts: { q?: RoutingQuery; page?: number; resultsPerPage?: number } = {},
  ): Promise<RoutingPage | null> {
    const params = [
      ...(opts.q ? [encodeQuery(opts.q)] : []),
      ...(opts.resultsPerPage ? [`results_per_page=${opts.resultsPerPage}`] : []),
      ...(opts.page ? [`page=${opts.page}`] : []),
    ];
    try {
      const res = await this.http.request('GET', basePath(ref), params.join('&'));
      const page = asPage('GET', basePath(ref), res.body);
      this.meter?.page(page.objects.length);
      return page;
    } catch (error) {
      if (error instanceof RoutingApiError && error.status === 404) return null;
      throw error;
    }
  }

  /**
   * Reads every matching row, consistently: when the rows read differ in number from
   * `num_results`, or `num_results` differs from one page to the next, the table was
   * written to meanwhile (a row deleted on page 1 slides one from page 2, unseen), and it is
   * read again, at most {@link MAX_TABLE_READS} times; then the read fails naming the table.
   */
  async readAll(ref: RoutingTableRef, q?: RoutingQuery): Promise<ReadAllResult> {
    let requests = 0;
    for (let read = 1; ; read++) {
      const { change, ...result } = await this.readAllOnce(ref, q);
      requests += result.requests;
      if (change === undefined) return { ...result, requests };
      if (read >= MAX_TABLE_READS) {
        const serverMessage =
          `the table changed while it was read (${change}), ${read} reads in a row: something is writing to it; ` +
          'no plan is made from a table read half before and half after a change. Run again when it is quiet';
        throw new RoutingApiError('SB_ROUTING_LIST_CHANGED', {
          method: 'GET',
          path: basePath(ref),
          status: 200,
          serverMessage,
          retryable: false,
        });
      }
      this.logger.warn(
        { table: basePath(ref), change, read },
        'routing table changed while it was read; reading it again',
      );
      await new Promise((resolve) => setTimeout(resolve, REREAD_PAUSE_MS * read));
    }
  }

  /**
   * One read of every matching row: the first page with a large page size tells the server's
   * cap (the length of a full first page), then the other pages go out concurrently.
   */
  private async readAllOnce(ref: RoutingTableRef, q?: RoutingQuery): Promise<ReadAllResult & { change?: string }> {
    let want = this.readPageSize;
    let refused = 0;
    let first: RoutingPage | null;
    try {
      first = await this.listPage(ref, { ...(q ? { q } : {}), page: 1, resultsPerPage: want });
    } catch (error) {
      // An engine that refuses a big page size instead of capping it gets the common cap.
      if (!(error instanceof RoutingApiError) || error.status !== 400 || want <= FALLBACK_PAGE_SIZE) throw error;
      this.logger.warn(
        { table: basePath(ref), asked: want },
        `routing engine refused results_per_page=${want}; reading ${FALLBACK_PAGE_SIZE} per page`,
      );
      want = FALLBACK_PAGE_SIZE;
      refused = 1;
      first = await this.listPage(ref, { ...(q ? { q } : {}), page: 1, resultsPerPage: want });
    }
    if (!first) {
      // Doc3 §4.2: a list answers 404 "when data not found", so an empty table is a 404 (some
      // engines answer 200 with num_results 0 instead: both read as no rows).
      this.logger.debug({ table: basePath(ref) }, 'routing engine answered 404 to a list: no rows');
      return { rows: [], pageSize: want, requests: refused + 1, pages: 1 };
    }
    const totalPages = Math.max(first.total_pages, 0);
    const pageSize = totalPages > 1 ? first.objects.length : want;
    const limit = pLimit(this.concurrency);
    const rest = await Promise.all(
      Array.from({ length: Math.max(totalPages - 1, 0) }, (_, i) =>
        limit(() => this.listPage(ref, { ...(q ? { q } : {}), page: i + 2, resultsPerPage: want })),
      ),
    );
    const rows = first.objects.slice();
    for (const page of rest) for (const row of page?.objects ?? []) rows.push(row); // no spread: 100,000 pages would overflow the argument list
    const moved = rest.find((page) => (page?.num_results ?? 0) !== first.num_results);
    const change =
      moved !== undefined
        ? `num_results was ${first.num_results}, then ${moved?.num_results ?? 'a page was gone (404)'}`
        : rows.length !== first.num_results
          ? `num_results is ${first.num_results}, but ${rows.length} rows were read`
          : undefined;
    const pages = Math.max(totalPages, 1);
    return { rows, pageSize, requests: refused + pages, pages, ...(change ? { change } : {}) };
  }

  /**
   * The live rows whose key equals one of `rows`' keys (compared as the row diff labels
   * them), found with `q` filters on the key fields (Doc3 §4.1), a hundred keys a request:
   * what a second look at a table read page by page finds of the rows a plan would create.
   */
  async findByKeys(
    ref: RoutingTableRef,
    key: readonly string[],
    rows: readonly Record<string, unknown>[],
  ): Promise<RoutingRecord[]> {
    const wanted = new Set(rows.map((row) => label(row, key)));
    const batches: Record<string, unknown>[][] = [];
    let batch: Record<string, unknown>[] = [];
    let length = 0;
    for (const row of rows) {
      // Each key's share of the encoded `q` (its values, or its `and` group, and a comma).
      const share =
        encodeURIComponent(JSON.stringify(key.length === 1 ? row[key[0] as string] : keysFilter(key, [row]))).length +
        3;
      if (batch.length > 0 && (batch.length >= KEYS_PER_LOOKUP || length + share > MAX_LOOKUP_QUERY)) {
        batches.push(batch);
        batch = [];
        length = 0;
      }
      batch.push(row);
      length += share;
    }
    if (batch.length > 0) batches.push(batch);
    const limit = pLimit(this.concurrency);
    const found = await Promise.all(
      batches.map((b) => limit(async () => (await this.readAll(ref, { filters: keysFilter(key, b) })).rows)),
    );
    return found.flat().filter((row) => wanted.has(label(row, key)));
  }

  async get(ref: RoutingTableRef, id: number): Promise<RoutingRecord | null> {
    try {
      return asRecord('GET', itemPath(ref, id), (await this.http.request('GET', itemPath(ref, id), '')).body);
    } catch (error) {
      if (error instanceof RoutingApiError && error.status === 404) return null;
      throw error;
    }
  }

  /** `POST <base>`: 201 with the record and its new id. */
  async create(ref: RoutingTableRef, values: Record<string, unknown>): Promise<RoutingRecord> {
    return asRecord('POST', basePath(ref), (await this.http.request('POST', basePath(ref), '', values)).body);
  }

  /**
   * Whether the engine serves `POST <base>/_bulk` (Document 3 §4.2 lists it; plain
   * Flask-Restless engines lack it), asked with `OPTIONS <base>/_bulk` (not shown in
   * Document 3; Flask answers it for every route): false on 404, or when `Allow` lists no
   * POST (the record route took `_bulk` for an id); undefined when the answer says nothing
   * (no `Allow`, another status): the apply then tries `_bulk` and falls back on 404/405.
   */
  async bulkSupport(ref: RoutingTableRef): Promise<boolean | undefined> {
    const path = `${basePath(ref)}/_bulk`;
    try {
      const res = await this.http.request('OPTIONS', path, '');
      const allow = res.headers['allow'];
      const text = Array.isArray(allow) ? allow.join(',') : allow;
      if (!text) return undefined;
      return text.split(',').some((m) => m.trim().toUpperCase() === 'POST');
    } catch (error) {
      if (!(error instanceof RoutingApiError) || error.status === 0) throw error;
      return error.status === 404 ? false : undefined;
    }
  }

  /**
   * Why nothing more is sent to the engine in this run (it is gone, or was given up on: see
   * Reachability); undefined while requests may go.
   */
  get unreachable(): string | undefined {
    return this.http.reach.unreachable;
  }

  /**
   * Nothing more is sent to the engine in this run, for `reason` (it answered in a way that shows
   * it does not do what it is asked): requests in flight are cancelled, new ones are not sent
   * (`SB_ROUTING_UNREACHABLE`), and {@link unreachable} says `reason`.
   */
  giveUp(reason: string): void {
    this.http.reach.giveUp(reason);
  }

  /** Ends the run's traffic: requests in flight are cancelled, new ones fail at once (`SB_ROUTING_ABORTED`). */
  cancel(why: string): void {
    this.http.reach.cancel(why);
  }

  /**
   * `POST <base>/_bulk`: one transaction; the error's `index` names the failing record. The
   * count the engine says it inserted (Doc3 §4.2: 201 with `inserted`), undefined when its
   * answer has none: the caller cannot take all of them as created then.
   */
  async bulkCreate(ref: RoutingTableRef, records: Record<string, unknown>[]): Promise<number | undefined> {
    const path = `${basePath(ref)}/_bulk`;
    const body = (await this.http.request('POST', path, '', records)).body as { inserted?: unknown } | null;
    return typeof body?.inserted === 'number' ? body.inserted : undefined;
  }

  /** `PATCH <base>/<id>`: 200 with the full updated record. */
  async update(ref: RoutingTableRef, id: number, changes: Record<string, unknown>): Promise<RoutingRecord> {
    return asRecord(
      'PATCH',
      itemPath(ref, id),
      (await this.http.request('PATCH', itemPath(ref, id), '', changes)).body,
    );
  }

  /**
   * `PATCH <base>` with `{...changes, q: {filters}}` in the body → `num_modified`. The filter
   * must not be empty: an empty one would mean "every row".
   */
  async updateWhere(ref: RoutingTableRef, filters: Filter[], changes: Record<string, unknown>): Promise<number> {
    if (filters.length === 0) throw new Error('updateWhere needs a filter; an empty filter updates every row');
    if ('q' in changes) throw new Error('a field named "q" cannot be updated through a collection PATCH');
    const res = await this.http.request('PATCH', basePath(ref), '', { ...changes, q: { filters } });
    const n = (res.body as { num_modified?: unknown } | null)?.num_modified;
    if (typeof n !== 'number') {
      throw new RoutingApiError('SB_ROUTING_RESPONSE', {
        method: 'PATCH',
        path: basePath(ref),
        status: res.status,
        serverMessage: 'answer has no integer "num_modified"',
        retryable: false,
      });
    }
    return n;
  }

  /** `DELETE <base>/<id>`; an id that is already gone (404) counts as deleted. */
  async delete(ref: RoutingTableRef, id: number): Promise<'deleted' | 'absent'> {
    try {
      await this.http.request('DELETE', itemPath(ref, id), '');
      return 'deleted';
    } catch (error) {
      if (error instanceof RoutingApiError && error.status === 404) return 'absent';
      throw error;
    }
  }

  /** What `--concurrency auto` did (undefined for a fixed number). */
  concurrencyReport(): ConcurrencyReport | undefined {
    return this.http.limiter.report();
  }

  async close(): Promise<void> {
    const concurrency = this.concurrencyReport();
    if (concurrency) this.logger.info({ concurrency }, 'routing engine: what --concurrency auto did');
    await this.http.close();
  }
}

export function basePath(ref: RoutingTableRef): string {
  return `/${encodeURIComponent(ref.service)}/${encodeURIComponent(ref.version)}/${encodeURIComponent(ref.table)}`;
}

function itemPath(ref: RoutingTableRef, id: number): string {
  return `${basePath(ref)}/${id}`;
}

function asPage(method: string, path: string, body: unknown): RoutingPage {
  const b = body as Partial<RoutingPage> | null;
  if (!b || !Array.isArray(b.objects)) {
    throw new RoutingApiError('SB_ROUTING_RESPONSE', {
      method,
      path,
      status: 200,
      serverMessage: 'list answer has no "objects" array',
      retryable: false,
    });
  }
  const objects = b.objects;
  return {
    objects,
    num_results: typeof b.num_results === 'number' ? b.num_results : objects.length,
    page: typeof b.page === 'number' ? b.page : 1,
    total_pages: typeof b.total_pages === 'number' ? b.total_pages : objects.length ? 1 : 0,
  };
}

function asRecord(method: string, path: string, body: unknown): RoutingRecord {
  const b = body as { id?: unknown } | null;
  if (!b || typeof b.id !== 'number') {
    throw new RoutingApiError('SB_ROUTING_RESPONSE', {
      method,
      path,
      status: 200,
      serverMessage: 'record answer has no integer "id"',
      retryable: false,
    });
  }
  return b as RoutingRecord;
}
