import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutingSimServer } from '../../../src/sim/routing/index.js';
import { call, numbersSeed, q, startRoutingEngineSim } from './helpers.js';

const base = '/draas/active/numbers';
let server: RoutingSimServer;

beforeAll(async () => {
  server = await startRoutingEngineSim({ seed: numbersSeed(1_000_000) });
}, 60_000);
afterAll(async () => server.close());

// How fast these answer is measured by `node test/bench/sim-lists.mjs`, not asserted here.
describe('routing sim: a 1,000,000-row table', () => {
  it('answers any page, a lookup by unique field and an id-targeted PATCH', async () => {
    const page = await call(server, 'GET', `${base}?results_per_page=100&page=9000`);
    expect(page.body.objects[0].id).toBe(899_901);
    expect(page.body.objects).toHaveLength(100);
    const hit = await call(
      server,
      'GET',
      `${base}?${q({ filters: [{ name: 'number', op: '==', val: '+3200777777' }] })}`,
    );
    expect(hit.body.objects.map((o: { id: number }) => o.id)).toEqual([777_778]);
    const ids = Array.from({ length: 1000 }, (_, i) => 1 + i * 997);
    const patch = await call(server, 'PATCH', base, {
      route: 'moved',
      q: { filters: [{ name: 'id', op: 'in', val: ids }] },
    });
    expect(patch.body).toEqual({ num_modified: 1000 });
  });
});
