import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The contract between the simulator's HTTP server and the parts mounted on it (the
 * platform API, the routing engine, the `/_sim/` control surface). Each part answers the
 * requests it owns and returns false for the others.
 */
export interface SimRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  /** Raw body bytes (empty for none). */
  body: Buffer;
  /** Remote address as the platform would see it (for trusted-location bookkeeping). */
  remoteAddress: string;
}

export interface SimHandler {
  handle(req: SimRequest, res: ServerResponse): Promise<boolean> | boolean;
}

/**
 * Holds the answer a handler writes to `res` until `deadline` (a `performance.now()` time):
 * the handler runs at once and its answer leaves when the simulated latency is over, so a
 * request takes `--latency` from its arrival, the simulator's own work included, as a real
 * platform's response time includes its processing. An answer that took longer to compute
 * leaves at once. Handlers answer with one `end` (see {@link sendJson}), all this needs.
 */
export function answerNoSoonerThan(res: ServerResponse, deadline: number): void {
  const end = res.end.bind(res);
  res.end = ((...args: unknown[]) => {
    const wait = Math.ceil(deadline - performance.now());
    if (wait <= 0) return (end as (...a: unknown[]) => ServerResponse)(...args);
    setTimeout(() => (end as (...a: unknown[]) => ServerResponse)(...args), wait);
    return res;
  }) as ServerResponse['end'];
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(text ? { 'content-type': 'application/json' } : {}),
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-length': 0 });
  res.end();
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  contentType: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The request's body. Read with stream events: an async iterator costs a promise per chunk on every request. */
export function readBody(req: IncomingMessage, limitBytes = 64 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        req.destroy();
        reject(new Error('request body too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
