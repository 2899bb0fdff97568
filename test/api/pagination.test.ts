import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../src/api/index.js';
import { FakePlatform, json, type Seen } from './fake-platform.js';

let fake: FakePlatform;
let client: ApiClient;
const P = '/api/v01/draas/demo';
const items = (n: number): Array<{ id: number }> => Array.from({ length: n }, (_, i) => ({ id: i + 1 }));

beforeEach(async () => {
  fake = await new FakePlatform().start();
  client = await ApiClient.connect({
    baseUrl: fake.url,
    instance: 'demo',
    auth: { username: 'admin', password: 'admin' },
  });
});
afterEach(async () => {
  await client.close();
  await fake.stop();
});

interface PageServer {
  cap: number;
  pageAsString?: boolean;
  /** Report `pages` computed from the requested page size instead of the capped one. */
  lyingPages?: boolean;
  withNext?: boolean;
  sizeParam?: string;
}

/** Page style (Doc1 §1.8) with a server-side cap on page_size. */
function pageStyle(key: string, all: unknown[], server: PageServer): { inFlightPeak: () => number } {
  let inFlight = 0;
  let peak = 0;
  fake.on('GET', new RegExp(`/${key}$`), (req: Seen, res) => {
    const asked = Number(req.query.get(server.sizeParam ?? 'page_size') ?? 10);
    const size = Math.min(asked, server.cap);
    const page = Number(req.query.get('page') ?? 1);
    const pages = Math.max(1, Math.ceil(all.length / (server.lyingPages ? asked : size)));
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    setTimeout(() => {
      inFlight -= 1;
      const body: Record<string, unknown> = {
        results: all.length,
        pages,
        page: server.pageAsString ? String(page) : page,
        [key]: all.slice((page - 1) * size, page * size),
      };
      if (server.withNext && page * size < all.length) body['next'] = `tok-${page + 1}`;
      json(res, 200, body);
    }, 10);
  });
  return { inFlightPeak: () => peak };
}

/** Token style (Doc1 §1.8): `next` only while more remain; the token encodes the query. */
function tokenStyle(key: string, all: unknown[], cap: number, withPageFields = false): void {
  fake.on('GET', new RegExp(`/${key}$`), (req, res) => {
    const size = Math.min(Number(req.query.get('page_size') ?? 10), cap);
    const start = Number((req.query.get('next') ?? 'tok-0').slice(4));
    const body: Record<string, unknown> = { [key]: all.slice(start, start + size) };
    if (start + size < all.length) body['next'] = `tok-${start + size}`;
    if (withPageFields) Object.assign(body, { results: all.length, pages: Math.ceil(all.length / size), page: 1 });
    json(res, 200, body);
  });
}

