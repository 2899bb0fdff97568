import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { answerNoSoonerThan, readBody, sendJson } from '../http.js';
import { createRoutingEngineSim, type RoutingEngineSim } from './create.js';
import type { RoutingSeed } from './types.js';

export interface RoutingSimServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  seed?: RoutingSeed;
  /** PEM file paths (strings) or PEM contents (Buffers); both given → HTTPS with TLS 1.2 only (Doc3 §5). */
  tlsCert?: string | Buffer;
  tlsKey?: string | Buffer;
  /** Delay added before every answer. */
  latencyMs?: number;
}

export interface RoutingSimServer {
  /** `http://host:port` or `https://host:port`. */
  url: string;
  port: number;
  sim: RoutingEngineSim;
  close(): Promise<void>;
}

/** Serves the routing engine simulator alone (tests, the benchmark). */
export async function startRoutingEngineSim(options: RoutingSimServerOptions = {}): Promise<RoutingSimServer> {
  const sim = createRoutingEngineSim(options.seed);
  const host = options.host ?? '127.0.0.1';
  const latency = options.latencyMs ?? 0;
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    void serve(sim, req, res, latency);
  };
  const tls = options.tlsCert !== undefined && options.tlsKey !== undefined;
  const server: Server = tls
    ? createHttpsServer(
        {
          cert: pem(options.tlsCert as string | Buffer),
          key: pem(options.tlsKey as string | Buffer),
          minVersion: 'TLSv1.2',
          maxVersion: 'TLSv1.2',
        },
        listener,
      )
    : createHttpServer(listener);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${tls ? 'https' : 'http'}://${shownHost}:${port}`,
    port,
    sim,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(sim: RoutingEngineSim, req: IncomingMessage, res: ServerResponse, latency: number): Promise<void> {
  try {
    const arrival = performance.now();
    const body = await readBody(req);
    if (latency > 0) answerNoSoonerThan(res, arrival + latency);
    const handled = await sim.handle(
      {
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'http://sim.local'),
        headers: req.headers,
        body,
        remoteAddress: req.socket.remoteAddress ?? '',
      },
      res,
    );
    if (!handled)
      sendJson(res, 404, { code: '404', message: `The requested URL ${req.url ?? '/'} was not found on the server.` });
  } catch {
    if (!res.headersSent) sendJson(res, 500, { code: '500', message: 'internal simulator error' });
  }
}

function pem(value: string | Buffer): Buffer {
  return typeof value === 'string' ? readFileSync(value) : value;
}
