import { AnswerTooLarge } from '../api/answer-gatherer.js';
import { readFileSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { Pool } from '../core/undici-pool.js';
import type { LoadSignal } from '../api/adaptive-concurrency.js';
import { RequestLimiter, type AttemptOutcome, type ConcurrencySetting } from '../api/limiter.js';
import {
  DEFAULT_TIMEOUT_MS,
  RetryPolicy,
  natureOf,
  parseRetryAfter,
  sleep,
  type AttemptFailure,
} from '../api/retry.js';
import { registerSecret } from '../core/secrets.js';
import { RequestStats, routePattern } from '../api/stats.js';
import { RoutingApiError, isRetryableStatus, mayHaveArrived, outcomeUnknown, type RoutingErrorCode } from './errors.js';
import { exchange, type RawAnswer } from './exchange.js';
import { Reachability } from './reachability.js';
import type { RoutingAuth } from './types.js';

/** How to reach one routing engine (docs/connecting.md `routingEngine`). */
export interface RoutingConnection {
  /** e.g. `https://em.example.net:5000`; a path prefix is kept. */
  url: string;
  auth: RoutingAuth;
  /** PEM file of the CA that signed the engine's certificate. */
  caFile?: string;
  /** Skip certificate verification (docs/connecting.md `insecure: true`). */
  insecure?: boolean;
  /** Requests in flight: a number, or `auto` to find it (default 8; docs/connecting.md "Concurrency"). */
  concurrency?: ConcurrencySetting;
  /** Connections kept to the engine (default: the most requests `concurrency` lets run at once). */
  connections?: number;
  /** Timeout of one attempt in ms, as the platform client's (default 30,000). */
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
  headers: Record<string, string | string[] | undefined>;
}

/** Requests sent, by method; what the benchmark and apply summaries report. */
export type RoutingRequestStats = Record<string, number>;

/**
 * One undici Pool per engine, TLS 1.2 only when the URL is https (Doc3 §5), auth on every
 * request, JSON in and out, and errors turned into RoutingApiError values.
 */
export class RoutingHttp {
  readonly stats: RoutingRequestStats = {};
  /** Attempts by method and route (`/<service>/<version>/<table>/{id}`): what `--stats` prints. */
  readonly requestStats = new RequestStats();
  private readonly pool: Pool;
  private readonly prefix: string;
  private readonly authHeader: string;
  /** Who the engine sees (Basic auth's user; a token names nobody) and how, for the journal's run record. */
  readonly login: { username?: string; kind: 'token' | 'password' };
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  /** Whether requests may still go: the engine answers, and the run was not cancelled. */
  readonly reach: Reachability;
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
    this.login = 'token' in conn.auth ? { kind: 'token' } : { username: conn.auth.username, kind: 'password' };
    this.timeoutMs = conn.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.reach = new Reachability(url.origin);
    this.retry = new RetryPolicy(conn.retries === undefined ? {} : { retries: conn.retries });
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

  /**
   * Sends one request, again while the retry policy says so (a POST only after a 429). Once
   * the engine is gone or the run cancelled ({@link Reachability}), nothing is sent: the
   * request fails at once, and a wait or an attempt under way ends.
   */
  async request(method: string, path: string, query: string, body?: unknown): Promise<RoutingResponse> {
    const budget = this.retry.start();
    let attempts = 0;
    let answered = false;
    // A write one of whose attempts may have reached the engine without an answer: if it
    // fails in the end, whether it was applied is unknown (never "not sent").
    let unanswered = false;
    const settle = (error: RoutingApiError) => (unanswered && method !== 'GET' ? outcomeUnknown(error) : error);
    for (;;) {
      const refused = this.reach.refusal(method, path);
      if (refused) throw refused;
      attempts++;
      try {
        // Checked again when a slot frees: requests queued behind the limiter must not go out
        // (and each wait its timeout) once the engine is known to be gone.
        const response = await this.limiter.run(
          () => {
            const gone = this.reach.refusal(method, path);
            return gone ? Promise.reject(gone) : this.once(method, path, query, body, attempts > 1);
          },
          loadOf,
          attempts > 1,
        );
        this.reach.answered();
        return response;
      } catch (error) {
        if (!(error instanceof RoutingApiError)) throw error;
        if (mayHaveArrived(error)) unanswered = true;
        const stopped = this.reach.refusal(method, path);
        if (stopped) throw settle(stopped);
        if (error.status > 0) {
          answered = true;
          this.reach.answered();
        }
        const retryable = this.retry.retryable(natureOf(method), failureOf(error));
        const decision = budget.next({ retryable, retryAfterMs: error.retryAfterMs });
        if (!decision.retry) {
          // No answer to any attempt (refused, reset, timed out; not a TLS failure): is the engine still there?
          if (!answered && error.status === 0 && error.retryable) this.reach.silent(error, attempts);
          throw settle(budget.retries > 0 || decision.why ? exhausted(error, budget.retries, decision.why) : error);
        }
        try {
          await sleep(decision.delayMs, this.reach.signal);
        } catch {
          throw settle(this.reach.refusal(method, path) ?? error);
        }
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async once(
    method: string,
    path: string,
    query: string,
    body: unknown,
    retry: boolean,
  ): Promise<RoutingResponse> {
    this.stats[method] = (this.stats[method] ?? 0) + 1;
    const fullPath = `${this.prefix}${path}${query ? `?${query}` : ''}`;
    const text = body === undefined ? null : JSON.stringify(body);
    const begin = performance.now();
    const attempt = { method, route: routePattern(path), retry, bytesOut: text ? Buffer.byteLength(text) : 0 };
    let res: RawAnswer;
    try {
      res = await exchange(
        this.pool,
        {
          method: method as Dispatcher.HttpMethod,
          path: fullPath,
          headers: {
            authorization: this.authHeader,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: text,
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        },
        this.reach.signal,
      );
    } catch (error) {
      this.requestStats.record({ ...attempt, ok: false, bytesIn: 0, timeMs: performance.now() - begin });
      throw networkError(method, path, error, this.timeoutMs);
    }
    const answer = res.text;
    this.requestStats.record({
      ...attempt,
      ok: res.status < 400,
      status: res.status,
      bytesIn: Buffer.byteLength(answer),
      timeMs: performance.now() - begin,
    });
    const parsed = parseBody(answer);
    if (res.status >= 400) {
      const retryAfter =
        res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers['retry-after']) : undefined;
      throw httpError(method, path, res.status, parsed, answer, retryAfter);
    }
    const headers = res.headers;
    return parsed.json
      ? { status: res.status, body: parsed.value, headers }
      : { status: res.status, body: null, text: answer, headers };
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

/** The error of a request the retry budget ended, saying so. */
function exhausted(error: RoutingApiError, retries: number, why: string | undefined): RoutingApiError {
  const note = why ?? `gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'}`;
  return new RoutingApiError(error.code as RoutingErrorCode, {
    method: error.method,
    path: error.path,
    status: error.status,
    serverMessage: `${error.serverMessage} (${note})`,
    retryable: error.retryable,
    index: error.index,
    retryAfterMs: error.retryAfterMs,
    cause: error,
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

function networkError(method: string, path: string, error: unknown, timeoutMs: number): RoutingApiError {
  // Not retried: the next answer would be as large.
  if (error instanceof AnswerTooLarge)
    return new RoutingApiError('SB_ROUTING_RESPONSE', {
      method,
      path,
      status: 0,
      serverMessage: error.message,
      retryable: false,
      cause: error,
    });
  const err = error as { code?: string; message?: string };
  const tls = typeof err.code === 'string' && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO/.test(err.code);
  const timeout = typeof err.code === 'string' && /TIMEOUT/.test(err.code);
  const why = tls
    ? `TLS failure (${err.code}): check caFile, or whether the engine speaks TLS 1.2`
    : timeout
      ? `no answer within ${timeoutMs} ms (${err.code})`
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
