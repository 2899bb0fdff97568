import { isDeepStrictEqual } from 'node:util';
import { sharedAbortController } from '../core/abort.js';
import type { Logger } from '../core/logger.js';
import { ApiError, ApiErrorCode } from './errors.js';
import { sleep } from './retry.js';
import { isJsonObject, pageNumber, toInteger, type JsonObject } from './normalize.js';
import type { ApiResponse, ListOptions, Query } from './types.js';

/** Fetches one page (a GET of the list path with this query); 404 resolves when allowed. */
export type PageFetcher = (query: Query, signal: AbortSignal | undefined) => Promise<ApiResponse<unknown>>;

const DEFAULT_PAGE_SIZE = 1000;
/** Guard against servers that never stop handing out `next` tokens. */
const MAX_PAGES = 10_000;
/** Reads of one list before it is declared unsettled (the first read included). */
export const MAX_LIST_READS = 3;
/** Pause before re-reading a list that changed, times the number of reads so far. */
const REREAD_PAUSE_MS = 250;

interface PageMeta {
  results?: number;
  pages?: number;
  page?: number;
  next?: string;
}

/**
 * Reads every item of a list (Doc1 §1.8). Page style: page 1 first, then the remaining
 * pages concurrently, planned from the number of items page 1 really held (a server may
 * cap `page_size`) and from `results`/`pages`. Token style: follows `next` one page at a
 * time. A response that carries the other style's fields is followed that way when its
 * own style would stop early. One failing page cancels the others.
 *
 * A list read must be consistent, or no plan is made from it: an object deleted on page 1
 * while page 2 is fetched slides an item onto page 1, unseen, and the plan would create it
 * again. So when the items read differ in number from `results`, or `results` differs from
 * one page to the next, the whole list is read again (at most {@link MAX_LIST_READS}
 * times), then the read fails with `SB_API_LIST_CHANGED` naming the list.
 */
export async function collectPages(options: ListOptions, fetchPage: PageFetcher, logger: Logger): Promise<unknown[]> {
  for (let read = 1; ; read++) {
    const reader = new PageReader(options, fetchPage);
    const items = await reader.read();
    const change = reader.changeSeen(items.length);
    if (change === undefined) {
      options.onRead?.({ pages: reader.pagesRead });
      return items;
    }
    if (read >= MAX_LIST_READS) throw reader.unsettled(change, read);
    logger.warn({ path: options.path, change, read }, 'list changed while it was read; reading it again');
    try {
      await sleep(REREAD_PAUSE_MS * read, options.signal);
    } catch {
      throw reader.unsettled(change, read);
    }
  }
}

/**
 * Where an answer keeps its page fields: at the top (Doc1 §1.8), or, when the top has
 * none, in the first entry of a `pagination` array (Doc2 §4.1 entitlement types, whose
 * content is not shown).
 */
function pageFields(body: JsonObject): JsonObject {
  if (body['results'] !== undefined || body['pages'] !== undefined || body['page'] !== undefined) return body;
  const pagination = body['pagination'];
  return Array.isArray(pagination) && isJsonObject(pagination[0]) ? pagination[0] : body;
}

class PageReader {
  private readonly size: number;
  private readonly sizeParam: string;
  /**
   * Cancels the other pages when one fails; made only when pages are read concurrently
   * (a single page or a `next` chain has nothing else in flight). An AbortController and
   * its signal for every list cost ~8 µs; most lists are one page.
   */
  private controller: AbortController | undefined;
  private signal: AbortSignal | undefined;
  /** `results` of every page read, in the order they arrived. */
  private readonly totals: number[] = [];
  /** Requests this read sent: more than one, and the list could shift between two of them. */
  pagesRead = 0;

  constructor(
    private readonly options: ListOptions,
    private readonly fetchPage: PageFetcher,
  ) {
    this.size = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.sizeParam = options.pageSizeParam ?? 'page_size';
    this.signal = options.signal;
  }

  /** From now on every page can be cancelled with the others: pages are about to be read concurrently. */
  private cancelTogether(): void {
    if (this.controller) return;
    this.controller = sharedAbortController();
    const { signal } = this.options;
    this.signal = signal ? AbortSignal.any([signal, this.controller.signal]) : this.controller.signal;
  }

