import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What a test receiver does with one request: answer with a status (and headers), or never answer. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'never';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP receiver answering each request with the next of `answers` (the last one repeats). */
export async function startReceiver(answers: Answer[]): Promise<{
  url: string;
  received: Received[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = answers[Math.min(received.length - 1, answers.length - 1)] ?? { status: 200 };
      if (answer === 'never') return; // holds the request open until the client gives up
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook/T0KEN-in-the-path`,
    received,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
