import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { type SubscriptionFixture, resetAndLogin } from './subscription-helpers.js';
import { loginAs, P, type SimClient, startTestSim, uuidOf } from './helpers.js';

let sim: RunningSimulator;
let f: SubscriptionFixture;
let admin: SimClient;
beforeAll(async () => {
  sim = await startTestSim();
});
afterAll(async () => {
  await sim.close();
});

/** Orders have no create endpoint: they are loaded through a state snapshot. */
beforeEach(async () => {
  f = await resetAndLogin(sim);
  const state = (await fetch(`${sim.url}/_sim/state`).then((r) => r.json())) as { tables: Record<string, unknown[]> };
  const item = { sku: 'PRD-BASIC', name: 'Basic voice', quantity: 2, provisioned: true };
  state.tables['orders'] = [
    {
      id: 1,
      name: 'acme first',
      orderId: 'ORD-1',
      date: '2026-01-02T10:00:00',
      provisioned: true,
      type: 'post',
      tenantUuid: f.acme,
      tenantId: 11,
      subscriptionId: f.main,
      orderItems: [item],
    },
    {
      id: 2,
      name: 'globex first',
      orderId: 'ORD-2',
      date: '2026-01-03T10:00:00',
      provisioned: false,
      type: 'post',
      tenantUuid: f.globex,
      tenantId: 12,
      subscriptionId: f.voice,
      orderItems: [],
    },
    {
      id: 3,
      name: 'acme removal',
      orderId: 'ORD-3',
      date: '2026-01-04T10:00:00',
      provisioned: false,
      type: 'delete',
      tenantUuid: f.acme,
      tenantId: 11,
      subscriptionId: f.main,
      orderItems: [item],
    },
  ];
  await fetch(`${sim.url}/_sim/reset`, { method: 'POST', body: JSON.stringify(state) });
  admin = await loginAs(sim, 'admin');
});

type Order = {
  id?: number;
  name: string;
  orderId: string;
  type: string;
  subscription: { id: number; billingId: string };
  tenant: { id: number; uuid: string; name: string };
  orderItems?: unknown[];
};

describe('Document 2 orders', () => {
  it('Doc2 §2.13/§4.12: group list (token style) and detail with orderItems', async () => {
    const first = await admin.get<{ orders: Order[]; results: number; next?: string }>(
      `${P}/groups/${f.group}/orders?page_size=2`,
    );
    expect(first.body.results).toBe(3);
    expect(first.body.orders[0]).toEqual({
      id: 1,
      name: 'acme first',
      orderId: 'ORD-1',
      date: '2026-01-02T10:00:00',
      provisioned: true,
      type: 'post',
      subscription: { id: f.main, name: 'main', billingId: 'T-ACME-MAIN' },
      tenant: { id: 11, name: 'acme-corp', uuid: f.acme },
    });
    const second = await admin.get<{ orders: Order[]; next?: string }>(
      `${P}/groups/${f.group}/orders?next=${first.body.next}`,
    );
    expect(second.body.orders.map((o) => o.orderId)).toEqual(['ORD-3']);
    const detail = await admin.get<{ order: Order }>(`${P}/groups/${f.group}/orders/3`);
    expect(detail.body.order).not.toHaveProperty('id');
    expect(detail.body.order).toMatchObject({
      orderId: 'ORD-3',
      type: 'delete',
      orderItems: [{ sku: 'PRD-BASIC', quantity: 2 }],
    });
    expect((await admin.get(`${P}/groups/${f.group}/orders/99`)).status).toBe(404);
    expect((await admin.get<{ results: number }>(`${P}/groups/${f.group}/orders?search=globex`)).body.results).toBe(1);
  });

  it('Doc2 §4.12: reseller and distributor levels see the orders below them; others are 403', async () => {
    const north = await uuidOf(admin, 'resellers', 'north');
    const reseller = await loginAs(sim, 'reselleradmin');
    const list = await reseller.get<{ orders: Order[] }>(`${P}/resellers/${north}/orders`);
    expect(list.body.orders.map((o) => o.orderId)).toEqual(['ORD-1', 'ORD-3']);
    expect((await reseller.get(`${P}/resellers/${north}/orders/2`)).status).toBe(403);
    expect((await reseller.get(`${P}/resellers/${north}/orders/1`)).status).toBe(200);
    const state = (await fetch(`${sim.url}/_sim/state`).then((r) => r.json())) as {
      tables: { distributors: { uuid: string }[] };
    };
    const dist = state.tables.distributors[0]?.uuid as string;
    expect(
      (await admin.get<{ orders: Order[] }>(`${P}/distributors/${dist}/orders`)).body.orders.map((o) => o.orderId),
    ).toEqual(['ORD-2']);
    expect((await admin.get(`${P}/distributors/${dist}/orders/1`)).status).toBe(403);
  });
});
