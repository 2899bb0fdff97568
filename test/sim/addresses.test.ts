import { describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { type SubscriptionFixture, useSubscriptionSim } from './subscription-helpers.js';
import { P } from './helpers.js';

let sim: RunningSimulator;
let f: SubscriptionFixture;
useSubscriptionSim(
  (s) => (sim = s),
  (x) => (f = x),
);

const neuve = {
  street: 'Rue Neuve',
  number: '12B',
  postalCode: 1000,
  city: 'Brussels',
  country: 'Belgium',
  isoCode: 'BE',
};
const meir = { street: 'Meir', number: '3', postalCode: 2000, city: 'Antwerpen', country: 'Belgium', isoCode: 'BE' };
type Address = { id: number; full_address: string; address: string; format: string; data: Record<string, unknown> };
type Job = {
  id: number;
  job_id: string;
  title: string;
  kind: string;
  status: string;
  total_count: number;
  success_count: number;
  job_items?: { key: string; status: string; data: unknown }[];
};

describe('Document 2 addresses', () => {
  it('Doc2 §2.7/§4.5: POST answers 201 with the address; full_address is generated when not supplied', async () => {
    const res = await f.admin.post<Address>(`${f.T}/addresses`, { data: neuve });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      full_address: 'Rue Neuve 12B, 1000 Brussels, Belgium',
      address: 'Rue Neuve 12B, 1000 Brussels, Belgium',
      data: neuve,
    });
    expect(typeof res.body.format).toBe('string');
    const given = await f.admin.post<Address>(`${f.T}/addresses`, {
      data: meir,
      full_address: 'Meir 3, Antwerp',
      format: 'mapservice',
    });
    expect(given.body.full_address).toBe('Meir 3, Antwerp');
    expect((await f.admin.post(`${f.T}/addresses`, { data: { street: 'x' } })).status).toBe(400);
    expect((await f.admin.post(`${f.T}/addresses`, { data: { ...meir, number: '3#' } })).status).toBe(400);
    expect((await f.admin.post(`${f.T}/addresses`, { data: neuve })).body).toMatchObject({
      error: { code: 'duplicate_address' },
    });
  });

  it('Doc2 §4.5: read (404 when absent), update (200 with the address), delete (204, missing counts as success)', async () => {
    const created = await f.admin.post<Address>(`${f.T}/addresses`, { data: neuve });
    const A = `${f.T}/addresses/${created.body.id}`;
    expect((await f.admin.get<Address>(A)).body).toEqual(created.body);
    const updated = await f.admin.put<Address>(A, { data: { ...neuve, number: '14' } });
    expect(updated.status).toBe(200);
    expect(updated.body.full_address).toBe('Rue Neuve 14, 1000 Brussels, Belgium');
    expect((await f.admin.put(`${f.T}/addresses/9999`, { data: neuve })).status).toBe(404);
    expect((await f.admin.get(`${f.T}/addresses/9999`)).status).toBe(404);
    expect((await f.admin.delete(A)).status).toBe(204);
    expect((await f.admin.get(A)).status).toBe(404);
    expect((await f.admin.delete(A)).status).toBe(204);
  });

  it('Doc2 §4.5: the list searches through full_address, sorts and pages', async () => {
    await f.admin.post(`${f.T}/addresses`, { data: neuve });
    await f.admin.post(`${f.T}/addresses`, { data: meir });
    const all = await f.admin.get<{ addresses: Address[] }>(`${f.T}/addresses?sort=full_address&dir=desc`);
    expect(all.body.addresses.map((a) => a.data['street'])).toEqual(['Rue Neuve', 'Meir']);
    // "200: `addresses`": no totals, no page number (a client reads on while a page may be cut).
    expect(Object.keys(all.body)).toEqual(['addresses']);
    const search = await f.admin.get<{ addresses: Address[] }>(`${f.T}/addresses?search=antwerpen`);
    expect(search.body.addresses.map((a) => a.data['street'])).toEqual(['Meir']);
    const paged = await f.admin.get<{ addresses: Address[] }>(`${f.T}/addresses?page_size=1&page=2`);
    expect(paged.body.addresses.map((a) => a.data['street'])).toEqual(['Meir']);
  });

  it('Doc2 §4.5/§2.9: address bulk: code 3076, a job of kind addresses keyed by full address; partial and none', async () => {
    const ok = await f.admin.put<{ code: number; reason: string; id: number }>(`${f.T}/addresses/bulk`, {
      name: 'import 1',
      data: [neuve, meir],
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ code: 3076 });
    expect(typeof ok.body.reason).toBe('string');
    const job = await f.admin.get<Job>(`${f.T}/bulks/${ok.body.id}`);
    expect(job.body).toMatchObject({
      title: 'import 1',
      kind: 'addresses',
      status: 'success',
      total_count: 2,
      success_count: 2,
    });
    expect(job.body.job_items?.map((i) => [i.key, i.status])).toEqual([
      ['Rue Neuve 12B, 1000 Brussels, Belgium', 'success'],
      ['Meir 3, 2000 Antwerpen, Belgium', 'success'],
    ]);
    expect(job.body.job_items?.[0]?.data).toEqual(neuve);
    const partial = await f.admin.put<{ id: number }>(`${f.T}/addresses/bulk`, {
      name: 'import 2',
      data: [neuve, { ...meir, number: '5' }],
    });
    expect(partial.status).toBe(200);
    expect((await f.admin.get<Job>(`${f.T}/bulks/${partial.body.id}`)).body).toMatchObject({
      status: 'partial',
      success_count: 1,
      total_count: 2,
    });
    const none = await f.admin.put(`${f.T}/addresses/bulk`, { name: 'import 3', data: [neuve] });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 3076, error: { code: 'bulk_failed' } });
    expect((await f.admin.put(`${f.T}/addresses/bulk`, { data: [neuve] })).status).toBe(400);
    const mails = (await fetch(`${sim.url}/_sim/outbox?to=admin@demo.example.net`).then((r) => r.json())) as {
      mails: { template: string }[];
    };
    expect(mails.mails.filter((m) => m.template === 'mails.bulk_job_done')).toHaveLength(3);
  });

  it('Doc2 §4.5: address bulk jobs page in token style; search title or kind; filters', async () => {
    for (const [i, data] of [[neuve], [meir], [neuve]].entries())
      await f.admin.put(`${f.T}/addresses/bulk`, { name: `batch ${i}`, data });
    const first = await f.admin.get<{ bulks: Job[]; next?: string; results: number }>(
      `${f.T}/addresses/bulk_jobs?page_size=2`,
    );
    expect(first.body.results).toBe(3);
    expect(first.body.bulks.map((b) => b.title)).toEqual(['batch 0', 'batch 1']);
    expect(first.body.bulks[0]).not.toHaveProperty('job_items');
    const second = await f.admin.get<{ bulks: Job[]; next?: string }>(
      `${f.T}/addresses/bulk_jobs?next=${first.body.next}`,
    );
    expect(second.body.bulks.map((b) => b.title)).toEqual(['batch 2']);
    expect(second.body).not.toHaveProperty('next');
    expect((await f.admin.get<{ results: number }>(`${f.T}/addresses/bulk_jobs?search=BATCH 1`)).body.results).toBe(1);
    expect((await f.admin.get<{ results: number }>(`${f.T}/addresses/bulk_jobs?search=ADDRESSES`)).body.results).toBe(
      3,
    );
    const errors = encodeURIComponent(JSON.stringify({ status: 'error' }));
    expect(
      (await f.admin.get<{ bulks: Job[] }>(`${f.T}/addresses/bulk_jobs?filters=${errors}`)).body.bulks.map(
        (b) => b.title,
      ),
    ).toEqual(['batch 2']);
    expect((await f.admin.get<{ results: number }>(`${f.T}/address_numbers/bulk_jobs`)).body.results).toBe(0);
  });

  it("Doc2 §4.5/§4.6: address-number bulk sets the numbers' addresses (code 3067); items keyed by number", async () => {
    const a = await f.admin.post<Address>(`${f.T}/addresses`, { data: neuve });
    const res = await f.admin.put<{ code: number; id: number }>(`${f.T}/address_numbers/bulk`, {
      name: 'link',
      data: [
        { full_address: a.body.full_address, number: '+3221234562' },
        { full_address: 'Nowhere 1', number: '+3221234563' },
        { full_address: a.body.full_address, number: '+3299999999' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(3067);
    const job = await f.admin.get<Job>(`${f.T}/bulks/${res.body.id}`);
    expect(job.body).toMatchObject({ kind: 'address_numbers', status: 'partial', success_count: 1, total_count: 3 });
    expect(job.body.job_items?.map((i) => [i.key, i.status])).toEqual([
      ['+3221234562', 'success'],
      ['+3221234563', 'error'],
      ['+3299999999', 'error'],
    ]);
    const numbers = await f.admin.get<{ numbers: { fullNumber: string; addressId?: number; address?: string }[] }>(
      `${f.T}/numbers?search=34562`,
    );
    expect(numbers.body.numbers[0]).toMatchObject({ addressId: a.body.id, address: a.body.full_address });
    expect((await f.admin.get<{ results: number }>(`${f.T}/address_numbers/bulk_jobs`)).body.results).toBe(1);
    expect((await f.admin.delete(`${f.T}/addresses/${a.body.id}`)).body).toMatchObject({
      error: { code: 'address_in_use' },
    });
  });

  it('Doc2 §4.6: a bulk job of another subscription is 404; a non-integer id is 400', async () => {
    const res = await f.admin.put<{ id: number }>(`${f.T}/addresses/bulk`, { name: 'x', data: [neuve] });
    expect((await f.admin.get(`${P}/tenants/${f.globex}/subscriptions/${f.voice}/bulks/${res.body.id}`)).status).toBe(
      404,
    );
    expect((await f.admin.get(`${f.T}/bulks/first`)).status).toBe(400);
  });

  it('Doc2 §4.6: the bulk template for addresses is a CSV attachment with the documented header', async () => {
    const res = await fetch(`${sim.url}${f.T}/downloads/bulk_template`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'csv', kind: 'addresses', filename: 'addr.csv' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="addr.csv"');
    expect((await res.text()).split('\r\n')[0]).toBe('premises,city,country,isoCode,number,postalCode,state,street');
    expect((await f.admin.post(`${f.T}/downloads/bulk_template`, { format: 'xlsx', kind: 'addresses' })).status).toBe(
      400,
    );
    expect((await f.admin.post(`${f.T}/downloads/bulk_template`, { format: 'csv', kind: 'pets' })).status).toBe(400);
  });
});
