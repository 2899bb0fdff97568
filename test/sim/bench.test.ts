/**
 * List-page latency with 20,000 tenants (the store's indexes and sorted-view cache at
 * work). Prints the measured numbers; asserts a generous bound so a full scan per page,
 * or a sort per page, shows up as a failure on a loaded CI machine only when it is real.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, type RunningSimulator } from '../../src/sim/index.js';
import { loginAs, P, SimClient, startTestSim, uuidOf } from './helpers.js';

const TENANTS = 20_000;
let sim: RunningSimulator;
let admin: SimClient;

beforeAll(async () => {
  const seed = defaultSeed();
  for (let i = 0; i < TENANTS; i++) {
    seed.tenants!.push({
      name: `bench-${String(i).padStart(5, '0')}`,
      billingId: `BENCH-${i}`,
      owner: { reseller: 'north' },
    });
  }
  sim = await startTestSim({ seed });
  admin = await loginAs(sim, 'admin');
}, 60_000);
afterAll(async () => {
  await sim.close();
});

async function timePages(first: string, pages: number): Promise<{ perPageMs: number; rows: number }> {
  let url: string | undefined = first;
  let rows = 0;
  const t0 = performance.now();
  for (let i = 0; i < pages && url; i++) {
    const res: { status: number; body: { next?: string; tenants: unknown[] } } = await admin.get(url);
    expect(res.status).toBe(200);
    rows += res.body.tenants.length;
    url = res.body.next ? `${P}/tenants?next=${encodeURIComponent(res.body.next)}` : undefined;
  }
  return { perPageMs: (performance.now() - t0) / pages, rows };
}

describe('list latency with 20,000 tenants', () => {
  it('token-style pages of 100 under one reseller stay fast (Doc1 §1.8)', async () => {
    const north = await uuidOf(admin, 'resellers', 'north');
    await admin.get(`${P}/tenants?parent=${north}&page_size=100`); // builds the sorted view once
    const walk = await timePages(`${P}/tenants?parent=${north}&page_size=100`, 50);
    const group = await uuidOf(admin, 'groups', 'demo-group');
    const deep = await admin.get<{ results: number }>(`${P}/tenants?parent=${group}&page_size=100&page=150`);
    const t0 = performance.now();
    for (let i = 0; i < 20; i++) await admin.get(`${P}/tenants?parent=${group}&page_size=100&page=${100 + i}`);
    const deepMs = (performance.now() - t0) / 20;
    const t1 = performance.now();
    for (let i = 0; i < 10; i++) await admin.get(`${P}/tenants?parent=${north}&page_size=100&search=bench-1999`);
    const searchMs = (performance.now() - t1) / 10;
    console.log(
      `20k tenants: ${walk.perPageMs.toFixed(2)} ms per token page (100 rows), ${deepMs.toFixed(2)} ms per deep page-style page, ${searchMs.toFixed(2)} ms per searched page`,
    );
    expect(walk.rows).toBe(5000);
    expect(deep.body.results).toBe(TENANTS + 3);
    expect(walk.perPageMs).toBeLessThan(50);
    expect(deepMs).toBeLessThan(50);
    expect(searchMs).toBeLessThan(100);
  });
});
