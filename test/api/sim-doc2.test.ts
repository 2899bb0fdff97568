import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';

/** Document 2 lists against the embedded simulator (page style, unpaginated). */
let sim: RunningSimulator;
let admin: ApiClient;
let acme: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  admin = await ApiClient.connect({ baseUrl: sim.url, auth: { username: 'admin', password: 'admin' } });
  const groups = await admin.listPages<{ uuid: string }>({
    path: `${admin.paths.P}/groups`,
    itemsKey: 'groups',
    style: 'token',
  });
  const tenants = await admin.listPages<{ uuid: string; name: string }>({
    path: `${admin.paths.P}/tenants`,
    itemsKey: 'tenants',
    style: 'token',
    query: { parent: groups[0]!.uuid },
  });
  acme = tenants.find((t) => t.name === 'acme-corp')!.uuid;
  await Promise.all(
    Array.from({ length: 149 }, (_, i) =>
      admin.request({
        method: 'POST',
        path: `${admin.paths.P}/tenants/${acme}/subscriptions`,
        body: { name: `sub-${i}`, billingId: `S-${i}` },
        role: 'tenants.instance.subscriptions.create',
      }),
    ),
  );
}, 60_000);

afterAll(async () => {
  await admin?.close();
  await sim?.close();
});

describe('Document 2 lists against the simulator', () => {
  it('Doc2 §4.1 page style, 100 cap, token expiring after page 1: 150 subscriptions, one refresh', async () => {
    let pages = 0;
    const stream = new Writable({
      write(chunk: Buffer, _e, done) {
        const line = JSON.parse(chunk.toString()) as { msg?: string; path?: string };
        if (line.msg === 'api request' && line.path?.endsWith('/subscriptions') && ++pages === 1)
          sim.core.store.clock.advance(150);
        done();
      },
    });
    const client = await ApiClient.connect({
      baseUrl: sim.url,
      auth: { username: 'admin', password: 'admin' },
      logger: pino({ level: 'debug' }, stream),
    });
    const subs = await client.listPages<{ name: string }>({
      path: `${client.paths.P}/tenants/${acme}/subscriptions`,
      itemsKey: 'subscriptions',
      style: 'page',
      role: 'tenants.instance.subscriptions.list',
    });
    expect(subs).toHaveLength(150);
    expect(new Set(subs.map((s) => s.name)).size).toBe(150);
    expect(client.stats().tokenRenewals).toBe(1);
    await client.close();
  });

  it('Doc2 §4.3: entitlements are one unpaginated GET', async () => {
    const subs = await admin.listPages<{ id: number; name: string }>({
      path: `${admin.paths.P}/tenants/${acme}/subscriptions`,
      itemsKey: 'subscriptions',
      style: 'page',
    });
    const main = subs.find((s) => s.name === 'main')!;
    const entitlements = await admin.listPages<{ entitlement: number }>({
      path: `${admin.paths.P}/tenants/${acme}/subscriptions/${main.id}/entitlements`,
      itemsKey: 'entitlements',
      style: 'none',
    });
    expect(entitlements.map((e) => e.entitlement)).toEqual([10]);
  });

  it('Doc2 §4.9: an empty group block list and a plan without prefixes answer 404, read as empty with notFoundIsEmpty', async () => {
    const groups = await admin.listPages<{ uuid: string }>({
      path: `${admin.paths.P}/groups`,
      itemsKey: 'groups',
      style: 'token',
    });
    const base = `${admin.paths.P}/groups/${groups[0]!.uuid}/block_list`;
    expect(
      await admin.listPages({
        path: base,
        itemsKey: 'callingPlans',
        style: 'page',
        notFoundIsEmpty: true,
        role: 'groups.instance.block_list.instance.list',
      }),
    ).toEqual([]);
    const created = await admin.request<{ id: number }>({
      method: 'POST',
      path: base,
      body: { name: 'no-premium', isoCode: 'BE', type: 'block_list' },
      role: 'groups.instance.block_list.create',
    });
    const plans = await admin.listPages<{ id: number; name: string }>({
      path: base,
      itemsKey: 'callingPlans',
      style: 'page',
      notFoundIsEmpty: true,
    });
    expect(plans.map((p) => p.name)).toEqual(['no-premium']);
    expect(
      await admin.listPages({
        path: `${base}/${created.body.id}/prefixes`,
        itemsKey: 'prefixes',
        style: 'none',
        notFoundIsEmpty: true,
      }),
    ).toEqual([]);
    const error = await admin
      .listPages({ path: `${base}/${created.body.id}/prefixes`, itemsKey: 'prefixes', style: 'none' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SB_API_NOT_FOUND', status: 404 });
  });
});
