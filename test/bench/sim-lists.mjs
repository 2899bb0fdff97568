#!/usr/bin/env node
// The simulators' list answers at scale, against the targets the tests once asserted (they
// depend on the machine and its neighbours, so they are measured here, not in npm test):
// - the platform simulator with 20,000 tenants: a token-style page of 100 under one reseller
//   and a deep page-style page under 50 ms, a searched page under 100 ms (Document 1 §1.8);
// - the routing-engine simulator with a 1,000,000-row table: page 9,000, a lookup by a unique
//   field under 100 ms, a PATCH of 1,000 rows by id under 200 ms.
// What they answer is checked by test/sim/list-scale.test.ts and test/sim/routing/scale.test.ts.
// Usage: npm run build && node test/bench/sim-lists.mjs      (exit 1 when a target is missed)
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../../dist/sim/index.js', import.meta.url))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
const { defaultSeed, startSimulator } = await import('../../dist/sim/index.js');
const { startRoutingEngineSim } = await import('../../dist/sim/routing/index.js');

const P = '/api/v01/draas/demo';
const results = [];
const measure = async (what, targetMs, times, fn) => {
  await fn(0); // warm: sorted views and indexes are built on first use
  const start = performance.now();
  for (let i = 0; i < times; i++) await fn(i);
  const ms = (performance.now() - start) / times;
  results.push({ what, ms, targetMs });
};

async function platform() {
  const seed = defaultSeed();
  for (let i = 0; i < 20_000; i++)
    seed.tenants.push({
      name: `bench-${String(i).padStart(5, '0')}`,
      billingId: `BENCH-${i}`,
      owner: { reseller: 'north' },
    });
  const sim = await startSimulator({ port: 0, seed });
  try {
    const login = await fetch(`${sim.url}/api/v01/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin' }),
    });
    const { access_token: token } = await login.json();
    const get = async (path) => {
      const res = await fetch(`${sim.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}`);
      return res.json();
    };
    const state = await (await fetch(`${sim.url}/_sim/state`)).json();
    const uuidOf = (table, name) => state.tables[table].find((row) => row.name === name).uuid;
    const north = await uuidOf('resellers', 'north');
    const group = await uuidOf('groups', 'demo-group');
    let next = `${P}/tenants?parent=${north}&page_size=100`;
    await measure('platform: token-style page of 100 (20,000 tenants)', 50, 50, async () => {
      const body = await get(next);
      next = body.next
        ? `${P}/tenants?next=${encodeURIComponent(body.next)}`
        : `${P}/tenants?parent=${north}&page_size=100`;
    });
    await measure('platform: deep page-style page', 50, 20, (i) =>
      get(`${P}/tenants?parent=${group}&page_size=100&page=${100 + i}`),
    );
    await measure('platform: searched page', 100, 10, () =>
      get(`${P}/tenants?parent=${north}&page_size=100&search=bench-1999`),
    );
  } finally {
    await sim.close();
  }
}

async function routing() {
  const rows = Array.from({ length: 1_000_000 }, (_, i) => ({
    number: `+32${String(i).padStart(8, '0')}`,
    route: `trunk-${i % 3}`,
  }));
  const engine = await startRoutingEngineSim({
    seed: {
      credentials: { basic: [{ username: 'routing', password: 'routing' }] },
      services: {
        draas: {
          active: {
            numbers: {
              fields: { number: { type: 'string', unique: true, nullable: false }, route: { type: 'string' } },
              rows,
            },
          },
        },
      },
    },
  });
  const base = `${engine.url}/draas/active/numbers`;
  const auth = { authorization: `Basic ${Buffer.from('routing:routing').toString('base64')}` };
  const call = async (method, url, body) => {
    const res = await fetch(url, {
      method,
      headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (res.status !== 200) throw new Error(`${method} ${url} → ${res.status}`);
    return res.json();
  };
  const q = (obj) => `q=${encodeURIComponent(JSON.stringify(obj))}`;
  try {
    await measure('routing: page 9,000 of 100 (1,000,000 rows)', 100, 5, () =>
      call('GET', `${base}?results_per_page=100&page=9000`),
    );
    await measure('routing: lookup by a unique field', 100, 5, (i) =>
      call(
        'GET',
        `${base}?${q({ filters: [{ name: 'number', op: '==', val: `+32${String(777_777 + i).padStart(8, '0')}` }] })}`,
      ),
    );
    const ids = Array.from({ length: 1000 }, (_, i) => 1 + i * 997);
    await measure('routing: PATCH of 1,000 rows by id', 200, 5, (i) =>
      call('PATCH', base, { route: `moved-${i}`, q: { filters: [{ name: 'id', op: 'in', val: ids }] } }),
    );
  } finally {
    await engine.close();
  }
}

await platform();
await routing();
let missed = 0;
for (const r of results) {
  const pass = r.ms < r.targetMs;
  if (!pass) missed++;
  console.log(`${pass ? 'PASS' : 'FAIL'}  ${r.what}: ${r.ms.toFixed(2)} ms (target < ${r.targetMs} ms)`);
}
process.exitCode = missed > 0 ? 1 : 0;
