/**
 * The one retry policy of switchboard: every loop that sends a request again (platform API
 * requests, logins and token refreshes, the executor's writes, routing-engine calls) asks
 * it whether and when. See docs/connecting.md "Retries".
 */
import type { HttpMethod, RetryOptions } from './types.js';

export const DEFAULT_RETRY: RetryOptions = {
  retries: 5,
  maxElapsedMs: 60_000,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
};

/** Timeout of one attempt (headers and body), for the platform and the routing engine alike. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** The longest delay `setTimeout` takes (2^31 − 1 ms); a longer one would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * What sending a request twice would do, which decides what may be retried:
 * - `read`: nothing (a GET, HEAD or OPTIONS; a login or token refresh, which create nothing);
 * - `write`: the same as once (PUT, PATCH, DELETE);
 * - `create`: a second object (POST): only a 429 ("not processed") is sent again.
 */
export type RequestNature = 'read' | 'write' | 'create';

export function natureOf(method: string): RequestNature {
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD' || upper === 'OPTIONS') return 'read';
  return upper === 'POST' ? 'create' : 'write';
}

/** How one attempt failed: an error status, or no (complete) answer. */
export type AttemptFailure = { status: number } | { noAnswer: 'network' | 'timeout' | 'truncated' | 'tls' | 'aborted' };

/**
 * Whether another attempt may succeed without a second effect. 429 means "not processed"
 * whatever the method; 502, 503 and 504 and a missing answer are transient, but a create
 * may have taken effect; a 500 is retried for reads only, because a write answering 500
 * more often hit a deterministic bug than a blip. TLS failures and cancellations are final.
 */
export function isRetryable(nature: RequestNature, failure: AttemptFailure): boolean {
  if ('noAnswer' in failure) return nature !== 'create' && failure.noAnswer !== 'tls' && failure.noAnswer !== 'aborted';
  const { status } = failure;
  if (status === 429) return true;
  if (status === 502 || status === 503 || status === 504) return nature !== 'create';
  return status === 500 && nature === 'read';
}

/** {@link isRetryable} for an HTTP status of a method. */
export function isRetryableStatus(method: HttpMethod, status: number): boolean {
  return isRetryable(natureOf(method), { status });
}

/**
 * `Retry-After` as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from `nowMs`;
 * undefined when absent or unreadable. Negative waits become 0. The value may be far
 * beyond what a timer can wait: {@link RetryBudget} compares it with the budget first.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base·2^retryIndex)]. */
export function backoffDelay(retryIndex: number, options: RetryOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retryIndex);
  return Math.floor(random() * ceiling);
}

/** After a failed attempt: wait `delayMs` and send again, or stop (`why`: what to add to the error, if anything). */
export type RetryDecision = { retry: true; delayMs: number } | { retry: false; why?: string };

/**
 * The retries of one request: at most `retries` of them, and none that would start later
 * than `maxElapsedMs` after the first attempt. A `Retry-After` beyond that budget ends the
 * request at once rather than waiting (a server asking for a day is not waited out).
 */
export class RetryBudget {
  private used = 0;
  private readonly started: number;

  constructor(
    private readonly options: RetryOptions,
    private readonly now: () => number = () => performance.now(),
    private readonly random: () => number = Math.random,
  ) {
    this.started = now();
  }

  /** Retries granted so far. */
  get retries(): number {
    return this.used;
  }

  next(failure: { retryable: boolean; retryAfterMs?: number | undefined }): RetryDecision {
    if (!failure.retryable || this.used >= this.options.retries) return { retry: false };
    const delayMs = failure.retryAfterMs ?? backoffDelay(this.used, this.options, this.random);
    const budget = Math.min(this.options.maxElapsedMs, MAX_TIMER_MS);
    if (this.now() - this.started + delayMs > budget) {
      if (failure.retryAfterMs === undefined) return { retry: false };
      const why = `Retry-After asks for ${seconds(failure.retryAfterMs)}, beyond the retry budget of ${seconds(budget)}: not retried`;
      return { retry: false, why };
    }
    this.used += 1;
    return { retry: true, delayMs };
  }
}

/** The rules ({@link isRetryable}) with one set of limits; `start()` once per request. */
export class RetryPolicy {
  readonly options: RetryOptions;

  constructor(
    options: Partial<RetryOptions> = {},
    private readonly now: () => number = () => performance.now(),
    private readonly random: () => number = Math.random,
  ) {
    this.options = { ...DEFAULT_RETRY, ...options };
  }

  retryable(nature: RequestNature, failure: AttemptFailure): boolean {
    return isRetryable(nature, failure);
  }

  start(): RetryBudget {
    return new RetryBudget(this.options, this.now, this.random);
  }
}

/** Whole seconds, rounded up (a Retry-After date is a few ms short of its second). */
function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)} s`;
}

/** Waits `ms` (at most {@link MAX_TIMER_MS}), or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(Math.max(ms, 0), MAX_TIMER_MS),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
