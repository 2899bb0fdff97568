import { readFileSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { Pool } from '../core/undici-pool.js';
import { SwitchboardError } from '../core/errors.js';
import { AnswerGatherer, AnswerTooLarge } from './answer-gatherer.js';
import type { RequestTarget } from './request-target.js';

/** Why an attempt produced no usable HTTP answer. */
export type TransportFailure = 'network' | 'tls' | 'timeout' | 'aborted' | 'truncated' | 'oversized';

/**
 * An attempt that failed below HTTP. `afterHeaders` tells whether a status line arrived
 * (the body then broke off), which matters for POSTs: the server did answer.
 */
export class TransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportError';
  }
}

export interface RawRequest {
  method: string;
  /** The origin to connect to and the path with its query (request-target.ts). */
  target: RequestTarget;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The client's own signal (the run was cancelled), followed as `signal` is. */
  stop?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  bytesIn: number;
  bytesOut: number;
}

export interface TransportOptions {
  caFile?: string;
  insecure?: boolean;
  /** The largest answer read (default 256 MB: answer-gatherer.ts; tests give a small one). */
  maxAnswerBytes?: number;
  /** Sockets per origin; the client's concurrency limit is the real bound. */
  connections?: number;
}

/** One undici Pool per origin, TLS verified unless `insecure`. */
export class Transport {
  private readonly pools = new Map<string, Pool>();
  private readonly ca: string | undefined;

  constructor(private readonly options: TransportOptions = {}) {
    this.ca = options.caFile ? readCa(options.caFile) : undefined;
  }

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: this.options.connections ?? 16,
        connect: {
          rejectUnauthorized: !this.options.insecure,
          ...(this.ca ? { ca: this.ca } : {}),
        },
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  /**
   * Sends one attempt; resolves with any HTTP status, rejects with a TransportError.
   *
   * Through undici's `dispatch` with a handler that gathers the body, not `request`: a
   * plan reads thousands of small lists, and `request` costs a Readable stream, an
   * AbortSignal.timeout and an AbortSignal.any per call, about 60 µs of CPU per request
   * (0.6 s per 10,000; plan-org benchmark). The deadline is one timer for the whole
   * attempt, as before.
   */
  send(request: RawRequest): Promise<RawResponse> {
    const bytesOut = request.body === undefined ? 0 : Buffer.byteLength(request.body);
    return new Promise<RawResponse>((resolve, reject) => {
      const attempt = new Attempt(request, bytesOut, resolve, reject, this.options.maxAnswerBytes);
      try {
        this.pool(request.target.origin).dispatch(
          {
            method: request.method as Dispatcher.HttpMethod,
            path: request.target.path,
            headers: request.headers,
            body: request.body ?? null,
            headersTimeout: request.timeoutMs,
            bodyTimeout: request.timeoutMs,
          },
          attempt,
        );
      } catch (error) {
        attempt.fail(error);
      }
    });
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close().catch(() => pool.destroy())));
  }
}

/**
 * The handler of one attempt: gathers the answer, enforces the deadline, follows the
 * caller's signal, and settles the promise exactly once.
 */
class Attempt extends AnswerGatherer {
  private controller: Dispatcher.DispatchController | undefined;
  private timedOut = false;
  private settled = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = (): void => this.abort();

  constructor(
    private readonly request: RawRequest,
    private readonly bytesOut: number,
    private readonly resolve: (response: RawResponse) => void,
    private readonly reject: (error: TransportError) => void,
    maxAnswerBytes?: number,
  ) {
    super(maxAnswerBytes);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.abort();
    }, request.timeoutMs);
    this.timer.unref(); // as AbortSignal.timeout's timer: a pending deadline alone keeps no process alive
    if (request.signal?.aborted || request.stop?.aborted) queueMicrotask(() => this.abort());
    else {
      request.signal?.addEventListener('abort', this.onAbort, { once: true });
      request.stop?.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new Error('request cancelled'));
  }

  onResponseEnd(): void {
    if (this.settled) return;
    // Decoded before settling: a body that cannot be decoded fails the attempt, never leaves it hanging.
    const text = this.text();
    if (text === undefined || this.settle()) return;
    this.resolve({
      status: this.status ?? 0,
      headers: this.headers,
      text,
      bytesIn: this.bytesReceived,
      bytesOut: this.bytesOut,
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  /** Rejects with the failure's kind: aborted, timeout, tls, truncated (after a status line) or network. */
  fail(error: unknown): void {
    if (this.settle()) return;
    const why =
      this.request.signal?.aborted || this.request.stop?.aborted
        ? 'aborted'
        : this.timedOut || isTimeoutError(error)
          ? 'timeout'
          : undefined;
    const failure: TransportFailure =
      why ??
      (error instanceof AnswerTooLarge
        ? 'oversized'
        : this.status !== undefined
          ? 'truncated'
          : isTlsError(error)
            ? 'tls'
            : 'network');
    this.reject(
      new TransportError(failure, describe(failure, error, this.request.timeoutMs), this.status, { cause: error }),
    );
  }

  private abort(): void {
    const error = new Error(this.timedOut ? 'request timed out' : 'request cancelled');
    this.controller?.abort(error);
    this.fail(error);
  }

  /** Marks the attempt settled; true when it already was. */
  private settle(): boolean {
    if (this.settled) return true;
    this.settled = true;
    clearTimeout(this.timer);
    this.request.signal?.removeEventListener('abort', this.onAbort);
    this.request.stop?.removeEventListener('abort', this.onAbort);
    return false;
  }
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new SwitchboardError(
      'SB_CONFIG_CA_FILE',
      `cannot read caFile ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
}

/** Certificate problems are not transient: they are reported at once, with what to do. */
function isTlsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS|ERR_SSL/.test(code)
  );
}

function isTimeoutError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'ETIMEDOUT' ||
    (error instanceof Error && error.name === 'TimeoutError')
  );
}

/** A short, secret-free description of a low-level failure. */
function describe(failure: TransportFailure, error: unknown, timeoutMs: number): string {
  if (failure === 'timeout') return `no complete answer within ${timeoutMs} ms`;
  if (failure === 'aborted') return 'request cancelled';
  if (failure === 'oversized') return error instanceof Error ? error.message : String(error);
  if (failure === 'tls') {
    const code = (error as { code?: unknown } | undefined)?.code;
    return `TLS certificate not accepted (${String(code)}): give the CA that signed it as caFile, or set insecure: true for a lab`;
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  const text = error instanceof Error ? error.message : String(error);
  const label = typeof code === 'string' ? `${code}: ${text}` : text;
  return failure === 'truncated' ? `response body broke off (${label})` : `connection failed (${label})`;
}
