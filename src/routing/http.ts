import { readFileSync } from 'node:fs';
import { Pool, type Dispatcher } from 'undici';
import type { LoadSignal } from '../api/adaptive-concurrency.js';
import { RequestLimiter, type AttemptOutcome, type ConcurrencySetting } from '../api/limiter.js';
import { RetryPolicy, natureOf, parseRetryAfter, sleep, type AttemptFailure } from '../api/retry.js';
import { registerSecret } from '../core/secrets.js';
import { RoutingApiError, isRetryableStatus } from './errors.js';
import type { RoutingAuth } from './types.js';

/** How to reach one routing engine (CONTRACT §5 `routingEngine`). */
export interface RoutingConnection {
  /** e.g. `https://em.example.net:5000`; a path prefix is kept. */
  url: string;
  auth: RoutingAuth;
  /** PEM file of the CA that signed the engine's certificate. */
  caFile?: string;
  /** Skip certificate verification (CONTRACT §5 `insecure: true`). */
  insecure?: boolean;
  /** Requests in flight: a number, or `auto` to find it (default 8; docs/connecting.md "Concurrency"). */
  concurrency?: ConcurrencySetting;
  /** Connections kept to the engine (default: the most requests `concurrency` lets run at once). */
  connections?: number;
  /** Per-request timeout in ms (default 60,000). */
  timeoutMs?: number;
  /**
   * Retries under the platform client's retry policy (network errors, 429 and 502–504 for
   * repeatable requests, 500 for GETs, 429 for POSTs; `Retry-After` within the budget).
   * Default 5.
   */
  retries?: number;
}

/** What one call returned: the status and the parsed JSON body (null for empty / non-JSON). */
export interface RoutingResponse {
  status: number;
  body: unknown;
  /** Raw text when the body was not JSON (an HTML error page, say). */
  text?: string;
}

/** Requests sent, by method; what the benchmark and apply summaries report. */
export type RoutingRequestStats = Record<string, number>;

/**
 * One undici Pool per engine, TLS 1.2 only when the URL is https (Doc3 §5), auth on every
 * request, JSON in and out, and errors turned into RoutingApiError values.
 */
export class RoutingHttp {
  readonly stats: RoutingRequestStats = {};
  private readonly pool: Pool;
  private readonly prefix: string;
  private readonly authHeader: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  readonly limiter: RequestLimiter;

  constructor(conn: RoutingConnection) {
    this.retry = new RetryPolicy(conn.retries === undefined ? {} : { retries: conn.retries });
    this.limiter = new RequestLimiter(conn.concurrency ?? 8, undefined, {
      maxPauseMs: this.retry.options.maxElapsedMs,
    });
    const url = new URL(conn.url);
    this.prefix = url.pathname.replace(/\/+$/, '');
    // The credentials and their Basic encoding are secrets: an engine may echo the header.
    this.authHeader =
      'token' in conn.auth
        ? `Bearer ${registerSecret(conn.auth.token)}`
        : `Basic ${registerSecret(Buffer.from(`${conn.auth.username}:${registerSecret(conn.auth.password)}`).toString('base64'))}`;
    this.timeoutMs = conn.timeoutMs ?? 60_000;
    const tls =
      url.protocol === 'https:'
        ? {
            minVersion: 'TLSv1.2' as const,
            maxVersion: 'TLSv1.2' as const,
            rejectUnauthorized: !conn.insecure,
            ...(conn.caFile ? { ca: readFileSync(conn.caFile) } : {}),
          }
        : {};
    this.pool = new Pool(url.origin, {
      connections: conn.connections ?? this.limiter.slots,
      pipelining: 1,
      connect: tls,
    });
  }