  async read(): Promise<unknown[]> {
    try {
      if (this.options.style === 'none') return await this.plain();
      if (this.options.style === 'token') return await this.tokens();
      return await this.pages();
    } catch (error) {
      // Only a failed read can leave pages in flight. Aborting after every successful list
      // cost ~40 µs (an AbortError DOMException and its event), 0.4 s of CPU per 10,000 lists.
      this.controller?.abort();
      throw error;
    }
  }

  /** How the list changed during the read (undefined when it did not, or cannot tell). */
  changeSeen(read: number): string | undefined {
    const first = this.totals[0];
    if (first === undefined) return undefined;
    const moved = this.totals.find((t) => t !== first);
    if (moved !== undefined) return `results was ${first}, then ${moved}`;
    return read === first ? undefined : `results is ${first}, but ${read} items were read`;
  }

  unsettled(change: string, reads: number): ApiError {
    const detail =
      `the list "${this.options.itemsKey}" changed while it was read (${change}), ${reads} reads in a row: ` +
      'something is writing to it; no plan is made from a list read half before and half after a change. Run again when it is quiet';
    return new ApiError({
      code: ApiErrorCode.listChanged,
      method: 'GET',
      path: this.options.path,
      status: 200,
      retryable: false,
      detail,
      ...(this.options.role ? { role: this.options.role } : {}),
    });
  }

  async plain(): Promise<unknown[]> {
    this.pagesRead++;
    const response = await this.fetchPage(this.options.query ?? {}, this.signal);
    if (response.status === 404) return [];
    if (Array.isArray(response.body)) return response.body;
    return this.itemsOf(response.body, undefined);
  }

  async pages(): Promise<unknown[]> {
    const first = await this.fetch({ page: 1 });
    if (!first) return [];
    const meta = this.meta(first, 1);
    const items = this.itemsOf(first, meta);
    if (meta.results === undefined && meta.pages === undefined) {
      if (meta.next) return [...items, ...(await this.followTokens(meta.next))];
      // Neither totals nor a token (Doc 2 §4.5's address list documents `addresses` alone): a
      // page the server may have cut at its cap is followed by the next, until a shorter one.
      return mayBeCut(items.length, this.size) ? [...items, ...(await this.readOn(items))] : items;
    }
    return [...items, ...(await this.remainingPages(items.length, meta))];
  }

  async tokens(): Promise<unknown[]> {
    const first = await this.fetch({});
    if (!first) return [];
    const meta = this.meta(first, undefined);
    const items = this.itemsOf(first, meta);
    if (meta.next) return [...items, ...(await this.followTokens(meta.next))];
    // No token although the page fields say more remain: continue in page style.
    return [...items, ...(await this.remainingPages(items.length, meta))];
  }

  private async remainingPages(firstCount: number, meta: PageMeta): Promise<unknown[]> {
    if (firstCount === 0) {
      if ((meta.results ?? 0) > 0) throw this.bad(`page 1 holds no items although results is ${meta.results}`);
      return [];
    }
    const byResults = meta.results === undefined ? 1 : Math.ceil(meta.results / firstCount);
    const total = Math.min(Math.max(meta.pages ?? 1, byResults), MAX_PAGES);
    const numbers = Array.from({ length: Math.max(0, total - 1) }, (_, i) => i + 2);
    if (numbers.length > 1) this.cancelTogether();
    const pages = await Promise.all(numbers.map((page) => this.pageItems(page)));
    const rest = pages.flat();
    let last = pages.at(-1)?.length ?? firstCount;
    let page = total;
    // A full last page with fewer items than `results`: more were added while reading,
    // or `results` was right and `pages` was not; read on until a short page.
    while (
      meta.results !== undefined &&
      firstCount + rest.length < meta.results &&
      last >= firstCount &&
      page < MAX_PAGES
    ) {
      page += 1;
      const more = await this.pageItems(page);
      rest.push(...more);
      last = more.length;
    }
    return rest;
  }

