import { sharedAbortController } from '../core/abort.js';
import { SwitchboardError } from '../core/errors.js';
import type { ReadMeter } from '../core/read-meter.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { assertSecureTransport } from '../config/transport-security.js';
import { TokenManager, type AuthAnswer, type AuthCall, type LoginKind } from './auth.js';
import { ApiError, ApiErrorCode } from './errors.js';
import { collectPages } from './pagination.js';
import { RequestLimiter } from './limiter.js';
import { Permissions } from './permissions.js';
import { normalizeProfile, type UserProfile } from './profile.js';
import { RequestRunner } from './request-runner.js';
import { requestTarget } from './request-target.js';
import { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, RetryBudget, isRetryable, parseRetryAfter, sleep } from './retry.js';
import { RequestStats, routePattern } from './stats.js';
import { Transport, TransportError } from './transport.js';
import type { ApiClientOptions, ApiResponse, ClientStats, ListOptions, RequestOptions, RetryOptions } from './types.js';

const PROFILE_PATH = '/api/v01/system/users/local';
const USER_AGENT = 'switchboard/0.1';
/** Doc1 §8. */
const ACCESS_TOKEN_TTL_MS = 120_000;
const REFRESH_TOKEN_TTL_MS = 48 * 3600_000;

/** Path shorthands of the spec. */
export interface ApiPaths {
  /** `P` = `/api/v01/draas/{draas_instance}` (Doc1 §1.1). */
  readonly P: string;
}

/**
 * The platform API client: one undici Pool per origin, login / 2FA / refresh / logout,
 * retries of repeatable requests, a client-wide concurrency limit, pagination, the caller's
 * profile and permissions, and request accounting. Create it with `ApiClient.connect`,
 * end it with `close()`.
 *
 * ```ts
 * const client = await ApiClient.connect({ baseUrl, instance, auth });
 * const tenants = await client.listPages<Tenant>({ path: `${client.paths.P}/tenants`, itemsKey: 'tenants', style: 'token', role: 'tenants.list' });
 * await client.close();
 * ```
 */
export class ApiClient {
  /** Path shorthands (`paths.P`). */
  readonly paths: ApiPaths;
  /** `{draas_instance}` in use. */
  readonly instance: string;
  readonly baseUrl: string;
  private closed = false;

  private constructor(
    private readonly runner: RequestRunner,
    private readonly stop: AbortController,
    private readonly tokens: TokenManager,
    private readonly transport: Transport,
    private readonly requestStats: RequestStats,
    private readonly limiter: RequestLimiter,
    private readonly logger: Logger,
    /** The caller's profile: read at connect, awaited there only when it names the instance. */
    private readonly profileRead: Promise<UserProfile>,
    private readonly profileKnown: () => { profile: UserProfile; permissions: Permissions } | undefined,
    baseUrl: string,
    instance: string,
    private readonly meter?: ReadMeter,
  ) {
    this.baseUrl = baseUrl;
    this.instance = instance;
    this.paths = { P: `/api/v01/draas/${encodeURIComponent(instance)}` };
  }

