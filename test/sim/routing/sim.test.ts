import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRoutingEngineSim } from '../../../src/sim/routing/index.js';
import { call, numbersSeed, q, startRoutingEngineSim } from './helpers.js';
import type { RoutingSimServer } from '../../../src/sim/routing/index.js';

const base = '/draas/active/numbers';
let server: RoutingSimServer;

beforeAll(async () => {
  server = await startRoutingEngineSim({ seed: numbersSeed(250) });
});
afterAll(async () => server.close());
beforeEach(() => server.sim.reset(numbersSeed(250)));

describe('routing sim: auth and paths', () => {
  it('Doc3 §5: rejects a request without credentials and accepts Basic and Bearer', async () => {
    expect((await call(server, 'GET', base, undefined, null)).status).toBe(401);
    expect(
      (await call(server, 'GET', base, undefined, `Basic ${Buffer.from('routing:wrong').toString('base64')}`)).status,
    ).toBe(401);
    expect((await call(server, 'GET', base, undefined, 'Bearer nope')).status).toBe(401);
    expect((await call(server, 'GET', base)).status).toBe(200);
    expect((await call(server, 'GET', base, undefined, 'Bearer routing-token')).status).toBe(200);
  });

  it('docs/simulator.md: leaves /api/… and /_sim/… to the other handlers', () => {
    const sim = createRoutingEngineSim();
    const req = (path: string) => ({
      method: 'GET',
      url: new URL(path, 'http://x'),
      headers: {},
      body: Buffer.alloc(0),
      remoteAddress: '',
    });
    const res = {
      statusCode: 0,
      writeHead() {
        return this;
      },
      end() {
        return this;
      },
    } as never;
    expect(sim.handle(req('/api/v01/draas/demo/tenants'), res)).toBe(false);
    expect(sim.handle(req('/_sim/state/x'), res)).toBe(false);
    expect(sim.handle(req('/draas/active/routes'), res)).toBe(true);
    // Every other path is the engine's, answered with its own error body (Doc3 §7).
    expect(sim.handle(req('/draas/%E0%A4%A/routes'), res)).toBe(true);
    expect(sim.handle(req('/draas/nosuchversion/routes'), res)).toBe(true);
  });

  it("Doc3 §7: an unknown version, service shape or malformed path is 404 with {code, message}, not the platform's body", async () => {
    for (const path of [
      '/draas/nosuchversion/routes',
      '/draas/active',
      '/draas/active/routes/1/x',
      '/draas/%E0%A4%A/routes',
    ]) {
      const r = await call(server, 'GET', path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).toEqual({ code: '404', message: expect.stringContaining('was not found') });
    }
  });

  it('Doc3 §7: unknown table is 404 with {code, message} naming the path', async () => {
    const r = await call(server, 'GET', '/draas/active/nope');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: '404', message: expect.stringContaining('/draas/active/nope') });
  });

  it('notes/seed.md: the default data set has draas routes with 5 rows and carriers', async () => {
    const sim = createRoutingEngineSim();
    const state = sim.state();
    expect(state.services['draas']?.active?.['routes']?.rows).toHaveLength(5);
    expect(Object.keys(state.services['draas']?.standby ?? {})).toEqual(['routes', 'carriers']);
  });
});

