import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, type RunningSimulator } from '../../src/sim/index.js';
import { loginAs, P, startTestSim, uuidOf } from './helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sim-control-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const control = (sim: RunningSimulator, method: string, path: string, body?: unknown) =>
  fetch(`${sim.url}/_sim/${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).then(
    async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }),
  );

describe('control surface', () => {
  it('docs/simulator.md: faults hit platform endpoints only, 429 carries Retry-After, resetConnections drops the socket', async () => {
    const sim = await startTestSim();
    try {
      const admin = await loginAs(sim, 'admin');
      expect((await control(sim, 'POST', 'faults', { rate: 1, statuses: [429] })).status).toBe(200);
      const limited = await admin.get(`${P}/groups`);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
      expect((await control(sim, 'GET', 'state')).status).toBe(200); // /_sim/ is never faulted
      await control(sim, 'POST', 'faults', { rate: 1, statuses: [503], resetConnections: true });
      const outcomes = new Set<string>();
      for (let i = 0; i < 30; i++)
        outcomes.add(
          await admin.get(`${P}/groups`).then(
            (r) => String(r.status),
            () => 'reset',
          ),
        );
      expect(outcomes).toEqual(new Set(['503', 'reset']));
      await control(sim, 'POST', 'faults', { rate: 0 });
      expect((await admin.get(`${P}/groups`)).status).toBe(200);
      expect((await control(sim, 'POST', 'faults', { rate: 2 })).status).toBe(400);
      const stats = await control(sim, 'GET', 'stats');
      expect(stats.body['faults']['429']).toBe(1);
    } finally {
      await sim.close();
    }
  });

  it('docs/simulator.md: latency is added to platform requests, not to the control endpoints', async () => {
    const sim = await startTestSim({ latencyMs: 1_500 });
    try {
      const t1 = Date.now();
      let platformAnswered = false;
      const platform = fetch(`${sim.url}/api/v01/system/users/local`).then(() => (platformAnswered = true));
      // Sent after the platform request and answered before it: no latency on /_sim/ (an order, not a budget).
      await control(sim, 'GET', 'state');
      expect(platformAnswered, 'the control answer overtook the delayed platform answer').toBe(false);
      await platform;
      expect(Date.now() - t1).toBeGreaterThanOrEqual(1_495);
    } finally {
      await sim.close();
    }
  });

  it('latency is the answer time: the handler runs on arrival, its answer (or a fault) leaves latency ms later', async () => {
    const sim = await startTestSim({ latencyMs: 1_000 });
    try {
      const admin = await loginAs(sim, 'admin');
      const group = await uuidOf(admin, 'groups', 'demo-group');
      const begin = Date.now();
      let answered = false;
      const created = admin
        .post(`${P}/tenants`, { name: 'early', billingId: 'T-EARLY', owner: { type: 'group', uuid: group } })
        .finally(() => (answered = true));
      // The control endpoints answer at once: the tenant is seen in the store while its create's answer is held.
      let seenBeforeAnswer = false;
      while (!answered && !seenBeforeAnswer) {
        const state = await control(sim, 'GET', 'state');
        const names = (state.body['tables']['tenants'] as { name: string }[]).map((t) => t.name);
        seenBeforeAnswer = names.includes('early') && !answered;
      }
      expect(seenBeforeAnswer, 'processed, though the answer is still held').toBe(true);
      expect((await created).status).toBe(200);
      expect(Date.now() - begin).toBeGreaterThanOrEqual(995);
      await control(sim, 'POST', 'faults', { rate: 1, statuses: [503] });
      const t0 = Date.now();
      expect((await admin.get(`${P}/groups`)).status).toBe(503);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(995);
    } finally {
      await sim.close();
    }
  });

  it('docs/simulator.md: stats count requests by method and route pattern', async () => {
    const sim = await startTestSim();
    try {
      const admin = await loginAs(sim, 'admin');
      await admin.get(`${P}/groups`);
      await admin.get(`${P}/groups`);
      const stats = await control(sim, 'GET', 'stats');
      expect(stats.body['byRoute']['GET /api/v01/draas/:instance/groups']).toBe(2);
      expect(stats.body['byRoute']['POST /api/v01/auth/login']).toBe(1);
      await control(sim, 'DELETE', 'stats');
      expect((await control(sim, 'GET', 'stats')).body['total']).toBe(0);
    } finally {
      await sim.close();
    }
  });

  it('docs/simulator.md: reset takes a seed in the body', async () => {
    const sim = await startTestSim();
    try {
      const res = await control(sim, 'POST', 'reset', {
        instance: 'tiny',
        groups: [{ name: 'g' }],
        users: [{ username: 'root', password: 'pw', email: 'root@x.example', adminOf: { level: 'system' } }],
      });
      expect(res.body).toEqual({ reset: true, instance: 'tiny' });
      const root = await loginAs(sim, 'root', 'pw');
      const groups = await root.get<{ groups: { name: string }[] }>('/api/v01/draas/tiny/groups');
      expect(groups.body.groups.map((g) => g.name)).toEqual(['g']);
      expect(
        (await control(sim, 'POST', 'reset', { tenants: [{ name: 'x', owner: { group: 'missing' } }] })).status,
      ).toBe(400);
    } finally {
      await sim.close();
    }
  });

  it('docs/simulator.md: --state persists the store across restarts (atomic file)', async () => {
    const stateFile = join(dir, 'state.json');
    const first = await startTestSim({ stateFile });
    const admin = await loginAs(first, 'admin');
    const group = await uuidOf(admin, 'groups', 'demo-group');
    const created = await admin.post<{ uuid: string }>(`${P}/tenants`, {
      name: 'persisted',
      owner: { type: 'group', uuid: group },
    });
    await control(first, 'POST', 'clock', { advanceSeconds: 30 });
    await first.close();
    const saved = JSON.parse(await readFile(stateFile, 'utf8')) as {
      kind: string;
      tables: { tenants: { name: string }[] };
    };
    expect(saved.kind).toBe('switchboard-sim-state');
    expect(saved.tables.tenants.map((t) => t.name)).toContain('persisted');

    const second = await startTestSim({ stateFile });
    try {
      const again = await loginAs(second, 'admin');
      expect((await again.get(`${P}/tenants/${created.body.uuid}`)).body).toMatchObject({ name: 'persisted' });
      expect((await control(second, 'GET', 'clock')).body['offsetSeconds']).toBeGreaterThanOrEqual(30);
    } finally {
      await second.close();
    }
  });

  it('Doc1 §6: events are POSTed to the webhook configured in the seed', async () => {
    const received: Record<string, unknown>[] = [];
    const hook = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        received.push(JSON.parse(text) as Record<string, unknown>);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const seed = {
      ...defaultSeed(),
      webhook: { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook` },
    };
    const sim = await startTestSim({ seed });
    try {
      const admin = await loginAs(sim, 'admin');
      const north = await uuidOf(admin, 'resellers', 'north');
      await admin.post(`${P}/tenants`, { name: 'hooked', owner: { type: 'reseller', uuid: north } });
      await expect.poll(() => received.length).toBe(1);
      expect(received[0]).toMatchObject({
        event: 'tenant.create',
        objectType: 'tenant',
        action: 'create',
        object: { name: 'hooked' },
      });
      await expect.poll(async () => (await control(sim, 'GET', 'events')).body['events'][0].webhook?.status).toBe(200);
    } finally {
      await sim.close();
      hook.close();
    }
  });
});