  /**
   * Logs in (for password auth) and reads the caller's profile once. Rejects with a
   * SwitchboardError (credentials over plain http, unreadable caFile, no instance) and, without
   * `instance`, with an ApiError (bad credentials, unsupported 2FA, unreachable server). With
   * `instance` given, the profile is not waited for: the first reads go out beside it (one
   * round trip less before them), those failures come from `profile()` and the first requests,
   * and `login` and `permissions` may be used once `profile()` has answered.
   */
  static async connect(options: ApiClientOptions): Promise<ApiClient> {
    const logger = options.logger ?? silentLogger;
    const base = parseBaseUrl(options.baseUrl);
    assertSecureTransport(base, options.insecure === true, 'baseUrl');
    const monotonicNow = options.monotonicNow ?? (() => performance.now());
    const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const limiter = new RequestLimiter(options.concurrency ?? 8, monotonicNow, { maxPauseMs: retry.maxElapsedMs });
    const transport = new Transport({
      ...(options.caFile ? { caFile: options.caFile } : {}),
      insecure: options.insecure === true,
      connections: limiter.slots + 2,
    });
    const stats = new RequestStats();
    const stop = sharedAbortController();
    const sendAuth = authSender(base, transport, stats, timeoutMs, retry, stop.signal);
    const tokens = new TokenManager(options.auth, sendAuth, {
      accessTokenTtlMs: options.accessTokenTtlMs ?? ACCESS_TOKEN_TTL_MS,
      refreshMarginMs: options.refreshMarginMs ?? 20_000,
      refreshTokenTtlMs: REFRESH_TOKEN_TTL_MS,
      monotonicNow,
      wallNow: options.wallNow ?? Date.now,
      logger,
    });
    // The caller's profile (its permissions word a 403): read beside the first requests when the
    // instance is configured, else waited for here (it names the instance).
    let known: { profile: UserProfile; permissions: Permissions } | undefined;
    let settle = (): void => undefined;
    const profileSettled = new Promise<void>((resolve) => (settle = resolve));
    const runner = new RequestRunner({
      stop: stop.signal,
      baseUrl: base,
      transport,
      tokens,
      limiter,
      stats,
      retry,
      timeoutMs,
      logger,
      monotonicNow,
      userAgent: USER_AGENT,
      permissions: () => known?.permissions,
      permissionsKnown: (request) => (request.path === PROFILE_PATH ? Promise.resolve() : profileSettled),
    });
    const profileRead = readProfile(runner).then((profile) => {
      known = { profile, permissions: new Permissions(profile.apiRules, logger) };
      return profile;
    });
    // Awaited by whoever asks for it (profile()); a failure nobody asked about is not an unhandled one.
    profileRead.then(settle, settle);
    try {
      const instance = options.instance ?? (await profileRead).draasInstance;
      if (!instance) {
        throw new SwitchboardError(
          'SB_CONFIG_NO_INSTANCE',
          `no instance configured and the profile of ${known?.profile.username ?? ''} has no properties.draas_instance: set "instance" for this environment (SWITCHBOARD_INSTANCE without a config file)`,
        );
      }
      return new ApiClient(
        runner,
        stop,
        tokens,
        transport,
        stats,
        limiter,
        logger,
        profileRead,
        () => known,
        base.href.replace(/\/+$/, ''),
        instance,
        options.meter,
      );
    } catch (error) {
      await tokens.logout().catch(() => undefined);
      await transport.close();
      throw error;
    }
  }

  /** One request. Success is 2xx or a status in `okStatuses`; anything else is an ApiError. */
  request<T = unknown>(options: RequestOptions<T>): Promise<ApiResponse<T>> {
    if (this.closed) return Promise.reject(new SwitchboardError('SB_API_CLOSED', 'the API client is closed'));
    return this.runner.run<T>(options);
  }

  /** Every item of a list, whatever its pagination style (see ListOptions.style). */
  async listPages<T = unknown>(options: ListOptions): Promise<T[]> {
    const route = routePattern(options.path);
    const { meter } = this;
    const items = await collectPages(
      options,
      async (query, signal) => {
        const page = await this.request<unknown>({
          method: 'GET',
          path: options.path,
          query,
          ...(signal ? { signal } : {}),
          route,
          ...(options.role ? { role: options.role } : {}),
          ...(options.notFoundIsEmpty ? { notFoundIsEmpty: true } : {}),
        });
        meter?.page(itemCount(page.body, options.itemsKey));
        return page;
      },
      this.logger,
    );
    return items as T[];
  }

  /** The caller's profile, read once at connect; rejects with the reason it could not be read. */
  profile(): Promise<UserProfile> {
    return this.profileRead;
  }

  /** Who the client acts as (the profile's username) and how it logged in, for the journal's run record. */
  get login(): { username: string; kind: LoginKind } {
    return { username: this.known().profile.username, kind: this.tokens.loginKind };
  }

  /** The caller's api_rules as a checker: `permissions.check('post', path)`. */
  get permissions(): Permissions {
    return this.known().permissions;
  }

  private known(): { profile: UserProfile; permissions: Permissions } {
    const known = this.profileKnown();
    // A caller's mistake, never the platform's: login and permissions follow `await profile()`.
    if (!known) throw new Error('the profile is not read (yet): await profile() before login or permissions');
    return known;
  }

  /** Request accounting since connect (for `--stats`). */
  stats(): ClientStats {
    const concurrency = this.limiter.report();
    return {
      ...this.requestStats.snapshot(),
      tokenRenewals: this.tokens.renewalCount,
      ...(concurrency ? { concurrency } : {}),
    };
  }

  /**
   * Cancels the client's traffic (the run was interrupted): requests under way end, and any
   * later one fails at once, with `SB_API_ABORTED`. `close()` still logs out.
   */
  cancel(): void {
    this.stop.abort();
  }

