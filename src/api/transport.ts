import { readFileSync } from 'node:fs';
import { Pool, type Dispatcher } from 'undici';
import { SwitchboardError } from '../core/errors.js';

/** Why an attempt produced no usable HTTP answer. */
export type TransportFailure = 'network' | 'tls' | 'timeout' | 'aborted' | 'truncated';

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
  url: URL;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
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

  /** Sends one attempt; resolves with any HTTP status, rejects with a TransportError. */
  async send(request: RawRequest): Promise<RawResponse> {
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const bytesOut = request.body === undefined ? 0 : Buffer.byteLength(request.body);
    const why = (): TransportFailure | undefined =>
      request.signal?.aborted ? 'aborted' : timeout.aborted ? 'timeout' : undefined;

    let response;
    try {
      response = await this.pool(request.url.origin).request({
        method: request.method as Dispatcher.HttpMethod,
        path: `${request.url.pathname}${request.url.search}`,
        headers: request.headers,
        body: request.body,
        signal,
        headersTimeout: request.timeoutMs,
        bodyTimeout: request.timeoutMs,
      });
    } catch (error) {
      const failure = why() ?? (isTimeoutError(error) ? 'timeout' : isTlsError(error) ? 'tls' : 'network');
      throw new TransportError(failure, describe(failure, error, request.timeoutMs), undefined, { cause: error });
    }
    try {
      const buffer = Buffer.from(await response.body.arrayBuffer());
      return { status: response.statusCode, headers: response.headers, text: buffer.toString('utf8'), bytesIn: buffer.length, bytesOut };
    } catch (error) {
      const failure = why() ?? (isTimeoutError(error) ? 'timeout' : 'truncated');
      throw new TransportError(failure, describe(failure, error, request.timeoutMs), response.statusCode, { cause: error });
    }
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close().catch(() => pool.destroy())));
  }
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new SwitchboardError('SB_CONFIG_CA_FILE', `cannot read caFile ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** Certificate problems are not transient: they are reported at once, with what to do. */
function isTlsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS|ERR_SSL/.test(code);
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
  if (failure === 'tls') {
    const code = (error as { code?: unknown } | undefined)?.code;
    return `TLS certificate not accepted (${String(code)}): give the CA that signed it as caFile, or set insecure: true for a lab`;
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  const text = error instanceof Error ? error.message : String(error);
  const label = typeof code === 'string' ? `${code}: ${text}` : text;
  return failure === 'truncated' ? `response body broke off (${label})` : `connection failed (${label})`;
}
