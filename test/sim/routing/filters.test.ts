import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutingSimServer } from '../../../src/sim/routing/index.js';
import { call, numbersSeed, q, startRoutingEngineSim } from './helpers.js';

// 30 rows: id i+1 has number +32000000ii, route trunk-(i%3), priority i%5 (null when i%7==6), enabled i even, weight i/4.
const base = '/draas/active/numbers';
let server: RoutingSimServer;

beforeAll(async () => {
  server = await startRoutingEngineSim({ seed: numbersSeed(30) });
});
afterAll(async () => server.close());

async function ids(query: unknown): Promise<number[]> {
  const r = await call(server, 'GET', `${base}?results_per_page=100&${q(query)}`);
  if (r.status === 404) return [];
  expect(r.status).toBe(200);
  return r.body.objects.map((o: { id: number }) => o.id);
}
const where = (...filters: unknown[]) => ids({ filters });
const expected = (pred: (i: number) => boolean) =>
  Array.from({ length: 30 }, (_, i) => i)
    .filter(pred)
    .map((i) => i + 1);
const prio = (i: number) => (i % 7 === 6 ? null : i % 5);

describe('routing sim: q operators (Doc3 §4.1)', () => {
  it('== and != (with == null meaning IS NULL)', async () => {
    expect(await where({ name: 'route', op: '==', val: 'trunk-1' })).toEqual(expected((i) => i % 3 === 1));
    expect(await where({ name: 'route', op: '!=', val: 'trunk-1' })).toEqual(expected((i) => i % 3 !== 1));
    expect(await where({ name: 'priority', op: '==', val: null })).toEqual(expected((i) => prio(i) === null));
    expect(await where({ name: 'enabled', op: '==', val: true })).toEqual(expected((i) => i % 2 === 0));
  });

  it('>, <, >=, <= (null never compares)', async () => {
    expect(await where({ name: 'priority', op: '>', val: 3 })).toEqual(expected((i) => (prio(i) ?? -1) > 3));
    expect(await where({ name: 'priority', op: '<', val: 1 })).toEqual(
      expected((i) => prio(i) !== null && (prio(i) as number) < 1),
    );
    expect(await where({ name: 'weight', op: '>=', val: 6.5 })).toEqual(expected((i) => i / 4 >= 6.5));
    expect(await where({ name: 'id', op: '<=', val: 3 })).toEqual([1, 2, 3]);
    expect(await where({ name: 'number', op: '>', val: '+3200000027' })).toEqual([29, 30]);
  });

  it('in and not_in', async () => {
    expect(await where({ name: 'number', op: 'in', val: ['+3200000004', '+3200000009', '+32nope'] })).toEqual([5, 10]);
    expect(await where({ name: 'priority', op: 'not_in', val: [0, 1, 2, 3] })).toEqual(expected((i) => prio(i) === 4));
    expect(await where({ name: 'id', op: 'in', val: [3, 1, 3] })).toEqual([1, 3]);
  });

  it('is_null and is_not_null', async () => {
    expect(await where({ name: 'priority', op: 'is_null' })).toEqual(expected((i) => prio(i) === null));
    expect(await where({ name: 'priority', op: 'is_not_null' })).toEqual(expected((i) => prio(i) !== null));
  });

  it('like (case-sensitive, % and _) and ilike', async () => {
    expect(await where({ name: 'number', op: 'like', val: '+320000001_' })).toEqual(expected((i) => i >= 10 && i < 20));
    expect(await where({ name: 'route', op: 'like', val: 'TRUNK-%' })).toEqual([]);
    expect(await where({ name: 'route', op: 'ilike', val: 'TRUNK-2' })).toEqual(expected((i) => i % 3 === 2));
  });

  it('has and any take nested conditions on the field (design decision)', async () => {
    expect(await where({ name: 'route', op: 'has', val: { op: 'like', val: '%-0' } })).toEqual(
      expected((i) => i % 3 === 0),
    );
    expect(await where({ name: 'priority', op: 'any', val: [{ op: '==', val: 4 }, { op: 'is_null' }] })).toEqual(
      expected((i) => prio(i) === 4 || prio(i) === null),
    );
    expect(
      (await call(server, 'GET', `${base}?${q({ filters: [{ name: 'route', op: 'has', val: 'x' }] })}`)).status,
    ).toBe(400);
  });

  it('compares two fields with "field" instead of "val"', async () => {
    expect(await where({ name: 'priority', op: '>', field: 'weight' })).toEqual(
      expected((i) => prio(i) !== null && (prio(i) as number) > i / 4),
    );
  });

  it('and / or groups nest at any depth; top-level conditions are AND-ed', async () => {
    const nested = {
      or: [
        {
          and: [
            { name: 'route', op: '==', val: 'trunk-0' },
            { name: 'priority', op: '>=', val: 3 },
          ],
        },
        {
          and: [
            { name: 'enabled', op: '==', val: false },
            {
              or: [
                { name: 'id', op: '==', val: 2 },
                { name: 'id', op: '==', val: 30 },
              ],
            },
          ],
        },
      ],
    };
    expect(await where(nested)).toEqual(
      expected((i) => (i % 3 === 0 && (prio(i) ?? -1) >= 3) || (i % 2 === 1 && (i === 1 || i === 29))),
    );
    expect(await where({ name: 'route', op: '==', val: 'trunk-0' }, { name: 'enabled', op: '==', val: true })).toEqual(
      expected((i) => i % 6 === 0),
    );
  });

  it('order_by sorts by several fields (nulls last ascending), ties by id', async () => {
    const r = await ids({
      filters: [{ name: 'id', op: '<=', val: 8 }],
      order_by: [
        { field: 'priority', direction: 'desc' },
        { field: 'route', direction: 'asc' },
      ],
    });
    // ids 1..8 → priorities 0,1,2,3,4,0,null,2 and routes t0,t1,t2,t0,t1,t2,t0,t1; desc puts null first
    expect(r).toEqual([7, 5, 4, 8, 3, 2, 1, 6]);
    expect(await ids({ order_by: [{ field: 'number', direction: 'desc' }] })).toEqual(expected(() => true).reverse());
  });

  it('coerces values to the column type and answers 400 for malformed filters', async () => {
    expect(await where({ name: 'priority', op: '==', val: '4' })).toEqual(expected((i) => prio(i) === 4));
    for (const bad of [
      { name: 'nope', op: '==', val: 1 },
      { name: 'route', op: 'regex', val: 'x' },
      { name: 'priority', op: '==', val: 'four' },
      { name: 'route', op: 'in', val: 'x' },
    ]) {
      const r = await call(server, 'GET', `${base}?${q({ filters: [bad] })}`);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await call(server, 'GET', `${base}?q=%7Bnot-json`)).status).toBe(400);
  });
});
