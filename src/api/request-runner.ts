import type { Logger } from '../core/logger.js';
import type { TokenManager } from './auth.js';
import type { LoadSignal } from './adaptive-concurrency.js';
import { ApiError, ApiErrorCode, codeForStatus, platformMessageOf } from './errors.js';
import type { AttemptOutcome, RequestLimiter } from './limiter.js';
import type { Permissions } from './permissions.js';
import { RetryBudget, isRetryable, natureOf, parseRetryAfter, sleep } from './retry.js';
import { requestTarget } from './request-target.js';
import { routePattern, type RequestStats } from './stats.js';
import { TransportError, type RawResponse, type Transport } from './transport.js';
import type { ApiResponse, RequestOptions, RetryOptions } from './types.js';

export interface RunnerDeps {
  baseUrl: URL;
  transport: Transport;
  tokens: TokenManager;
  limiter: RequestLimiter;
  stats: RequestStats;
  retry: RetryOptions;
  timeoutMs: number;
  logger: Logger;
  monotonicNow: () => number;
  userAgent: string;
  /** The caller's permissions once the profile is known (for the wording of 403s). */
  permissions: () => Permissions | undefined;
  /**
   * Settles once the caller's permissions are known, or cannot be (the profile is read beside
   * the first requests: ApiClient.connect); immediately for the profile's own request.
   */
  permissionsKnown?: (options: RequestOptions) => Promise<unknown>;
  /** Aborted when the client is cancelled: no attempt starts, those under way and backoff waits end. */
  stop?: AbortSignal;
  random?: () => number;
}

type Attempt = { raw: RawResponse; bearer: string } | { failure: TransportError };

/** Renewals of the access token one request may ask for (each after a 401 that followed other answers). */
const MAX_RENEWALS_PER_REQUEST = 3;

/**
 * Runs one API request: bearer token, concurrency slot per attempt, re-authentication after
 * a 401 (see `run`), retries of repeatable requests with backoff, and the mapping of every
 * outcome to a response or an ApiError.
 */
export class RequestRunner {
  constructor(private readonly deps: RunnerDeps) {}

  async run<T>(options: RequestOptions<T>): Promise<ApiResponse<T>> {
    const budget = new RetryBudget(this.deps.retry, this.deps.monotonicNow, this.deps.random);
    // A token renewed after a 401 and refused at once: the session is gone (a disabled user,
    // revoked sessions), and the request fails. Refused later, after the request met other
    // answers and their backoffs, it may simply have expired in the meantime: renewed again,
    // a few times at most per request.
    let renewals = 0;
    let answeredSinceRenewal = true;
    for (;;) {
      if (this.deps.stop?.aborted) throw this.cancelled(options);
      const attempt = await this.deps.limiter.run(
        () => this.attempt(options, budget.retries > 0),
        loadOf,
        budget.retries > 0,
      );
      let outcome = this.classify<T>(options, attempt);
      if (outcome.kind === 'done') return outcome.response;
      if ('raw' in attempt && attempt.raw.status === 403 && this.deps.permissionsKnown && !this.deps.permissions()) {
        // A 403 is worded with the caller's permissions: the same words whenever the profile arrives.
        await this.deps.permissionsKnown(options);
        outcome = this.classify<T>(options, attempt);
        if (outcome.kind === 'done') return outcome.response;
      }
      const renewable = answeredSinceRenewal && renewals < MAX_RENEWALS_PER_REQUEST;
      if (outcome.kind !== 'reauth') answeredSinceRenewal = true;
      if (outcome.kind === 'reauth' && renewable && 'raw' in attempt) {
        const fresh = await this.deps.tokens.renewAfterUnauthorized(attempt.bearer);
        if (fresh === undefined) {
          const { code, status, platformMessage } = outcome.error;
          throw this.error(options, {
            code,
            status,
            platformMessage,
            retryable: false,
            detail: 'the machine-to-machine token was refused (invalid or revoked)',
          });
        }
        renewals++;
        answeredSinceRenewal = false;
        this.deps.stats.recordReauthentication();
        continue;
      }
      const error = outcome.error;
      if (!error.retryable || outcome.kind === 'reauth') throw error;
      const decision = budget.next(error);
      if (!decision.retry) throw exhausted(error, budget.retries, decision.why);
      const retry = budget.retries;
      this.deps.logger.warn(
        {
          method: options.method,
          path: options.path,
          status: error.status,
          code: error.code,
          delayMs: decision.delayMs,
          retry,
        },
        'retrying request',
      );
      try {
        const stop = this.deps.stop;
        await sleep(
          decision.delayMs,
          options.signal && stop ? AbortSignal.any([options.signal, stop]) : (options.signal ?? stop),
        );
      } catch {
        throw this.error(options, {
          code: ApiErrorCode.aborted,
          retryable: false,
          detail: 'request cancelled while waiting to retry',
        });
      }
    }
  }

