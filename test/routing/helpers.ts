import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RoutingSeed } from '../../src/sim/routing/index.js';

/** `draas/active/routes` (number unique, route, priority) with `count` rows. */
export function routesSeed(count: number, extra: Partial<RoutingSeed> = {}): RoutingSeed {
  return {
    credentials: { basic: [{ username: 'routing', password: 's3cret-pw' }], tokens: ['routing-token'] },
    ...extra,
    services: {
      draas: {
        active: {
          routes: {
            fields: {
              number: { type: 'string', unique: true, nullable: false },
              route: { type: 'string', nullable: false },
              priority: { type: 'integer' },
            },
            rows: Array.from({ length: count }, (_, i) => ({
              number: `+32${String(i).padStart(6, '0')}`,
              route: `trunk-${i % 4}`,
              priority: i % 10,
            })),
          },
        },
      },
    },
  };
}

export const ROUTES = { service: 'draas', version: 'active', table: 'routes' } as const;
export const BASIC_AUTH = { username: 'routing', password: 's3cret-pw' };

/** A scripted HTTP server for answers the simulator never gives (null bodies, HTML 500s). */
export async function scriptedServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
