import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RoutingClient, diffRows, executeRoutingChanges, type ColumnarRows } from '../../src/routing/index.js';
import { startRoutingEngineSim, type RoutingSimServer } from '../../src/sim/routing/index.js';
import { BASIC_AUTH, ROUTES, routesSeed } from './helpers.js';

let server: RoutingSimServer;
let client: RoutingClient;

beforeAll(async () => {
  server = await startRoutingEngineSim({ seed: routesSeed(3000) });
  client = new RoutingClient({ url: server.url, auth: BASIC_AUTH });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
afterEach(() => {
  server.sim.reset(routesSeed(3000));
  server.sim.clearStats();
});

/** Live rows 100..2999 kept (0..99 dropped), 300 of them re-routed in 3 groups, `extra` new rows. */
function desired(extra: number, bad?: number): ColumnarRows {
  const rows: unknown[][] = [];
  for (let i = 100; i < 3000; i++)
    rows.push([`+32${String(i).padStart(6, '0')}`, i < 400 ? `moved-${i % 3}` : `trunk-${i % 4}`, String(i % 10)]);
  for (let i = 0; i < extra; i++)
    rows.push([`+33${String(i).padStart(6, '0')}`, 'new', i === bad ? 1.5 : String(i % 10)]);
  return { columns: ['number', 'route', 'priority'], rows, sourceOf: (i) => `routes.csv:${i + 2}` };
}

async function plan(rows: ColumnarRows) {
  return diffRows(rows, (await client.readAll(ROUTES)).rows, { key: ['number'], prune: true });
}

describe('executeRoutingChanges', () => {
  it('applies deletes by id, creates in _bulk chunks and one PATCH per update group, and converges', async () => {
    const diff = await plan(desired(1500));
    expect(diff.updateGroups).toHaveLength(3);
    server.sim.clearStats();
    const report = await executeRoutingChanges(client, ROUTES, diff, { bulkSize: 1000 });
    expect(report).toMatchObject({
      created: 1500,
      updated: 300,
      deleted: 100,
      skipped: 0,
      failures: [],
      warnings: [],
      bulkFallback: false,
    });
    expect(server.sim.stats()).toEqual({ 'DELETE item': 100, 'POST bulk': 2, 'PATCH collection': 3 });
    expect(
      server.sim
        .requests()
        .filter((r) => r.method === 'PATCH')
        .every((r) => r.search === ''),
    ).toBe(true);
    const again = await plan(desired(1500));
    expect(again).toMatchObject({ creates: [], updateGroups: [], deletes: [], noops: 4400 });
  });

  it("a failing chunk is reported with the failing row's CSV line, applies nothing, and nothing after it is sent", async () => {
    const diff = await plan(desired(2500, 1500));
    const report = await executeRoutingChanges(client, ROUTES, diff, { bulkSize: 1000 });
    expect(report.failures).toEqual([
      expect.objectContaining({
        action: 'create',
        key: 'number=+33001500',
        source: `routes.csv:${2900 + 1500 + 2}`,
        code: 'SB_ROUTING_HTTP',
        message: expect.stringMatching(
          /POST \/draas\/active\/routes\/_bulk → 500: record 500: .*chunk of 1000 not applied/,
        ),
      }),
    ]);
    expect(report.created).toBe(1000);
    expect(report.skipped).toBe(999 + 500 + 300);
    expect(server.sim.stats()['POST bulk']).toBe(2);
    expect(server.sim.stats()['PATCH collection']).toBeUndefined();
  });

  it('with keepGoing, drops the failing record, resends the rest of its chunk and goes on', async () => {
    const diff = await plan(desired(2500, 1500));
    const report = await executeRoutingChanges(client, ROUTES, diff, { bulkSize: 1000, keepGoing: true });
    expect(report).toMatchObject({ created: 2499, updated: 300, deleted: 100, skipped: 0 });
    expect(report.failures).toHaveLength(1);
  });

  it('falls back to single POSTs with a warning when _bulk answers 404 or 405', async () => {
    for (const status of [404, 405] as const) {
      server.sim.reset(routesSeed(3000, { quirks: { bulkStatus: status } }));
      server.sim.clearStats();
      const report = await executeRoutingChanges(client, ROUTES, await plan(desired(30)), { bulkSize: 10 });
      expect(report).toMatchObject({ created: 30, bulkFallback: true, failures: [] });
      expect(report.warnings).toEqual([expect.stringContaining(`answered ${status}`)]);
      expect(server.sim.stats()['POST bulk']).toBe(1);
      expect(server.sim.stats()['POST collection']).toBe(30);
    }
  });

  it('treats a delete of a row that is already gone as done', async () => {
    const diff = await plan(desired(0));
    await client.delete(ROUTES, diff.deletes[0]?.id as number);
    const report = await executeRoutingChanges(client, ROUTES, diff);
    expect(report).toMatchObject({ deleted: 100, failures: [] });
  });
});
