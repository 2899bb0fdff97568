import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf } from '../../src/core/canonical-json.js';
import { loadManifests, type LoadResult } from '../../src/manifest/index.js';
import { planRoutingTables } from '../../src/providers/routing/plan.js';
import type { RoutingRecord } from '../../src/routing/index.js';

const TABLE =
  'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: routes, service: draas, version: active }\n' +
  'spec:\n  key: [number]\n  fields: { priority: integer }\n  recordsFrom: routes.csv\n';

let dir: string;
let loaded: LoadResult;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sb-routing-plan-'));
  await writeFile(path.join(dir, 'routes.yaml'), TABLE);
  // +3201 and +3203 change priority (one group), +3202 is as live, +3205 is new; +3204 is pruned.
  await writeFile(path.join(dir, 'routes.csv'), 'number,route,priority\n+3201,a,9\n+3202,b,2\n+3203,c,9\n+3205,e,5\n');
  loaded = await loadManifests([dir], { cwd: dir, env: {} });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('planRoutingTables', () => {
  it('binds each update and delete to the digest of the live row it was planned from (rows not in id order)', () => {
    expect(loaded.diagnostics).toEqual([]);
    const live: RoutingRecord[] = [
      { id: 14, number: '+3204', route: 'd', priority: 4 },
      { id: 13, number: '+3203', route: 'c', priority: 3 },
      { id: 12, number: '+3202', route: 'b', priority: 2 },
      { id: 11, number: '+3201', route: 'a', priority: 1 },
    ];
    const table = loaded.set.routingTables[0]!;
    const ref = { service: 'draas', version: 'active', table: 'routes' } as const;
    const out = planRoutingTables(loaded.set, [{ table, ref, rows: live, pages: 1 }], { prune: true });
    expect(out.problems).toEqual([]);
    const byId = new Map(live.map((row) => [String(row.id), row]));
    const planned = out.changes.map((c) => [c.action, c.address, c.id, c.liveDigest]);
    expect(planned).toEqual([
      ['create', 'routing/draas/active/routes/number=+3205', undefined, undefined],
      ['update', 'routing/draas/active/routes/number=+3201', '11', digestOf(byId.get('11'))],
      ['update', 'routing/draas/active/routes/number=+3203', '13', digestOf(byId.get('13'))],
      ['delete', 'routing/draas/active/routes/number=+3204', '14', digestOf(byId.get('14'))],
    ]);
    expect(new Set(planned.map((p) => p[3])).size).toBe(4);
    expect(out.noop).toBe(1);
  });
});
