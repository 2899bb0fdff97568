import type { HttpMethod, RetryOptions } from './types.js';

export const DEFAULT_RETRY: RetryOptions = {
  retries: 5,
  maxElapsedMs: 60_000,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
};

/** GET, PUT and DELETE may be sent twice without a second effect; POST may not. */
export function isSafeToRepeat(method: HttpMethod): boolean {
  return method !== 'POST';
}

/**
 * Statuses worth another attempt of a repeatable request: 429 and 502/503/504 are
 * transient by definition; a 500 is retried for GET only, because a failed PUT or DELETE
 * answering 500 is more often a deterministic server bug than a blip.
 */
export function isRetryableStatus(method: HttpMethod, status: number): boolean {
  if (status === 429 || status === 502 || status === 503 || status === 504) return isSafeToRepeat(method);
  return status === 500 && method === 'GET';
}

/**
 * `Retry-After` as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from `nowMs`;
 * undefined when absent or unreadable. Negative waits become 0.
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

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
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
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
