/**
 * Lists with 20,000 tenants (the store's indexes and sorted-view cache at work): token pages
 * under one reseller, deep page-style pages and searched pages answer what they should. How
 * fast is measured by `node test/bench/sim-lists.mjs` (a test's budget failed for the
 * neighbours' sake on a shared machine).
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

async function walkPages(first: string, pages: number): Promise<string[]> {
  let url: string | undefined = first;
  const names: string[] = [];
  for (let i = 0; i < pages && url; i++) {
    const res: { status: number; body: { next?: string; tenants: { name: string }[] } } = await admin.get(url);
    expect(res.status).toBe(200);
    names.push(...res.body.tenants.map((t) => t.name));
    url = res.body.next ? `${P}/tenants?next=${encodeURIComponent(res.body.next)}` : undefined;
  }
  return names;
}

describe('lists with 20,000 tenants', () => {
  it('token-style pages of 100 under one reseller, deep page-style pages and searched pages (Doc1 §1.8)', async () => {
    const north = await uuidOf(admin, 'resellers', 'north');
    const walked = await walkPages(`${P}/tenants?parent=${north}&page_size=100`, 50);
    expect(walked).toHaveLength(5000);
    expect(new Set(walked).size).toBe(5000);
    const group = await uuidOf(admin, 'groups', 'demo-group');
    const deep = await admin.get<{ results: number; tenants: unknown[] }>(
      `${P}/tenants?parent=${group}&page_size=100&page=150`,
    );
    expect(deep.body.results).toBe(TENANTS + 3);
    expect(deep.body.tenants).toHaveLength(100);
    const searched = await admin.get<{ tenants: { name: string }[] }>(
      `${P}/tenants?parent=${north}&page_size=100&search=bench-1999`,
    );
    // Search is a case-insensitive substring of any searchable property: names and billingIds here.
    const expected = Array.from({ length: TENANTS }, (_, i) => i)
      .filter((i) => `bench-${String(i).padStart(5, '0')} bench-${i}`.includes('bench-1999'))
      .map((i) => `bench-${String(i).padStart(5, '0')}`);
    expect(expected).toHaveLength(11);
    expect(searched.body.tenants.map((t) => t.name).sort()).toEqual(expected);
  });
});