  /**
   * Pages 2, 3, … until one holds fewer items than the first (or none). A page that begins
   * with the previous page's first item means the server ignored `page` (it answers page 1
   * again): reading on would loop to {@link MAX_PAGES} and list every object many times, and
   * stopping would keep a possibly cut list, so the read fails.
   */
  private async readOn(firstPage: readonly unknown[]): Promise<unknown[]> {
    const rest: unknown[] = [];
    let previous = firstPage;
    for (let page = 2; page <= MAX_PAGES; page++) {
      const more = await this.pageItems(page);
      if (more.length > 0 && isDeepStrictEqual(more[0], previous[0])) {
        throw this.bad(
          `page ${page} begins with the same item as page ${page - 1}: the server ignores "page", ` +
            `so the items past the first ${firstPage.length} cannot be read`,
        );
      }
      rest.push(...more);
      if (more.length < firstPage.length) break;
      previous = more;
    }
    return rest;
  }

  private async pageItems(page: number): Promise<unknown[]> {
    const body = await this.fetch({ page });
    if (!body) return [];
    return this.itemsOf(body, this.meta(body, page));
  }

  private async followTokens(start: string): Promise<unknown[]> {
    const seen = new Set<string>();
    const items: unknown[] = [];
    let next: string | undefined = start;
    while (next) {
      if (seen.has(next) || seen.size >= MAX_PAGES) throw this.bad('the server handed out the same next token twice');
      seen.add(next);
      const body = await this.fetch({ next });
      if (!body) break;
      const meta = this.meta(body, undefined);
      items.push(...this.itemsOf(body, meta));
      next = meta.next;
    }
    return items;
  }

  /** One GET; undefined for a 404 accepted as "none". */
  private async fetch(extra: Query): Promise<JsonObject | undefined> {
    const query: Query = { ...this.options.query, [this.sizeParam]: this.size, ...extra };
    this.pagesRead++;
    const response = await this.fetchPage(query, this.signal);
    if (response.status === 404) return undefined;
    if (!isJsonObject(response.body)) throw this.bad('the list answer is not a JSON object', response.status);
    return response.body;
  }

  private meta(answer: JsonObject, requestedPage: number | undefined): PageMeta {
    const body = pageFields(answer);
    const page = pageNumber(body['page']);
    if (requestedPage !== undefined && page !== undefined && page !== requestedPage) {
      throw this.bad(`asked for page ${requestedPage}, got page ${page}`);
    }
    const next = body['next'];
    const results = toInteger(body['results']);
    if (results !== undefined) this.totals.push(results);
    return {
      results,
      pages: toInteger(body['pages']),
      page,
      next: typeof next === 'string' && next !== '' ? next : undefined,
    };
  }

  private itemsOf(body: unknown, meta: PageMeta | undefined): unknown[] {
    const record = isJsonObject(body) ? body : {};
    const items = record[this.options.itemsKey];
    if (Array.isArray(items)) return items;
    if (items === undefined && (meta?.results === 0 || meta?.pages === 0)) return [];
    throw this.bad(`the answer has no array "${this.options.itemsKey}"`);
  }

  private bad(detail: string, status = 200): ApiError {
    return new ApiError({
      code: ApiErrorCode.badResponse,
      method: 'GET',
      path: this.options.path,
      status,
      retryable: false,
      detail,
      ...(this.options.role ? { role: this.options.role } : {}),
    });
  }
}

/**
 * The smallest cap a platform can put on a page: Document 1 §1.8 and §8 give `page_size` a
 * default of 10 (the smallest page size the documents show; the suspension profiles' `size`
 * defaults to 25) and no maximum, and a cap below the default would cut the lists of clients
 * that send no `page_size` at all.
 */
const SMALLEST_PAGE_CAP = 10;

/**
 * Whether a page without totals may have been cut at the server's cap: it holds all that was
 * asked, or at least {@link SMALLEST_PAGE_CAP} items, since the cap may be any number from
 * there (10, 25, 37…). A shorter page is the whole list; a longer one costs one more request
 * to be sure.
 */
function mayBeCut(count: number, asked: number): boolean {
  return count > 0 && (count >= asked || count >= SMALLEST_PAGE_CAP);
}
