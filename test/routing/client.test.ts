import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RoutingApiError, RoutingClient, encodeQuery, f, query } from '../../src/routing/index.js';
import { startRoutingEngineSim, type RoutingSimServer } from '../../src/sim/routing/index.js';
import { BASIC_AUTH, ROUTES, routesSeed, scriptedServer } from './helpers.js';

let server: RoutingSimServer;
const clients: RoutingClient[] = [];
function client(opts: Partial<ConstructorParameters<typeof RoutingClient>[0]> = {}): RoutingClient {
  const c = new RoutingClient({ url: server.url, auth: BASIC_AUTH, ...opts });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startRoutingEngineSim({ seed: routesSeed(1234) });
});
afterAll(async () => server.close());
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  server.sim.reset(routesSeed(1234));
  server.sim.clearStats();
});

describe('routing client: q builder (Doc3 §4.1)', () => {
  it('builds filters, groups and order and URL-encodes them', () => {
    const q = query(
      [f.eq('route', 'trunk-1'), f.or(f.lt('priority', 3), f.isNull('priority'))],
      ['-priority', 'number'],
    );
    expect(q).toEqual({
      filters: [
        { name: 'route', op: '==', val: 'trunk-1' },
        {
          or: [
            { name: 'priority', op: '<', val: 3 },
            { name: 'priority', op: 'is_null' },
          ],
        },
      ],
      order_by: [
        { field: 'priority', direction: 'desc' },
        { field: 'number', direction: 'asc' },
      ],
    });
    const encoded = encodeQuery(query([f.eq('number', '+32 1&2')]));
    expect(encoded.slice(2)).not.toMatch(/[+ &"{]/);
    expect(JSON.parse(decodeURIComponent(encoded.slice(2)))).toEqual({
      filters: [{ name: 'number', op: '==', val: '+32 1&2' }],
    });
  });
});

describe('routing client: reads', () => {
  it('reads a whole table at the server cap, detected from the first page, in the fewest requests', async () => {
    const result = await client().readAll(ROUTES);
    expect(result.pageSize).toBe(100);
    expect(result.requests).toBe(13);
    expect(result.rows).toHaveLength(1234);
    expect(new Set(result.rows.map((r) => r.id)).size).toBe(1234);
    expect(server.sim.stats()['GET collection']).toBe(13);
    expect(server.sim.requests().every((r) => r.search.includes('results_per_page=10000'))).toBe(true);
  });

  it('Doc3 §4.1: searches with every kind of filter through the URL, with order', async () => {
    const c = client();
    const result = await c.readAll(
      ROUTES,
      query([f.eq('route', 'trunk-1'), f.or(f.ge('priority', 8), f.in('number', ['+32000001']))], ['-priority']),
    );
    const expected = Array.from({ length: 1234 }, (_, i) => i).filter((i) => i % 4 === 1 && (i % 10 >= 8 || i === 1));
    expect(result.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(expected.map((i) => i + 1));
    expect(result.rows[0]?.['priority']).toBe(9);
  });

  it('Doc3 §4.2: a search that answers 404 is "no rows"; get() of an absent id is null', async () => {
    const c = client();
    expect((await c.readAll(ROUTES, query([f.eq('route', 'nowhere')]))).rows).toEqual([]);
    expect(await c.get(ROUTES, 999_999)).toBeNull();
    expect(await c.get(ROUTES, 5)).toMatchObject({ id: 5, number: '+32000004' });
  });

  it('Doc3 §4.2: an empty table reads as no rows, whether the engine answers the documented 404 or 200 with num_results 0', async () => {
    const emptySeed = (quirks: { emptyListStatus?: 200 | 404 }) => ({ ...routesSeed(0), quirks });
    for (const emptyListStatus of [404, 200] as const) {
      server.sim.reset(emptySeed({ emptyListStatus }));
      let warnings = '';
      const logger = pino(
        { level: 'warn' },
        new Writable({
          write(chunk: Buffer, _e, done) {
            warnings += chunk.toString();
            done();
          },
        }),
      );
      const result = await client({ logger }).readAll(ROUTES);
      expect(result, `empty table answered ${emptyListStatus}`).toMatchObject({ rows: [], requests: 1 });
      expect(server.sim.requests().at(-1)?.status).toBe(emptyListStatus);
      expect(warnings).toBe('');
      // After a create the table lists in either case.
      await client().create(ROUTES, { number: '+33-1', route: 'x' });
      expect((await client().readAll(ROUTES)).rows).toHaveLength(1);
    }
  });

  it('tolerates total_pages 0, a null body on 404, and an HTML body on 500', async () => {
    const fake = await scriptedServer((req, res) => {
      if (req.url?.startsWith('/s/active/empty'))
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"num_results":0,"page":1,"total_pages":0,"objects":[]}');
      if (req.url?.startsWith('/s/active/missing'))
        return void res.writeHead(404, { 'content-type': 'application/json' }).end('null');
      res
        .writeHead(500, { 'content-type': 'text/html' })
        .end('<html><body><h1>Internal Server Error</h1><p>boom</p></body></html>');
    });
    const c = new RoutingClient({ url: fake.url, auth: { token: 't' }, retries: 0 });
    try {
      expect(await c.readAll({ service: 's', version: 'active', table: 'empty' })).toMatchObject({
        rows: [],
        requests: 1,
      });
      expect(
        (await c.readAll({ service: 's', version: 'active', table: 'missing' }, query([f.eq('a', 1)]))).rows,
      ).toEqual([]);
      const error = await c.readAll({ service: 's', version: 'active', table: 'broken' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RoutingApiError);
      expect(error).toMatchObject({
        code: 'SB_ROUTING_HTTP',
        status: 500,
        method: 'GET',
        path: '/s/active/broken',
        serverMessage: 'Internal Server Error boom',
        retryable: false,
      });
    } finally {
      await c.close();
      await fake.close();
    }
  });
});

describe('routing client: auth (Doc3 §5)', () => {
  it('works with Basic and with Bearer, and never puts credentials in an error', async () => {
    expect((await client().readAll(ROUTES)).rows).toHaveLength(1234);
    expect((await client({ auth: { token: 'routing-token' } }).readAll(ROUTES)).rows).toHaveLength(1234);
    const error = await client({ auth: { username: 'routing', password: 'wrong-pw' } })
      .listPage(ROUTES)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SB_ROUTING_HTTP', status: 401 });
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toMatch(
      /wrong-pw|cm91dGluZzp3cm9uZy1wdw/,
    );
  });
});

describe('routing client: writes (Doc3 §4.2)', () => {
  it('a collection PATCH carries its filter in the body, never in the URL, so an engine that ignores URL filters changes only the targeted rows', async () => {
    server.sim.reset(routesSeed(1234, { quirks: { ignoreUrlFilterOnWrite: true } }));
    const n = await client().updateWhere(ROUTES, [f.in('id', [3, 4, 5])], { route: 'moved' });
    expect(n).toBe(3);
    const moved = await client().readAll(ROUTES, query([f.eq('route', 'moved')]));
    expect(moved.rows.map((r) => r.id)).toEqual([3, 4, 5]);
    const patch = server.sim.requests().find((r) => r.method === 'PATCH');
    expect(patch).toMatchObject({ path: '/draas/active/routes', search: '' });
    await expect(client().updateWhere(ROUTES, [], { route: 'everything' })).rejects.toThrow(/needs a filter/);
  });

  it('creates one, in bulk, updates by id, deletes by id (404 on delete counts as done)', async () => {
    const c = client();
    const created = await c.create(ROUTES, { number: '+33-1', route: 'x' });
    expect(created).toMatchObject({ id: 1235, number: '+33-1', priority: null });
    expect(
      await c.bulkCreate(ROUTES, [
        { number: '+33-2', route: 'y' },
        { number: '+33-3', route: 'z' },
      ]),
    ).toBe(2);
    expect(await c.update(ROUTES, 1235, { priority: 4 })).toMatchObject({ id: 1235, priority: 4 });
    expect(await c.delete(ROUTES, 1235)).toBe('deleted');
    expect(await c.delete(ROUTES, 1235)).toBe('absent');
  });

  it('Doc3 §4.2: a failing _bulk reports the failing index and the server message', async () => {
    const error = await client()
      .bulkCreate(ROUTES, [
        { number: '+34-1', route: 'a' },
        { number: '+32000007', route: 'dup' },
      ])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'SB_ROUTING_HTTP',
      status: 400,
      index: 1,
      serverMessage: expect.stringMatching(/duplicate key/),
    });
  });
});

describe('routing client: engines that refuse a large page size', () => {
  it('falls back to 100 per page when the first, large page is answered 400', async () => {
    const seen: string[] = [];
    const fake = await scriptedServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push(url.search);
      const per = Number(url.searchParams.get('results_per_page'));
      if (per > 100)
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"code":"400","message":"results_per_page too large"}');
      const page = Number(url.searchParams.get('page'));
      const objects = Array.from({ length: page === 3 ? 50 : 100 }, (_, i) => ({ id: (page - 1) * 100 + i + 1 }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ num_results: 250, page, total_pages: 3, objects }));
    });
    const c = new RoutingClient({ url: fake.url, auth: { token: 't' } });
    try {
      const result = await c.readAll({ service: 's', version: 'active', table: 't' });
      expect(result).toMatchObject({ pageSize: 100, requests: 4 });
      expect(result.rows.map((r) => r.id)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
      expect(seen).toHaveLength(4);
    } finally {
      await c.close();
      await fake.close();
    }
  });
});
