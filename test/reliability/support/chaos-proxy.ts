/**
 * A recording proxy in front of the simulator: it sees every request on the wire, and adds
 * the two network faults the simulator's own fault injection cannot produce, because they
 * happen after the platform acted: an answer lost on the way back (the write took effect,
 * the client sees a reset connection) and a latency spike on the answer.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireRecord {
  method: string;
  /** Path without the query string. */
  path: string;
  /** The simulator's status; undefined when the simulator reset the connection. */
  status?: number;
  /** Answered by the simulator's fault injection (`/_sim/faults`), not by the platform. */
  injected: boolean;
  /** The proxy dropped the answer after the simulator had handled the request. */
  lost: boolean;
  spikeMs: number;
}

export interface ChaosOptions {
  /** Share of answers dropped after the platform handled them. */
  loseRate?: number;
  /** Share of answers delayed by `spikeMs`. */
  spikeRate?: number;
  spikeMs?: [number, number];
  random?: () => number;
}

export interface ChaosProxy {
  url: string;
  records: WireRecord[];
  options: ChaosOptions;
  close(): Promise<void>;
}

export async function startChaosProxy(upstream: string, options: ChaosOptions = {}): Promise<ChaosProxy> {
  const target = new URL(upstream);
  const records: WireRecord[] = [];
  const proxy: ChaosProxy = { url: '', records, options, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { loseRate = 0, spikeRate = 0, spikeMs = [200, 800], random = Math.random } = proxy.options;
      const control = (req.url ?? '').startsWith('/_sim/');
      const record: WireRecord = {
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0] ?? '/',
        injected: false,
        lost: false,
        spikeMs: 0,
      };
      if (!control) records.push(record);
      const upstreamReq = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer: IncomingMessage) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            const text = Buffer.concat(body);
            record.status = answer.statusCode ?? 0;
            record.injected = text.includes('"injected_fault"');
            if (!control && random() < loseRate) {
              record.lost = true;
              res.socket?.destroy();
              return;
            }
            const spike = !control && random() < spikeRate ? spikeMs[0] + random() * (spikeMs[1] - spikeMs[0]) : 0;
            record.spikeMs = Math.round(spike);
            setTimeout(() => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(text);
            }, spike);
          });
          answer.on('error', () => res.socket?.destroy());
        },
      );
      upstreamReq.on('error', () => res.socket?.destroy());
      upstreamReq.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** Writes the platform (or the routing engine) handled: not injected, not a 401 (refused before any effect), not authentication. */
export function handledWrites(records: WireRecord[]): WireRecord[] {
  return records.filter(
    (r) =>
      r.method !== 'GET' &&
      r.status !== undefined &&
      !r.injected &&
      r.status !== 401 &&
      !r.path.startsWith('/api/v01/auth/'),
  );
}
