import { startRoutingEngineSim, type RoutingSeed, type RoutingSimServer } from '../../../src/sim/routing/index.js';

export const BASIC = `Basic ${Buffer.from('routing:routing').toString('base64')}`;

/** A `draas/active/numbers` table with `count` rows: number n, route trunk-(n%3), priority n%5 (null every 7th). */
export function numbersSeed(count: number, extra: Partial<RoutingSeed> = {}): RoutingSeed {
  const rows = Array.from({ length: count }, (_, i) => ({
    number: `+32${String(i).padStart(8, '0')}`,
    route: `trunk-${i % 3}`,
    priority: i % 7 === 6 ? null : i % 5,
    enabled: i % 2 === 0,
    weight: i / 4,
  }));
  return {
    credentials: { basic: [{ username: 'routing', password: 'routing' }], tokens: ['routing-token'] },
    ...extra,
    services: {
      draas: {
        active: {
          numbers: {
            fields: {
              number: { type: 'string', unique: true, nullable: false },
              route: { type: 'string', nullable: false },
              priority: { type: 'integer' },
              enabled: { type: 'boolean' },
              weight: { type: 'number' },
            },
            rows,
          },
          empty: { fields: { name: { type: 'string' } } },
        },
      },
    },
  };
}

/** fetch with Basic auth and a JSON body. */
export async function call(
  server: RoutingSimServer,
  method: string,
  path: string,
  body?: unknown,
  auth: string | null = BASIC,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(auth ? { authorization: auth } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export function q(obj: unknown): string {
  return `q=${encodeURIComponent(JSON.stringify(obj))}`;
}

export { startRoutingEngineSim };