  /** Sends one request, again while the retry policy says so (a POST only after a 429). */
  async request(method: string, path: string, query: string, body?: unknown): Promise<RoutingResponse> {
    const budget = this.retry.start();
    for (;;) {
      try {
        return await this.limiter.run(() => this.once(method, path, query, body), loadOf);
      } catch (error) {
        if (!(error instanceof RoutingApiError)) throw error;
        const retryable = this.retry.retryable(natureOf(method), failureOf(error));
        const decision = budget.next({ retryable, retryAfterMs: error.retryAfterMs });
        if (!decision.retry) throw error;
        await sleep(decision.delayMs);
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async once(method: string, path: string, query: string, body?: unknown): Promise<RoutingResponse> {
    this.stats[method] = (this.stats[method] ?? 0) + 1;
    const fullPath = `${this.prefix}${path}${query ? `?${query}` : ''}`;
    let res: Dispatcher.ResponseData;
    try {
      res = await this.pool.request({
        method: method as Dispatcher.HttpMethod,
        path: fullPath,
        headers: {
          authorization: this.authHeader,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch (error) {
      throw networkError(method, path, error);
    }
    const text = await res.body.text();
    const parsed = parseBody(text);
    if (res.statusCode >= 400) {
      const retryAfter =
        res.statusCode === 429 || res.statusCode === 503 ? parseRetryAfter(res.headers['retry-after']) : undefined;
      throw httpError(method, path, res.statusCode, parsed, text, retryAfter);
    }
    return parsed.json ? { status: res.statusCode, body: parsed.value } : { status: res.statusCode, body: null, text };
  }
}

function parseBody(text: string): { json: boolean; value: unknown } {
  if (text.trim() === '') return { json: true, value: null };
  try {
    return { json: true, value: JSON.parse(text) as unknown };
  } catch {
    return { json: false, value: null };
  }
}

/** Builds the error from `{code, message}` (Doc3 §7), a `null` body, or an HTML page. */
function httpError(
  method: string,
  path: string,
  status: number,
  parsed: { json: boolean; value: unknown },
  text: string,
  retryAfterMs: number | undefined,
): RoutingApiError {
  const obj =
    parsed.json && typeof parsed.value === 'object' && parsed.value !== null
      ? (parsed.value as Record<string, unknown>)
      : {};
  const message = typeof obj['message'] === 'string' ? obj['message'] : parsed.json ? `HTTP ${status}` : excerpt(text);
  const index = typeof obj['index'] === 'number' ? obj['index'] : indexFromMessage(message);
  return new RoutingApiError('SB_ROUTING_HTTP', {
    method,
    path,
    status,
    serverMessage: message,
    retryable: isRetryableStatus(status),
    index,
    retryAfterMs,
  });
}

/** What a call says about the engine's load (`--concurrency auto`): 429, 503 and timeouts are overload. */
function loadOf(outcome: AttemptOutcome<RoutingResponse>): LoadSignal | 'answer' {
  if (outcome.ok) return 'answer';
  const error = outcome.error;
  if (!(error instanceof RoutingApiError)) return { kind: 'none' };
  if (error.status === 429 || error.status === 503) return { kind: 'overload', retryAfterMs: error.retryAfterMs };
  if (error.status > 0) return 'answer';
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.includes('TIMEOUT') ? { kind: 'overload' } : { kind: 'none' };
}

/** The policy's reading of a failed call: its status, or no answer (a TLS failure is marked final when it is made). */
function failureOf(error: RoutingApiError): AttemptFailure {
  if (error.status > 0) return { status: error.status };
  return { noAnswer: error.retryable ? 'network' : 'tls' };
}

function indexFromMessage(message: string): number | undefined {
  const m = /\brecord (\d+)\b/i.exec(message);
  return m ? Number(m[1]) : undefined;
}

function excerpt(text: string): string {
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain || 'empty body';
}

function networkError(method: string, path: string, error: unknown): RoutingApiError {
  const err = error as { code?: string; message?: string };
  const tls = typeof err.code === 'string' && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO/.test(err.code);
  const why = tls
    ? `TLS failure (${err.code}): check caFile, or whether the engine speaks TLS 1.2`
    : `${err.code ?? 'network error'}: ${err.message ?? 'no response'}`;
  return new RoutingApiError('SB_ROUTING_NETWORK', {
    method,
    path,
    status: 0,
    serverMessage: why,
    retryable: !tls,
    cause: error,
  });
}
