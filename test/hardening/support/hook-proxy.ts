/**
 * A proxy in front of the simulator for the hardening tests: every request goes to `hook`
 * first, which may answer it itself (a hostile status and body), act on the simulator
 * before it is forwarded (another operator's change between two pages), or let it pass.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ProxyAnswer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** Answers the request itself, or returns undefined to forward it to the simulator. */
export type ProxyHook = (request: ProxiedRequest) => Promise<ProxyAnswer | undefined> | ProxyAnswer | undefined;

/** Sees every answer the simulator gave to a forwarded request. */
export type AnswerObserver = (request: ProxiedRequest, status: number, body: string) => void;

export interface HookProxy {
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

export async function startHookProxy(upstream: string, hook: ProxyHook, observe?: AnswerObserver): Promise<HookProxy> {
  const target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://proxy');
      const seen: ProxiedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      void (async () => {
        const answer = await hook(seen);
        if (answer) {
          res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
          res.end(answer.body);
          return;
        }
        const forwarded = request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: target.host },
          },
          (upstreamAnswer: IncomingMessage) => {
            res.writeHead(upstreamAnswer.statusCode ?? 502, upstreamAnswer.headers);
            const body: Buffer[] = [];
            upstreamAnswer.on('data', (c: Buffer) => body.push(c));
            upstreamAnswer.on('end', () =>
              observe?.(seen, upstreamAnswer.statusCode ?? 0, Buffer.concat(body).toString('utf8')),
            );
            upstreamAnswer.pipe(res);
          },
        );
        forwarded.on('error', () => res.socket?.destroy());
        forwarded.end(Buffer.concat(chunks));
      })().catch(() => res.socket?.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
