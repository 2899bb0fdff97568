import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, type RunningSimulator } from '../../src/sim/index.js';
import { loginAs, P, SimClient, startTestSim, uuidOf } from './helpers.js';

let sim: RunningSimulator;
let admin: SimClient;
let north: string;
type TenantPage = { results: number; pages: number; page: number; next?: string; tenants: { name: string }[] };

beforeAll(async () => {
  const seed = defaultSeed();
  // 150 more tenants under north: t-000 … t-149.
  for (let i = 0; i < 150; i++)
    seed.tenants!.push({
      name: `t-${String(i).padStart(3, '0')}`,
      billingId: `BILL-${i}`,
      owner: { reseller: 'north' },
    });
  sim = await startTestSim({ seed });
  admin = await loginAs(sim, 'admin');
  north = await uuidOf(admin, 'tenants', 'acme-corp').then(() => uuidOf(admin, 'resellers', 'north'));
});
afterAll(async () => {
  await sim.close();
});

describe('pagination', () => {
  it('Doc1 §1.8: token style: next only while rows remain, and the token alone carries the query', async () => {
    // search t-1: t-100 … t-149, 50 rows.
    const first = await admin.get<TenantPage>(
      `${P}/tenants?parent=${north}&page_size=20&search=t-1&sort=name&dir=desc`,
    );
    expect(first.body).toMatchObject({ results: 50, pages: 3, page: 1 });
    expect(first.body.tenants[0]?.name).toBe('t-149');
    expect(first.body.next).toEqual(expect.any(String));
    const second = await admin.get<TenantPage>(`${P}/tenants?next=${encodeURIComponent(first.body.next!)}`);
    expect(second.body.page).toBe(2);
    expect(second.body.tenants[0]?.name).toBe('t-129');
    const third = await admin.get<TenantPage>(`${P}/tenants?next=${encodeURIComponent(second.body.next!)}`);
    expect(third.body.tenants).toHaveLength(10);
    expect(third.body.tenants.at(-1)?.name).toBe('t-100');
    expect(third.body.next).toBeUndefined();
    expect((await admin.get(`${P}/tenants?next=garbage`)).status).toBe(400);
  });

  it('Doc1 §1.8/§8: default page_size 10; page style page/page_size on the same lists', async () => {
    const def = await admin.get<TenantPage>(`${P}/tenants?parent=${north}`);
    expect(def.body.tenants).toHaveLength(10);
    expect(def.body.results).toBe(151);
    const page3 = await admin.get<TenantPage>(`${P}/tenants?parent=${north}&page=3&page_size=20`);
    expect(page3.body).toMatchObject({ page: 3, pages: 8, results: 151 });
    expect(page3.body.tenants.map((t) => t.name)[0]).toBe('t-039');
  });

  it('page_size above 100 is capped (design decision), not refused; below 1 is 400', async () => {
    const big = await admin.get<TenantPage>(`${P}/tenants?parent=${north}&page_size=500`);
    expect(big.status).toBe(200);
    expect(big.body.tenants).toHaveLength(100);
    expect(big.body.pages).toBe(2);
    expect((await admin.get(`${P}/tenants?parent=${north}&page_size=0`)).status).toBe(400);
    expect((await admin.get(`${P}/tenants?parent=${north}&sort=nope`)).status).toBe(400);
    expect((await admin.get(`${P}/tenants?parent=${north}&dir=up`)).status).toBe(400);
  });

  it('Doc1 §4.5: suspension profiles: size defaults to 25, page style, key suspensionProfiles', async () => {
    const p1 = await admin.get<{
      results: number;
      pages: number;
      page: number;
      suspensionProfiles: { id: number; name: string; barringProfileId: string }[];
    }>(`${P}/public/suspension_profiles`);
    expect(p1.body).toMatchObject({ results: 30, pages: 2, page: 1 });
    expect(p1.body.suspensionProfiles).toHaveLength(25);
    expect(p1.body.suspensionProfiles[0]).toMatchObject({ id: 1, name: 'full-barring', barringProfileId: 'BP-FULL' });
    const p2 = await admin.get<{ page: number; suspensionProfiles: { id: number }[] }>(
      `${P}/public/suspension_profiles?page=2`,
    );
    expect(p2.body.suspensionProfiles.map((s) => s.id)).toEqual([26, 27, 28, 29, 30]);
    const small = await admin.get<{ pages: number }>(`${P}/public/suspension_profiles?size=10&page=3`);
    expect(small.body.pages).toBe(3);
  });

  it('Doc1 §1.9: search matches any searchable property (billingId)', async () => {
    const res = await admin.get<TenantPage>(`${P}/tenants?parent=${north}&search=ill-14`);
    expect(res.body.tenants.map((t) => t.name)).toEqual([
      't-014',
      't-140',
      't-141',
      't-142',
      't-143',
      't-144',
      't-145',
      't-146',
      't-147',
      't-148',
    ]);
    expect(res.body.results).toBe(11);
  });
});
