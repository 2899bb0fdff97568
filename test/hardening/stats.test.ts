/**
 * `plan --stats` (docs/connecting.md): for the platform and for the routing engine alike,
 * one row per method and route pattern with the attempts, retries, errors, status classes,
 * bytes and time, and totals that are the sum of the rows. Before, the routing engine gave
 * only a count per method (`{"routingEngine":{"GET":1000}}`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientStats } from '../../src/api/types.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';

/** What `--stats` prints for one API: the client's own figures, as JSON. */
type Figures = Pick<ClientStats, 'requests' | 'errors' | 'timeMs' | 'routes'>;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

const routing = (table: string, records: string) => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: ${table}, service: draas, version: active }
spec:
  key: [${table === 'routes' ? 'number' : 'prefix'}]
  fields: { ${table === 'routes' ? 'number: string, route: string, priority: integer' : 'prefix: string, carrier: string, weight: integer'} }
  records: ${records}
`;

/** Every row adds up, and the totals are the rows' sums. */
function expectConsistent(figures: Figures): void {
  expect(figures.routes.length).toBeGreaterThan(0);
  for (const row of figures.routes) {
    expect(row.method).toMatch(/^[A-Z]+$/);
    expect(
      Object.values(row.statuses).reduce((a, b) => a + b, 0),
      `${row.method} ${row.route}`,
    ).toBe(row.requests);
    expect(row.timeMs).toBeGreaterThanOrEqual(0);
  }
  expect(figures.requests).toBe(figures.routes.reduce((n, r) => n + r.requests, 0));
  expect(figures.errors).toBe(figures.routes.reduce((n, r) => n + r.errors, 0));
}

describe('plan --stats', () => {
  it('prints per-route figures with status classes for the platform and the routing engine', async () => {
    const dir = await manifestDir({
      'tenant.yaml': `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: acme-corp, reseller: north }
spec: { billingId: T-ACME, markup: 4 }
`,
      'routes.yaml': routing('routes', '[{ number: "+3221234560", route: trunk-7, priority: 10 }]'),
      // Empty: the engine answers 404 to its list (Document 3 §4.2), a 4xx the figures show.
      'carriers.yaml': routing('carriers', '[{ prefix: "+32", carrier: trunk-1, weight: 1 }]'),
    });
    await fetch(`${sim.url}/_sim/stats`, { method: 'DELETE' });
    const run = await runCli(['plan', dir, '--stats'], { env: simEnv(sim.url) });
    expect(run.code, run.stderr).toBe(0);
    const line = run.stderr
      .split('\n')
      .reverse()
      .find((l) => l.startsWith('{"platform"'));
    const stats = JSON.parse(line ?? '{}') as { platform: Figures; routingEngine: Figures };

    expectConsistent(stats.platform);
    expectConsistent(stats.routingEngine);
    const engine = (method: string, route: string) =>
      stats.routingEngine.routes.find((r) => r.method === method && r.route === route);
    expect(engine('GET', '/draas/active/routes')?.statuses).toEqual({ '2xx': 1 });
    expect(engine('GET', '/draas/active/carriers')?.statuses['4xx']).toBeGreaterThanOrEqual(1);
    expect(
      stats.platform.routes.find((r) => r.method === 'GET' && r.route.endsWith('/tenants'))?.statuses['2xx'],
    ).toBeGreaterThan(0);

    // The figures are what went over the wire: the simulator counted as many (but the logout, after them).
    const served = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as {
      total: number;
      byRoute: Record<string, number>;
    };
    const logout = served.byRoute['POST /api/v01/auth/logout'] ?? 0;
    expect(stats.platform.requests + stats.routingEngine.requests).toBe(served.total - logout);
  });
});
