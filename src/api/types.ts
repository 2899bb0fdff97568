import type { ConcurrencyReport } from './adaptive-concurrency.js';
import type { ConcurrencySetting } from './limiter.js';
import type { Logger } from '../core/logger.js';
import type { ReadMeter } from '../core/read-meter.js';

/** HTTP methods the platform API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A query value; arrays repeat the parameter, objects are sent as JSON text (e.g. `filters`). */
export type QueryValue =
  string | number | boolean | null | undefined | readonly (string | number)[] | Record<string, unknown>;
export type Query = Readonly<Record<string, QueryValue>>;

/** Username/password login, with an optional RFC 6238 secret for the `totp` second factor. */
export interface PasswordAuth {
  username: string;
  password: string;
  /** Base32 secret of the user's authenticator (the one behind the QR code). */
  totpSecret?: string;
}

/** The user's immutable machine-to-machine token, used directly as bearer (Doc1 §2.1). */
export interface TokenAuth {
  token: string;
}

export type AuthConfig = PasswordAuth | TokenAuth;

export function isTokenAuth(auth: AuthConfig): auth is TokenAuth {
  return typeof (auth as TokenAuth).token === 'string';
}

/** Retry policy for requests that are safe to repeat (GET, PUT, DELETE). */
export interface RetryOptions {
  /** Re-sends after the first attempt (default 5). */
  retries: number;
  /** No retry starts later than this after the first attempt (default 60 000 ms). */
  maxElapsedMs: number;
  /** First backoff ceiling (default 250 ms); doubles per retry, full jitter. */
  baseDelayMs: number;
  /** Upper bound of one backoff (default 10 000 ms). */
  maxDelayMs: number;
}

/** Options of `ApiClient.connect`. */
export interface ApiClientOptions {
  /** `{base_url}`: scheme, host, port, optionally a path prefix; no trailing slash needed. */
  baseUrl: string;
  /** `{draas_instance}`; when omitted it is taken from the profile's `properties.draas_instance`. */
  instance?: string;
  auth: AuthConfig;
  /** Maximum requests in flight for the whole client, or `auto` to find it (default 8). */
  concurrency?: ConcurrencySetting;
  /** Timeout of one attempt, headers and body included (default 30 000 ms). */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  logger?: Logger;
  /** PEM file of the CA that signed the platform's certificate. */
  caFile?: string;
  /** Skip TLS verification and allow credentials over plain http (tests, labs). */
  insecure?: boolean;
  /** Access-token lifetime (Doc1 §8: 2 minutes). */
  accessTokenTtlMs?: number;
  /** Renew the access token when less than this is left (default 20 000 ms). */
  refreshMarginMs?: number;
  /** Monotonic clock in ms (default `performance.now`); injectable for tests. */
  monotonicNow?: () => number;
  /** Wall clock in ms for TOTP codes (default `Date.now`). */
  wallNow?: () => number;
  /** Counts the list pages read and the items they held (the progress line of plan and export). */
  meter?: ReadMeter;
}

/** One platform API call; `T` is the body type `decode` produces. */
export interface RequestOptions<T = unknown> {
  method: HttpMethod;
  /** Absolute API path (`/api/v01/...`), without the base URL's path prefix. */
  path: string;
  query?: Query;
  /** JSON body (objects and arrays are serialised; undefined sends none). */
  body?: unknown;
  /** The endpoint's role, named in the message of a 403. */
  role?: string;
  /** Statuses treated as success besides 2xx (e.g. `[404]` for an idempotent delete). */
  okStatuses?: readonly number[];
  /**
   * The request creates, whatever its method (a bulk PUT starts a job that creates, Doc 2
   * §4.5): retried and reported as a POST is, never re-sent after an answer that may mean it
   * took effect.
   */
  creates?: true;
  /** A 404 resolves with `body: undefined` instead of failing (lists that answer 404 "when none"). */
  notFoundIsEmpty?: boolean;
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
  /** `json` (default) parses the body; `text` returns it as a string (CSV downloads). */
  responseType?: 'json' | 'text';
  /** Route pattern for the request accounting; derived from the path when omitted. */
  route?: string;
  /**
   * Checks and converts a success body; whatever it throws becomes SB_API_BAD_RESPONSE
   * (SB_API_OUTCOME_UNKNOWN for a POST) naming the request, so a wrong shape is never an
   * uncaught exception. Not called for empty bodies or an accepted 404.
   */
  decode?: (body: unknown) => T;
}

/** A successful answer. `body` is undefined for empty bodies (204, accepted 404). */
export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Options of `listPages`. */
export interface ListOptions {
  path: string;
  /** Key of the item array in each response (`tenants`, `numbers`, `callingPlans`). */
  itemsKey: string;
  /**
   * `page`: `page`/`page_size` → `results`/`pages`/`page`; `token`: `page_size`/`next`;
   * `none`: one plain GET (Doc1 §1.8). Responses carrying the other style's fields are
   * followed too (see docs/development.md "Pagination").
   */
  style: 'page' | 'token' | 'none';
  query?: Query;
  role?: string;
  /** A 404 means "no items" (Doc2 §4.9 calling plans and prefixes). */
  notFoundIsEmpty?: boolean;
  /** Requested page size (default 1000; the server may cap it). */
  pageSize?: number;
  /** Name of the page-size parameter (default `page_size`; suspension profiles use `size`). */
  pageSizeParam?: string;
  signal?: AbortSignal;
  /**
   * Told how a consistent read went: the requests it took. A list read in more than one
   * could have shifted between two of them unseen (docs/reliability.md).
   */
  onRead?: (read: { pages: number }) => void;
}

/** Request accounting of one method and route pattern. */
export interface RouteStats {
  method: string;
  route: string;
  /** HTTP attempts sent (retries and re-authentications included). */
  requests: number;
  retries: number;
  /** Attempts that ended in an error status or no response. */
  errors: number;
  bytesIn: number;
  bytesOut: number;
  /** Wall time spent in attempts, ms. */
  timeMs: number;
  /** Attempts by how they ended: `2xx`, `3xx`, `4xx`, `5xx`, or `none` (no answer). */
  statuses: Record<string, number>;
}

/** `client.stats()`: totals plus one row per method and route, for `--stats`. */
export interface ClientStats {
  requests: number;
  retries: number;
  errors: number;
  /** Requests repeated with a fresh token after a 401. */
  reauthentications: number;
  /** Refreshes and logins after the first login (proactive or after a 401). */
  tokenRenewals: number;
  bytesIn: number;
  bytesOut: number;
  timeMs: number;
  routes: RouteStats[];
  /** What `--concurrency auto` did (absent for a fixed number). */
  concurrency?: ConcurrencyReport;
}