describe('routing sim: pagination (Doc3 §4.1, §8)', () => {
  it('defaults to 10 per page, page 1, ordered by id', async () => {
    const r = await call(server, 'GET', base);
    expect(r.body).toMatchObject({ num_results: 250, page: 1, total_pages: 25 });
    expect(r.body.objects.map((o: { id: number }) => o.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('caps results_per_page at the seed limit (100 by default) and pages by it', async () => {
    const r = await call(server, 'GET', `${base}?results_per_page=5000&page=3`);
    expect(r.body).toMatchObject({ num_results: 250, page: 3, total_pages: 3 });
    expect(r.body.objects).toHaveLength(50);
    expect(r.body.objects[0].id).toBe(201);
    server.sim.reset(numbersSeed(250, { maxResultsPerPage: 40 }));
    expect((await call(server, 'GET', `${base}?results_per_page=5000`)).body.total_pages).toBe(7);
  });

  it('Doc3 §4.2 "404 when data not found": listing a table that holds no record is 404 {code, message}', async () => {
    const r = await call(server, 'GET', '/draas/active/empty');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: '404', message: expect.stringContaining('/draas/active/empty') });
    expect((await call(server, 'GET', `${base}?page=0`)).status).toBe(400);
  });

  it('quirk emptyListStatus 200: an empty table lists as 200 with num_results 0 and total_pages 0; a search with no match stays 404', async () => {
    const quirky = await startRoutingEngineSim({ seed: numbersSeed(3, { quirks: { emptyListStatus: 200 } }) });
    try {
      expect((await call(quirky, 'GET', '/draas/active/empty')).body).toEqual({
        num_results: 0,
        page: 1,
        total_pages: 0,
        objects: [],
      });
      expect(
        (await call(quirky, 'GET', `/draas/active/empty?${q({ filters: [{ name: 'name', op: '==', val: 'x' }] })}`))
          .status,
      ).toBe(404);
    } finally {
      await quirky.close();
    }
  });

  it('Doc3 §4.2: a search that matches nothing is 404', async () => {
    const r = await call(server, 'GET', `${base}?${q({ filters: [{ name: 'route', op: '==', val: 'nowhere' }] })}`);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('404');
  });
});

describe('routing sim: records (Doc3 §4.2)', () => {
  it('GET by id, 404 for an absent id', async () => {
    expect((await call(server, 'GET', `${base}/7`)).body).toMatchObject({
      id: 7,
      number: '+3200000006',
      priority: null,
    });
    expect((await call(server, 'GET', `${base}/9999`)).status).toBe(404);
  });

  it('POST answers 201 with the new id; 400 with database text on a unique violation; 500 on a type error', async () => {
    const ok = await call(server, 'POST', base, { number: '+3299', route: 'r' });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ id: 251, number: '+3299', route: 'r', priority: null, enabled: null, weight: null });
    const dup = await call(server, 'POST', base, { number: '+3299', route: 'r' });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toMatch(
      /duplicate key value violates unique constraint "numbers_number_key"[\s\S]*Key \(number\)=\(\+3299\) already exists/,
    );
    const bad = await call(server, 'POST', base, { number: '+3298', route: 'r', priority: 'ten' });
    expect(bad.status).toBe(500);
    expect(bad.body).toEqual({ code: '500', message: expect.stringMatching(/unexpected condition/) });
    expect((await call(server, 'POST', base, { number: '+3297' })).body.message).toMatch(/not-null/);
  });

  it('POST _bulk is one transaction: nothing applied when a record fails, and the error names its index', async () => {
    const records = [
      { number: '+3301', route: 'a' },
      { number: '+3302', route: 'b' },
      { number: '+3301', route: 'c' },
    ];
    const r = await call(server, 'POST', `${base}/_bulk`, records);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: '400',
      index: 2,
      message: expect.stringMatching(/^record 2: .*duplicate key/),
    });
    expect((await call(server, 'GET', base)).body.num_results).toBe(250);
    const typed = await call(server, 'POST', `${base}/_bulk`, [
      { number: '+3303', route: 'a' },
      { number: '+3304', route: 5 },
    ]);
    expect(typed).toMatchObject({ status: 500, body: { index: 1 } });
    const ok = await call(server, 'POST', `${base}/_bulk`, records.slice(0, 2));
    expect(ok).toEqual({ status: 201, body: { inserted: 2 } });
    expect((await call(server, 'GET', base)).body.num_results).toBe(252);
  });

  it('PUT and PATCH by id update fields and answer the full record; 400 on unique clash; 404 absent', async () => {
    expect((await call(server, 'PATCH', `${base}/1`, { route: 'x' })).body).toMatchObject({
      id: 1,
      number: '+3200000000',
      route: 'x',
    });
    expect((await call(server, 'PUT', `${base}/1`, { priority: 9 })).body).toMatchObject({
      id: 1,
      route: 'x',
      priority: 9,
    });
    expect((await call(server, 'PATCH', `${base}/1`, { number: '+3200000001' })).status).toBe(400);
    expect((await call(server, 'PATCH', `${base}/1`, { priority: 'x' })).status).toBe(500);
    expect((await call(server, 'PATCH', `${base}/999`, { route: 'x' })).status).toBe(404);
  });

  it('DELETE by id answers 204, then 404 (design decision)', async () => {
    const del = await fetch(`${server.url}${base}/3`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer routing-token' },
    });
    expect(del.status).toBe(204);
    expect((await call(server, 'DELETE', `${base}/3`)).status).toBe(404);
    expect((await call(server, 'GET', base)).body.num_results).toBe(249);
    expect(
      (await call(server, 'GET', `${base}?results_per_page=3`)).body.objects.map((o: { id: number }) => o.id),
    ).toEqual([1, 2, 4]);
  });
});

describe('routing sim: collection updates (Doc3 §4.1, §4.2)', () => {
  const filter = { filters: [{ name: 'id', op: 'in', val: [1, 2, 3] }] };

  it('PATCH with q in the body updates the matching rows and answers num_modified', async () => {
    const r = await call(server, 'PATCH', base, { route: 'moved', q: filter });
    expect(r).toEqual({ status: 200, body: { num_modified: 3 } });
    const moved = await call(server, 'GET', `${base}?${q({ filters: [{ name: 'route', op: '==', val: 'moved' }] })}`);
    expect(moved.body.objects.map((o: { id: number }) => o.id)).toEqual([1, 2, 3]);
  });

  it('PUT with q in the URL works too; a filter in both the URL and the body is 400', async () => {
    expect((await call(server, 'PUT', `${base}?${q(filter)}`, { route: 'moved' })).body).toEqual({ num_modified: 3 });
    const both = await call(server, 'PATCH', `${base}?${q(filter)}`, { route: 'x', q: filter });
    expect(both.status).toBe(400);
    expect(both.body.message).toMatch(/twice/);
  });

  it('is atomic: a unique value given to several rows changes none', async () => {
    const r = await call(server, 'PATCH', base, { number: '+32same', q: filter });
    expect(r.status).toBe(400);
    expect((await call(server, 'GET', `${base}/1`)).body.number).toBe('+3200000000');
  });

  it('a filter that matches nothing modifies nothing (200, num_modified 0)', async () => {
    expect(
      (await call(server, 'PATCH', base, { route: 'x', q: { filters: [{ name: 'id', op: '==', val: 99999 }] } })).body,
    ).toEqual({ num_modified: 0 });
  });
});

describe('routing sim: state', () => {
  it('docs/simulator.md: state() is a seed that reset() takes back, ids and limits kept', async () => {
    await call(server, 'DELETE', `${base}/5`);
    const copy = createRoutingEngineSim(server.sim.state());
    const again = copy.state();
    expect(again.services['draas']?.active?.['numbers']?.rows).toHaveLength(249);
    expect(again.services['draas']?.active?.['numbers']?.rows?.[4]).toMatchObject({ id: 6 });
  });
});
