/**
 * The simulator's `peer: flask-restless-0.17` seed option: the routing engine as an
 * unmodified Flask-Restless 0.17 server over SQLite answers it, where that differs from
 * Document 3 (docs/simulator.md): no `_bulk`, 200 for an empty list and an empty search,
 * and SQLite's type affinity instead of Document 3 §4.2's 500 for text in an integer column.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRoutingEngineSim, type RoutingSimServer } from '../../../src/sim/routing/index.js';
import { BASIC, call, numbersSeed, q } from './helpers.js';

let peer: RoutingSimServer;
beforeAll(async () => {
  peer = await startRoutingEngineSim({ seed: numbersSeed(3, { peer: 'flask-restless-0.17' }) });
});
afterAll(async () => {
  await peer.close();
});
const base = '/draas/active/numbers';

describe('peer flask-restless-0.17', () => {
  it('has no _bulk: POST is 405 (the record route takes `_bulk` for an id), OPTIONS lists no POST', async () => {
    expect((await call(peer, 'POST', `${base}/_bulk`, [{ number: '+1', route: 'x' }])).status).toBe(405);
    const options = await fetch(`${peer.url}${base}/_bulk`, { method: 'OPTIONS', headers: { authorization: BASIC } });
    expect(options.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE, OPTIONS');
  });

  it('answers 200 with num_results 0 for an empty table and for a search that matches nothing', async () => {
    expect((await call(peer, 'GET', '/draas/active/empty')).body).toMatchObject({ num_results: 0, objects: [] });
    const none = await call(peer, 'GET', `${base}?${q({ filters: [{ name: 'route', op: '==', val: 'nowhere' }] })}`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ num_results: 0, objects: [] });
  });

  it('stores values as SQLite’s type affinity does: text in an integer column becomes a number when it reads as one', async () => {
    const made = await call(peer, 'POST', base, { number: 5, route: 'trunk-9', priority: '7', weight: ' 2.5' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ number: '5', priority: 7, weight: 2.5 });
    const text = await call(peer, 'POST', base, { number: '+3299', route: 'r', priority: 'high' });
    expect(text.body.priority).toBe('high'); // kept as text: SQLite keeps what it cannot convert
    const patched = await call(peer, 'PATCH', `${base}/${made.body.id as number}`, { route: true, priority: '07' });
    expect(patched.body).toMatchObject({ route: '1', priority: 7 });
  });

  it('refuses text in a boolean column with the generic 500 (SQLAlchemy’s Boolean takes true, false, 1, 0)', async () => {
    const refused = await call(peer, 'POST', base, { number: '+3298', route: 'r', enabled: 'true' });
    expect(refused.status).toBe(500);
    const taken = await call(peer, 'POST', base, { number: '+3297', route: 'r', enabled: 1 });
    expect(taken.body.enabled).toBe(true);
  });

  it('a seed’s own quirks override the peer’s one by one', async () => {
    const mixed = await startRoutingEngineSim({
      seed: numbersSeed(1, { peer: 'flask-restless-0.17', quirks: { emptyListStatus: 404 } }),
    });
    try {
      expect((await call(mixed, 'GET', '/draas/active/empty')).status).toBe(404);
      expect((await call(mixed, 'POST', '/draas/active/numbers/_bulk', [])).status).toBe(405);
    } finally {
      await mixed.close();
    }
  });
});

describe('without a peer (Document 3 §4.2)', () => {
  it('text for an integer column is 500', async () => {
    const strict = await startRoutingEngineSim({ seed: numbersSeed(1) });
    try {
      expect((await call(strict, 'POST', base, { number: '+3296', route: 'r', priority: '7' })).status).toBe(500);
    } finally {
      await strict.close();
    }
  });
});
