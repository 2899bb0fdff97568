import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutingSimServer } from '../../../src/sim/routing/index.js';
import { call, numbersSeed, q, startRoutingEngineSim } from './helpers.js';

const base = '/draas/active/numbers';
let server: RoutingSimServer;

beforeAll(async () => {
  server = await startRoutingEngineSim({ seed: numbersSeed(1_000_000) });
}, 60_000);
afterAll(async () => server.close());

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, performance.now() - t0];
}

describe('routing sim: a 1,000,000-row table', () => {
  it('answers any page, a lookup by unique field and an id-targeted PATCH in milliseconds', async () => {
    await call(server, 'GET', `${base}?results_per_page=100&page=2`); // warm the id order
    const [page, pageMs] = await timed(() => call(server, 'GET', `${base}?results_per_page=100&page=9000`));
    expect(page.body.objects[0].id).toBe(899_901);
    const [hit, hitMs] = await timed(() =>
      call(server, 'GET', `${base}?${q({ filters: [{ name: 'number', op: '==', val: '+3200777777' }] })}`),
    );
    expect(hit.body.objects[0].id).toBe(777_778);
    const ids = Array.from({ length: 1000 }, (_, i) => 1 + i * 997);
    const [patch, patchMs] = await timed(() =>
      call(server, 'PATCH', base, { route: 'moved', q: { filters: [{ name: 'id', op: 'in', val: ids }] } }),
    );
    expect(patch.body).toEqual({ num_modified: 1000 });
    expect(pageMs).toBeLessThan(100);
    expect(hitMs).toBeLessThan(100);
    expect(patchMs).toBeLessThan(200);
  });
});
