/**
 * The floor of the `routing` scenario: the requests `switchboard apply` sends for the 1%
 * drift of routing-data.mjs, sent by a bare undici loop at the same concurrency against a
 * fresh routing-engine simulator: every page of the table (the first one asking for more
 * rows than the cap), one DELETE per removed row, the new rows in `_bulk` chunks, and one
 * collection PATCH per route and 1,000 ids. The ids come from the pages read, as the CLI's do.
 */
import pLimit from 'p-limit';
import { Agent, request } from 'undici';
import { drift, number, route } from '../routing-data.mjs';

const BASE = '/bench/active/numbers';
const CHUNK = 1000;

/** @returns {Promise<number>} seconds for every request */
export async function bareRoutingSeconds(url, rows, concurrency) {
  const agent = new Agent({ connections: concurrency });
  const headers = {
    authorization: `Basic ${Buffer.from('bench:bench').toString('base64')}`,
    accept: 'application/json',
  };
  const call = async (method, path, body) => {
    const res = await request(`${url}${path}`, {
      method,
      dispatcher: agent,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path} → ${res.statusCode}: ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : null;
  };
  const { changed, added, removed } = drift(rows);
  const step = Math.floor((rows - removed) / changed);
  const isMoved = (i) => i >= removed && (i - removed) % step === 0 && (i - removed) / step < changed;
  const removedIds = [];
  /** @type {Map<string, number[]>} */
  const movedIds = new Map();
  const take = (page) => {
    for (const row of page.objects) {
      const i = Number(row.number.slice(3));
      if (i < removed) removedIds.push(row.id);
      else if (isMoved(i)) {
        const target = `moved-${i % 8}`;
        if (!movedIds.has(target)) movedIds.set(target, []);
        movedIds.get(target)?.push(row.id);
      }
    }
  };
  const limit = pLimit(concurrency);
  try {
    const begin = performance.now();
    const first = await call('GET', `${BASE}?results_per_page=10000&page=1`);
    take(first);
    await Promise.all(
      Array.from({ length: first.total_pages - 1 }, (_, p) =>
        limit(async () => take(await call('GET', `${BASE}?results_per_page=10000&page=${p + 2}`))),
      ),
    );
    await Promise.all(removedIds.map((id) => limit(() => call('DELETE', `${BASE}/${id}`))));
    const fresh = Array.from({ length: added }, (_, k) => ({
      number: number(rows + k),
      route: route(rows + k),
      priority: (rows + k) % 10,
    }));
    for (let start = 0; start < fresh.length; start += CHUNK)
      await call('POST', `${BASE}/_bulk`, fresh.slice(start, start + CHUNK));
    const patches = [...movedIds].flatMap(([target, ids]) =>
      Array.from({ length: Math.ceil(ids.length / CHUNK) }, (_, c) => ({
        route: target,
        q: { filters: [{ name: 'id', op: 'in', val: ids.slice(c * CHUNK, (c + 1) * CHUNK) }] },
      })),
    );
    await Promise.all(patches.map((body) => limit(() => call('PATCH', BASE, body))));
    return (performance.now() - begin) / 1000;
  } finally {
    await agent.close();
  }
}
