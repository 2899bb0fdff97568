/**
 * The simulator's rate limit (`--rate-limit N`, the seed's `rateLimit`): a token bucket per
 * served API (the platform's, the routing engine's) holding N tokens and refilled at N per
 * second; a request that finds it empty is answered 429 with `Retry-After`. Document 1 §8
 * lists rate limits without figures: docs/design-decisions.md "Simulator" records the choice.
 */
import type { ServerResponse } from 'node:http';
import { sendJson } from '../http.js';

/** The APIs the simulator serves, each limited on its own (they are separate systems). */
export type RateLimitedApi = 'platform' | 'routingEngine';

/** N requests per second, in bursts of at most N. */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  readonly capacity: number;

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.capacity = Math.max(1, perSecond);
    this.tokens = this.capacity;
    this.updatedAt = now();
  }

  /** Takes a token: undefined when one was there, else the whole seconds until one will be (at least 1). */
  take(): number | undefined {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.updatedAt) / 1000) * this.perSecond);
    this.updatedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    // Delta-seconds are whole (RFC 9110 §10.2.3): round the wait up.
    return Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond));
  }
}

/** One bucket per API; `perSecond` undefined: no limit. */
export class RateLimiter {
  private readonly buckets: Record<RateLimitedApi, TokenBucket> | undefined;

  constructor(
    readonly perSecond: number | undefined,
    now?: () => number,
  ) {
    this.buckets =
      perSecond === undefined
        ? undefined
        : { platform: new TokenBucket(perSecond, now), routingEngine: new TokenBucket(perSecond, now) };
  }

  /** Undefined when the request may go on, else its Retry-After in seconds. */
  admit(api: RateLimitedApi): number | undefined {
    return this.buckets?.[api].take();
  }
}

/**
 * The 429 in each API's own error body: the platform's `{error: {status, code, message}}`
 * (docs/design-decisions.md "Simulator"), the routing engine's `{code, message}` (Document 3 §7).
 */
export function sendRateLimited(
  res: ServerResponse,
  api: RateLimitedApi,
  perSecond: number,
  retryAfterS: number,
): void {
  const message = `rate limit of ${perSecond} requests per second exceeded: retry after ${retryAfterS} s`;
  const body =
    api === 'platform' ? { error: { status: 429, code: 'rate_limited', message } } : { code: '429', message };
  sendJson(res, 429, body, { 'retry-after': String(retryAfterS) });
}