describe('listPages', () => {
  it('Doc1 §1.8 page style: asks for 1000, plans the rest from what a capped server really returned, fetches concurrently', async () => {
    const server = pageStyle('subscriptions', items(450), { cap: 100 });
    const result = await client.listPages<{ id: number }>({
      path: `${P}/tenants/t/subscriptions`,
      itemsKey: 'subscriptions',
      style: 'page',
    });
    expect(result.map((i) => i.id)).toEqual(items(450).map((i) => i.id));
    const asked = fake.seen.filter((s) => s.path.endsWith('/subscriptions'));
    expect(asked.map((s) => s.query.get('page')).sort()).toEqual(['1', '2', '3', '4', '5']);
    expect(asked.every((s) => s.query.get('page_size') === '1000')).toBe(true);
    expect(server.inFlightPeak()).toBeGreaterThan(1);
  });

  it('Doc2 §4.5: pages with no totals (addresses) are read on while one may have been cut at the cap', async () => {
    // [items, the server's cap, requests]: a page of 10 items or more may be cut at any cap
    // from Doc1 §8's default page size (10) up, round or not; a shorter one is the list.
    for (const [count, cap, requests] of [
      [150, 100, 2],
      [200, 100, 3],
      [7, 100, 1],
      [37, 100, 2],
      [60, 25, 3],
      [81, 37, 3],
      [10, 10, 2],
    ] as const) {
      const all = items(count);
      fake.on('GET', /\/addresses$/, (req, res) => {
        const size = Math.min(Number(req.query.get('page_size') ?? 10), cap);
        const page = Number(req.query.get('page') ?? 1);
        json(res, 200, { addresses: all.slice((page - 1) * size, page * size) });
      });
      const before = fake.seen.length;
      const result = await client.listPages<{ id: number }>({
        path: `${P}/tenants/t/subscriptions/1/addresses`,
        itemsKey: 'addresses',
        style: 'page',
      });
      expect(
        result.map((i) => i.id),
        `${count} addresses, cap ${cap}`,
      ).toEqual(all.map((i) => i.id));
      expect(
        fake.seen.slice(before).filter((s) => s.path.endsWith('/addresses')),
        `${count} addresses, cap ${cap}`,
      ).toHaveLength(requests);
    }
  });

  it('Doc2 §4.5: a server that ignores `page` on a list with no totals fails the read, not loops or duplicates', async () => {
    const all = items(30);
    // Capped at 20 and deaf to `page`: every page is the first.
    fake.on('GET', /\/addresses$/, (_req, res) => json(res, 200, { addresses: all.slice(0, 20) }));
    const path = `${P}/tenants/t/subscriptions/1/addresses`;
    await expect(client.listPages({ path, itemsKey: 'addresses', style: 'page' })).rejects.toMatchObject({
      code: 'SB_API_BAD_RESPONSE',
      message: expect.stringContaining(`GET ${path} → 200: page 2 begins with the same item as page 1`),
    });
    expect(fake.seen.filter((s) => s.path.endsWith('/addresses'))).toHaveLength(2);
  });

  it('Doc2 §4.4: page typed as a string, and `pages` computed from the requested size, still read every item', async () => {
    pageStyle('numbers', items(250), { cap: 100, pageAsString: true, lyingPages: true });
    const result = await client.listPages({
      path: `${P}/tenants/t/subscriptions/1/numbers`,
      itemsKey: 'numbers',
      style: 'page',
    });
    expect(result).toHaveLength(250);
  });

  it('Doc2 §4.1: entitlement types keep their page fields in a `pagination` array: every page is read', async () => {
    const all = items(23);
    fake.on('GET', /\/entitlement_types$/, (req: Seen, res) => {
      const size = Math.min(Number(req.query.get('page_size') ?? 10), 10);
      const page = Number(req.query.get('page') ?? 1);
      const pagination = [
        { results: all.length, pages: Math.ceil(all.length / size), page: String(page), page_size: size },
      ];
      json(res, 200, { entitlementTypes: all.slice((page - 1) * size, page * size), pagination, sorting: [] });
    });
    const result = await client.listPages({
      path: `${P}/tenants/t/subscriptions/1/entitlement_types`,
      itemsKey: 'entitlementTypes',
      style: 'page',
    });
    expect(result).toEqual(all);
    expect(
      fake.seen
        .filter((s) => s.path.endsWith('/entitlement_types'))
        .map((s) => s.query.get('page'))
        .sort(),
    ).toEqual(['1', '2', '3']);
  });

  it('Doc1 §4.5: the suspension-profile list takes `size` instead of page_size', async () => {
    pageStyle('suspension_profiles', items(30), { cap: 25, sizeParam: 'size' });
    const result = await client.listPages({
      path: `${P}/public/suspension_profiles`,
      itemsKey: 'suspension_profiles',
      style: 'page',
      pageSizeParam: 'size',
    });
    expect(result).toHaveLength(30);
    expect(
      fake.seen.filter((s) => s.path.endsWith('/suspension_profiles')).every((s) => s.query.get('size') === '1000'),
    ).toBe(true);
  });

  it('Doc1 §1.8 token style: follows next sequentially until it is absent, with a capped page size', async () => {
    tokenStyle('tenants', items(230), 100);
    const result = await client.listPages<{ id: number }>({
      path: `${P}/tenants`,
      itemsKey: 'tenants',
      style: 'token',
      query: { parent: 'g-1' },
    });
    expect(result.map((i) => i.id)).toEqual(items(230).map((i) => i.id));
    const asked = fake.seen.filter((s) => s.path.endsWith('/tenants'));
    expect(asked.map((s) => s.query.get('next'))).toEqual([null, 'tok-100', 'tok-200']);
    expect(asked.every((s) => s.query.get('parent') === 'g-1')).toBe(true);
  });

  it('Doc1 §4.4: a response carrying both styles is read whole in either mode', async () => {
    tokenStyle('tenants', items(150), 100, true);
    expect(await client.listPages({ path: `${P}/tenants`, itemsKey: 'tenants', style: 'token' })).toHaveLength(150);
    pageStyle('resellers', items(150), { cap: 100, withNext: true });
    expect(await client.listPages({ path: `${P}/resellers`, itemsKey: 'resellers', style: 'page' })).toHaveLength(150);
  });

  it('token style listed but only page fields answered: continues page by page', async () => {
    pageStyle('orders', items(220), { cap: 100 });
    expect(await client.listPages({ path: `${P}/groups/g/orders`, itemsKey: 'orders', style: 'token' })).toHaveLength(
      220,
    );
  });

  it('Doc2 §4.3: an unpaginated list is one GET returning the array under its key', async () => {
    fake.on('GET', /\/entitlements$/, (_req, res) => json(res, 200, { entitlements: items(3) }));
    expect(
      await client.listPages({
        path: `${P}/tenants/t/subscriptions/1/entitlements`,
        itemsKey: 'entitlements',
        style: 'none',
      }),
    ).toHaveLength(3);
    expect(fake.seen.at(-1)?.query.toString()).toBe('');
  });

  it('Doc2 §4.9: a list answering 404 "when none" is empty with notFoundIsEmpty, an error without', async () => {
    fake.on('GET', /\/block_list$/, (_req, res) => json(res, 404, { message: 'no calling plans' }));
    expect(
      await client.listPages({
        path: `${P}/groups/g/block_list`,
        itemsKey: 'callingPlans',
        style: 'page',
        notFoundIsEmpty: true,
      }),
    ).toEqual([]);
    fake.on('GET', /\/prefixes$/, (_req, res) => json(res, 404, { message: 'no prefixes' }));
    expect(
      await client.listPages({
        path: `${P}/groups/g/block_list/1/prefixes`,
        itemsKey: 'prefixes',
        style: 'none',
        notFoundIsEmpty: true,
      }),
    ).toEqual([]);
    const error = (await client
      .listPages({
        path: `${P}/groups/g/block_list`,
        itemsKey: 'callingPlans',
        style: 'page',
        role: 'groups.instance.block_list.instance.list',
      })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ code: 'SB_API_NOT_FOUND', role: 'groups.instance.block_list.instance.list' });
  });

  it('a wrong shape is SB_API_BAD_RESPONSE naming the request, never an uncaught exception', async () => {
    fake.on('GET', /\/templates$/, (_req, res) => json(res, 200, { templates: 'none' }));
    const error = (await client
      .listPages({ path: `${P}/t/templates`, itemsKey: 'templates', style: 'none' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe(`GET ${P}/t/templates → 200: the answer has no array "templates"`);
    fake.on('GET', /\/stuck$/, (req, res) => json(res, 200, { stuck: items(2), results: 10, pages: 5, page: 1 }));
    const stuck = (await client
      .listPages({ path: `${P}/stuck`, itemsKey: 'stuck', style: 'page' })
      .catch((e: unknown) => e)) as ApiError;
    expect(stuck).toMatchObject({ code: 'SB_API_BAD_RESPONSE', detail: 'asked for page 2, got page 1' });
    fake.on('GET', /\/loop$/, (_req, res) => json(res, 200, { loop: items(1), next: 'same' }));
    const loop = (await client
      .listPages({ path: `${P}/loop`, itemsKey: 'loop', style: 'token' })
      .catch((e: unknown) => e)) as ApiError;
    expect(loop.code).toBe('SB_API_BAD_RESPONSE');
  });

  it('an empty page-style list with results 0 and no items key is empty', async () => {
    fake.on('GET', /\/addresses$/, (_req, res) => json(res, 200, { results: 0, pages: 0, page: 1 }));
    expect(await client.listPages({ path: `${P}/x/addresses`, itemsKey: 'addresses', style: 'page' })).toEqual([]);
  });

  it('a token-style list whose item slid to an earlier page while it was read is read again', async () => {
    let all = items(250);
    let reads = 0;
    fake.on('GET', /\/sliding$/, (req, res) => {
      const start = Number((req.query.get('next') ?? 'tok-0').slice(4));
      if (start === 0) reads += 1;
      if (start === 100 && reads === 1) all = all.filter((i) => i.id !== 5); // deleted between page 1 and page 2
      const body: Record<string, unknown> = { sliding: all.slice(start, start + 100), results: all.length };
      if (start + 100 < all.length) body['next'] = `tok-${start + 100}`;
      json(res, 200, body);
    });
    const read = await client.listPages<{ id: number }>({ path: `${P}/sliding`, itemsKey: 'sliding', style: 'token' });
    expect(reads).toBe(2);
    expect(read.map((i) => i.id)).toEqual(all.map((i) => i.id));
  });

  it('a page-style list that never settles fails with SB_API_LIST_CHANGED naming the list, after 3 reads', async () => {
    let results = 300;
    fake.on('GET', /\/busy$/, (req, res) => {
      const page = Number(req.query.get('page') ?? 1);
      if (page === 2) results -= 1; // someone deletes one on every read
      json(res, 200, {
        busy: items(results).slice((page - 1) * 100, page * 100),
        results,
        pages: Math.ceil(results / 100),
        page,
      });
    });
    const error = (await client
      .listPages({ path: `${P}/busy`, itemsKey: 'busy', style: 'page' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ code: 'SB_API_LIST_CHANGED', path: `${P}/busy` });
    expect(error.message).toContain(
      'the list "busy" changed while it was read (results was 298, then 297), 3 reads in a row',
    );
    expect(fake.seen.filter((s) => s.path.endsWith('/busy') && s.query.get('page') === '1')).toHaveLength(3);
  });
});