  /** Logs out (failures tolerated) and closes the pools. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const concurrency = this.limiter.report();
    if (concurrency) this.logger.info({ concurrency }, 'platform API: what --concurrency auto did');
    await this.tokens.logout();
    await this.transport.close();
  }
}

/** The items a list page holds, for the progress line (the pagination checks them). */
function itemCount(body: unknown, itemsKey: string): number {
  const items = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[itemsKey] : undefined;
  return Array.isArray(items) ? items.length : Array.isArray(body) ? body.length : 0;
}

function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SwitchboardError('SB_CONFIG_URL', `baseUrl ${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SwitchboardError('SB_CONFIG_URL', `baseUrl must be http or https, not ${url.protocol}`);
  if (url.search || url.hash) throw new SwitchboardError('SB_CONFIG_URL', 'baseUrl must not carry a query or fragment');
  return url;
}

async function readProfile(runner: RequestRunner): Promise<UserProfile> {
  const response = await runner.run<unknown>({ method: 'GET', path: PROFILE_PATH });
  try {
    return normalizeProfile(response.body);
  } catch (error) {
    throw new ApiError({
      code: ApiErrorCode.badResponse,
      method: 'GET',
      path: PROFILE_PATH,
      status: response.status,
      retryable: false,
      detail: (error as Error).message,
    });
  }
}

/**
 * Sends auth calls outside the concurrency limit (requests holding a slot wait on them).
 * Login, 2FA and refresh create nothing: the retry policy treats them as reads, so a
 * missing answer and every transient status (429, 500, 502-504) are tried again, within
 * the same budget as any request. Bodies are never logged.
 */
function authSender(
  base: URL,
  transport: Transport,
  stats: RequestStats,
  timeoutMs: number,
  retry: RetryOptions,
  stop: AbortSignal,
) {
  return async (call: AuthCall): Promise<AuthAnswer> => {
    // A cancelled client (the run was interrupted) stops a login, 2FA or refresh where it is,
    // between its retries too: an interrupt never waits out a backoff or a Retry-After.
    const signal = call.afterCancel ? undefined : stop;
    const cancelled = () =>
      new ApiError({
        code: ApiErrorCode.aborted,
        method: call.method,
        path: call.path,
        retryable: false,
        detail: 'request cancelled',
      });
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': USER_AGENT,
      ...(call.bearer ? { authorization: `Bearer ${call.bearer}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const budget = new RetryBudget(retry);
    for (;;) {
      if (signal?.aborted) throw cancelled();
      const begin = performance.now();
      const retried = budget.retries > 0;
      try {
        const raw = await transport.send({
          method: call.method,
          target: requestTarget(base, call.path, undefined),
          headers,
          ...(body === undefined ? {} : { body }),
          ...(signal ? { stop: signal } : {}),
          timeoutMs: call.timeoutMs ?? timeoutMs,
        });
        stats.record({
          method: call.method,
          route: call.path,
          ok: raw.status < 400,
          status: raw.status,
          retry: retried,
          bytesIn: raw.bytesIn,
          bytesOut: raw.bytesOut,
          timeMs: performance.now() - begin,
        });
        const retryAfterMs =
          raw.status === 429 || raw.status === 503 ? parseRetryAfter(raw.headers['retry-after']) : undefined;
        const decision = budget.next({ retryable: isRetryable('read', { status: raw.status }), retryAfterMs });
        if (decision.retry) {
          await sleep(decision.delayMs, signal).catch(() => undefined);
          continue;
        }
        return { status: raw.status, json: parseJson(raw.text), text: raw.text };
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        if (signal?.aborted) throw cancelled();
        stats.record({
          method: call.method,
          route: call.path,
          ok: false,
          retry: retried,
          bytesIn: 0,
          bytesOut: body ? Buffer.byteLength(body) : 0,
          timeMs: performance.now() - begin,
        });
        const retryable = error.failure !== 'oversized' && isRetryable('read', { noAnswer: error.failure });
        const decision = budget.next({ retryable });
        if (decision.retry) {
          await sleep(decision.delayMs, signal).catch(() => undefined);
          continue;
        }
        const code = error.failure === 'timeout' ? ApiErrorCode.timeout : ApiErrorCode.network;
        const tries = budget.retries;
        throw new ApiError({
          code,
          method: call.method,
          path: call.path,
          status: error.status,
          retryable,
          detail: tries > 0 ? `${error.message} (gave up after ${tries} retries)` : error.message,
          cause: error,
        });
      }
    }
  };
}

function parseJson(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
