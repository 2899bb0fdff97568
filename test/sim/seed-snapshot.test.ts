import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/sim/index.js';

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