  private async attempt(options: RequestOptions, isRetry: boolean): Promise<Attempt> {
    const bearer = await this.deps.tokens.accessToken();
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = {
      accept: options.responseType === 'text' ? '*/*' : 'application/json',
      authorization: `Bearer ${bearer}`,
      'user-agent': this.deps.userAgent,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const begin = this.deps.monotonicNow();
    const route = options.route ?? routePattern(options.path);
    try {
      const raw = await this.deps.transport.send({
        method: options.method,
        target: requestTarget(this.deps.baseUrl, options.path, options.query),
        headers,
        ...(body === undefined ? {} : { body }),
        timeoutMs: options.timeoutMs ?? this.deps.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(this.deps.stop ? { stop: this.deps.stop } : {}),
      });
      const ok = raw.status < 400;
      this.deps.stats.record({
        method: options.method,
        route,
        ok,
        retry: isRetry,
        status: raw.status,
        bytesIn: raw.bytesIn,
        bytesOut: raw.bytesOut,
        timeMs: this.deps.monotonicNow() - begin,
      });
      this.deps.logger.debug(
        {
          method: options.method,
          path: options.path,
          status: raw.status,
          ms: Math.round(this.deps.monotonicNow() - begin),
        },
        'api request',
      );
      return { raw, bearer };
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      this.deps.stats.record({
        method: options.method,
        route,
        ok: false,
        retry: isRetry,
        bytesIn: 0,
        bytesOut: body ? Buffer.byteLength(body) : 0,
        timeMs: this.deps.monotonicNow() - begin,
      });
      return { failure: error };
    }
  }

  private classify<T>(
    options: RequestOptions<T>,
    attempt: Attempt,
  ): { kind: 'done'; response: ApiResponse<T> } | { kind: 'retry' | 'reauth'; error: ApiError } {
    if ('failure' in attempt) return { kind: 'retry', error: this.transportError(options, attempt.failure) };
    const { raw } = attempt;
    const accepted = (raw.status >= 200 && raw.status < 300) || options.okStatuses?.includes(raw.status) === true;
    if (accepted && raw.status >= 300 && looksHtml(raw)) return { kind: 'retry', error: this.notTheApi(options, raw) };
    if (accepted) return { kind: 'done', response: this.decode<T>(options, raw) };
    if (raw.status === 404 && options.notFoundIsEmpty) {
      return { kind: 'done', response: { status: 404, body: undefined as T, headers: raw.headers } };
    }
    if (raw.status === 401) return { kind: 'reauth', error: this.statusError(options, raw) };
    return { kind: 'retry', error: this.statusError(options, raw) };
  }

  private decode<T>(options: RequestOptions<T>, raw: RawResponse): ApiResponse<T> {
    if (options.responseType === 'text') return this.decoded(options, raw, raw.text);
    if (raw.text.trim() === '') return { status: raw.status, body: undefined as T, headers: raw.headers };
    // An error status the caller accepts (a delete's 404: already gone) is its status, whatever
    // its JSON or text says: the body of most errors is not shown (Doc 1 §7). An HTML one never
    // gets here (classify).
    if (raw.status >= 300) return { status: raw.status, body: undefined as T, headers: raw.headers };
    const html = looksHtml(raw);
    let parsed: unknown;
    try {
      if (html) throw new SyntaxError('html');
      parsed = JSON.parse(raw.text);
    } catch {
      const what = html ? 'an HTML page instead of JSON' : `malformed JSON (${raw.bytesIn} bytes)`;
      throw this.unreadable(options, raw.status, what);
    }
    return this.decoded(options, raw, parsed);
  }

  private decoded<T>(options: RequestOptions<T>, raw: RawResponse, body: unknown): ApiResponse<T> {
    if (!options.decode) return { status: raw.status, body: body as T, headers: raw.headers };
    try {
      return { status: raw.status, body: options.decode(body), headers: raw.headers };
    } catch (error) {
      throw this.unreadable(
        options,
        raw.status,
        `not of the expected shape: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** A success status whose body cannot be read: for a POST the effect is unknown. */
  private unreadable(options: RequestOptions, status: number | undefined, what: string): ApiError {
    if (createsObjects(options)) {
      return this.error(options, {
        code: ApiErrorCode.outcomeUnknown,
        status,
        retryable: false,
        detail: `the answer is unreadable (${what}); the object may have been created: look it up before creating it again`,
      });
    }
    return this.error(options, {
      code: ApiErrorCode.badResponse,
      status,
      retryable: false,
      detail: `the answer is ${what}`,
    });
  }

  private transportError(options: RequestOptions, failure: TransportError): ApiError {
    if (failure.failure === 'aborted')
      return this.error(options, {
        code: ApiErrorCode.aborted,
        retryable: false,
        detail: 'request cancelled',
        cause: failure,
      });
    if (createsObjects(options) && failure.failure !== 'tls') {
      return this.error(options, {
        code: ApiErrorCode.outcomeUnknown,
        status: failure.status,
        retryable: false,
        detail: `${failure.message}; the request was not re-sent because it may have taken effect: look the object up before creating it again`,
        cause: failure,
      });
    }
    if (failure.failure === 'oversized') {
      return this.error(options, {
        code: ApiErrorCode.badResponse,
        status: failure.status,
        retryable: false,
        detail: failure.message,
        cause: failure,
      });
    }
    const retryable = isRetryable(natureOfRequest(options), { noAnswer: failure.failure });
    if (failure.failure === 'truncated') {
      return this.error(options, {
        code: ApiErrorCode.badResponse,
        status: failure.status,
        retryable,
        detail: failure.message,
        cause: failure,
      });
    }
    const code = failure.failure === 'timeout' ? ApiErrorCode.timeout : ApiErrorCode.network;
    return this.error(options, { code, retryable, detail: failure.message, cause: failure });
  }

  private statusError(options: RequestOptions, raw: RawResponse): ApiError {
    const platformMessage = platformMessageOf(raw.text);
    const retryable = isRetryable(natureOfRequest(options), { status: raw.status });
    const retryAfterMs =
      raw.status === 429 || raw.status === 503 ? parseRetryAfter(raw.headers['retry-after']) : undefined;
    if (createsObjects(options) && raw.status >= 500) {
      return this.error(options, {
        code: ApiErrorCode.outcomeUnknown,
        status: raw.status,
        platformMessage,
        retryable: false,
        detail:
          'server error; the request was not re-sent because it may have taken effect: look the object up before creating it again',
      });
    }
    const { detail, role } = this.describeStatus(options, raw.status);
    return this.error(options, {
      code: codeForStatus(raw.status),
      status: raw.status,
      platformMessage,
      retryable,
      detail,
      ...(role ? { role } : {}),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }

  /**
   * An accepted error status (a delete's 404) on an HTML page: a proxy's or load balancer's
   * page, or a base URL that misses the API, answered, not the platform (whose answers are
   * JSON, Doc 1 §1.3), so it says nothing about the object and fails as its status.
   */
  private notTheApi(options: RequestOptions, raw: RawResponse): ApiError {
    const platformMessage = platformMessageOf(raw.text);
    return this.error(options, {
      code: codeForStatus(raw.status),
      status: raw.status,
      ...(platformMessage ? { platformMessage } : {}),
      retryable: isRetryable(natureOfRequest(options), { status: raw.status }),
      detail:
        "an HTML page answered, not the platform's API (a proxy, a load balancer, or a base URL that misses the API), " +
        `so the ${raw.status} does not show the object is gone`,
    });
  }

  private describeStatus(options: RequestOptions, status: number): { detail: string; role?: string } {
    if (status === 403) return this.describeForbidden(options);
    // Reached by a password user only: a machine token's 401 is worded where it is refused.
    if (status === 401)
      return {
        detail:
          'credentials refused: the access token renewed after a first 401 was rejected too (the user may have been disabled or its sessions revoked)',
      };
    if (status === 404) return { detail: 'not found' };
    if (status === 429) return { detail: 'rate limited by the platform' };
    if (status >= 500) return { detail: 'server error' };
    return { detail: 'request rejected' };
  }

  private describeForbidden(options: RequestOptions): { detail: string; role?: string } {
    const permissions = this.deps.permissions();
    const check = permissions?.check(options.method, options.path);
    const role = options.role ?? check?.rule;
    if (options.role && permissions && !permissions.hasRole(options.role))
      return { detail: `caller lacks role ${options.role}`, role };
    if (check && !check.allowed) {
      return {
        detail: role
          ? `caller lacks role ${role}`
          : `no api_rule of the caller allows ${options.method.toLowerCase()} on this path`,
        ...(role ? { role } : {}),
      };
    }
    if (check?.allowed) {
      return {
        detail: `caller has role ${role ?? '(unnamed rule)'}, but the object is outside the part of the hierarchy it may act on`,
        ...(role ? { role } : {}),
      };
    }
    return {
      detail: role ? `caller lacks role ${role}` : 'caller lacks the rights for this call',
      ...(role ? { role } : {}),
    };
  }

  /** The request was not sent: the client was cancelled (the run was interrupted). */
  private cancelled(options: RequestOptions): ApiError {
    return this.error(options, { code: ApiErrorCode.aborted, retryable: false, detail: 'request cancelled' });
  }

  private error(
    options: RequestOptions,
    init: Omit<ConstructorParameters<typeof ApiError>[0], 'method' | 'path'>,
  ): ApiError {
    return new ApiError({
      method: options.method,
      path: options.path,
      ...(options.role && !init.role ? { role: options.role } : {}),
      ...init,
    });
  }
}

/**
 * What an attempt says about the platform's load (`--concurrency auto`): 429 and 503 (with
 * their Retry-After) and a timeout are overload; any other answer is a latency sample.
 */
function loadOf(outcome: AttemptOutcome<Attempt>): LoadSignal | 'answer' {
  if (!outcome.ok) return { kind: 'none' };
  const attempt = outcome.value;
  if ('failure' in attempt) return attempt.failure.failure === 'timeout' ? { kind: 'overload' } : { kind: 'none' };
  const { status, headers } = attempt.raw;
  if (status === 429 || status === 503)
    return { kind: 'overload', retryAfterMs: parseRetryAfter(headers['retry-after']) };
  return 'answer';
}

/** The last error of a request that ran out of retries (or was told to wait beyond the budget), saying so. */
function exhausted(error: ApiError, retries: number, why: string | undefined): ApiError {
  if (retries === 0 && why === undefined) return error;
  const gaveUp = retries === 0 ? '' : ` (gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'})`;
  return new ApiError({
    code: error.code,
    method: error.method,
    path: error.path,
    status: error.status,
    retryable: error.retryable,
    detail: `${error.detail}${why === undefined ? '' : `; ${why}`}${gaveUp}`,
    ...(error.platformMessage ? { platformMessage: error.platformMessage } : {}),
    ...(error.role ? { role: error.role } : {}),
    cause: error.cause,
  });
}

/** A POST, or a request that says it creates (a bulk PUT): re-sending it could create twice. */
function createsObjects(options: Pick<RequestOptions, 'method' | 'creates'>): boolean {
  return options.method === 'POST' || options.creates === true;
}

function natureOfRequest(options: Pick<RequestOptions, 'method' | 'creates'>): ReturnType<typeof natureOf> {
  return options.creates ? 'create' : natureOf(options.method);
}

/** An answer that is a web page (a proxy's, a load balancer's or a web server's), not the API's JSON or text. */
function looksHtml(raw: RawResponse): boolean {
  return /html/i.test(String(raw.headers['content-type'] ?? '')) || /^\s*</.test(raw.text);
}
