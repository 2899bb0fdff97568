import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSeed, startSimulator } from '../../src/sim/index.js';
import { loginAs, P, startTestSim, uuidOf } from './helpers.js';

const basic = `Basic ${Buffer.from('routing:routing').toString('base64')}`;

describe('docs/simulator.md: --seed FILE given a state snapshot (GET /_sim/state)', () => {
  it('restores the routing engine data too, not only the platform', async () => {
    const first = await startSimulator({ port: 0 });
    let file: string;
    try {
      const created = await fetch(`${first.url}/draas/standby/routes`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: JSON.stringify({ number: '+3229998877', route: 'trunk-9' }),
      });
      expect(created.status).toBe(201);
      file = join(await mkdtemp(join(tmpdir(), 'sb-snapshot-')), 'state.json');
      await writeFile(file, await (await fetch(`${first.url}/_sim/state`)).text());
    } finally {
      await first.close();
    }
    const second = await startSimulator({ port: 0, seed: file });
    try {
      const q = encodeURIComponent(JSON.stringify({ filters: [{ name: 'number', op: '==', val: '+3229998877' }] }));
      const found = await fetch(`${second.url}/draas/standby/routes?q=${q}`, { headers: { authorization: basic } });
      expect(found.status).toBe(200);
      expect(((await found.json()) as { objects: { route: string }[] }).objects.map((o) => o.route)).toEqual([
        'trunk-9',
      ]);
    } finally {
      await second.close();
    }
  });
});

describe('docs/simulator.md "Seed file format": a subscription\'s locations', () => {
  it('are listed as if created through the API (Doc2 §4.7), and a postal code the seed lacks is a SeedError naming the entry', async () => {
    const seed = defaultSeed();
    seed.tenants!.push({
      name: 'seeded-locations',
      billingId: 'T-SEEDED-LOC',
      owner: { reseller: 'north' },
      subscriptions: [
        {
          name: 'main',
          billingId: 'T-SEEDED-LOC-MAIN',
          locations: [
            { street: 'Rue Haute', number: '10', postalCode: '1000' },
            { street: 'Rue Basse', number: '2', postalCode: '1000', postbox: 'B' },
          ],
        },
      ],
    });
    const sim = await startTestSim({ seed });
    try {
      const admin = await loginAs(sim, 'admin');
      const tenant = await uuidOf(admin, 'tenants', 'seeded-locations');
      const subs = await admin.get<{ subscriptions: { id: number }[] }>(`${P}/tenants/${tenant}/subscriptions`);
      const sub = subs.body.subscriptions[0]!.id;
      const list = await admin.get<{
        locations: { street: string; number: string; postbox?: string; postalCode: { code: string } }[];
      }>(`${P}/tenants/${tenant}/subscriptions/${sub}/locations`);
      expect(list.status).toBe(200);
      expect(list.body.locations.map((l) => [l.street, l.number, l.postbox, l.postalCode.code])).toEqual([
        ['Rue Haute', '10', undefined, '1000'],
        ['Rue Basse', '2', 'B', '1000'],
      ]);
    } finally {
      await sim.close();
    }
    seed.tenants!.at(-1)!.subscriptions![0]!.locations = [{ street: 'Nowhere', number: '1', postalCode: '0000' }];
    await expect(startTestSim({ seed })).rejects.toThrow(
      /seed tenants\[\d+\]\.subscriptions\[0\]\.locations\[0\]\.postalCode: postal code 0000 not found/,
    );
  });
});
