import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf } from '../../src/core/canonical-json.js';
import { checkValueDigest } from '../../src/core/value-digest.js';
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

describe('planRoutingTables: cells from ${VAR} are sensitive (docs/manifests.md)', () => {
  const SECRET = 'rt-7x';
  const records =
    'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: sens, service: draas, version: active }\n' +
    'spec:\n  key: [number]\n  records:\n' +
    '    - { number: "+3301", route: "${ROUTE}", note: plain }\n' +
    '    - { number: "+3302", route: "${ROUTE}", note: "n-${NOTE}" }\n' +
    '    - { number: "+3303", route: same }\n';
  const ref = { service: 'draas', version: 'active', table: 'sens' } as const;

  async function load(route: string): Promise<LoadResult> {
    const at = await mkdtemp(path.join(tmpdir(), 'sb-routing-sens-'));
    await writeFile(path.join(at, 'sens.yaml'), records);
    try {
      return await loadManifests([at], { cwd: at, env: { ROUTE: route, NOTE: 'x' } });
    } finally {
      await rm(at, { recursive: true, force: true });
    }
  }

  it('shows them as (sensitive) with their digest, hides the live value, and keeps the real value to send', async () => {
    const result = await load(SECRET);
    expect(result.diagnostics).toEqual([]);
    const table = result.set.routingTables[0]!;
    const live: RoutingRecord[] = [
      { id: 2, number: '+3302', route: 'old-1', note: 'n-y' },
      { id: 3, number: '+3303', route: 'other' },
    ];
    const out = planRoutingTables(result.set, [{ table, ref, rows: live, pages: 1 }], { prune: false });
    expect(out.problems).toEqual([]);
    const [create, update, clear] = out.changes;
    expect(create).toMatchObject({
      action: 'create',
      after: { number: '+3301', route: '(sensitive)', note: 'plain' },
      patch: expect.arrayContaining([{ op: 'add', path: '/route', value: '(sensitive)' }]),
    });
    expect(Object.keys(create!.sensitiveDigests ?? {})).toEqual(['route']);
    expect(checkValueDigest(SECRET, create!.sensitiveDigests!['route']!)).toBe('same');
    expect(update).toMatchObject({
      action: 'update',
      before: { route: '(sensitive)', note: '(sensitive)' },
      after: { route: '(sensitive)', note: '(sensitive)' },
    });
    expect(Object.keys(update!.sensitiveDigests ?? {}).sort()).toEqual(['note', 'route']);
    // A row without a value from the environment is as before: in clear, its live digest plain.
    expect(clear).toMatchObject({ after: { route: 'same' }, liveDigest: digestOf(live[1]) });
    expect(clear!.sensitiveDigests).toBeUndefined();
    // The live row enters the live digest with its sensitive cells digested: not the plain
    // digest (a dictionary oracle), the same on the next plan, another when the live value changes.
    expect(update!.liveDigest).not.toBe(digestOf(live[0]));
    const again = planRoutingTables(result.set, [{ table, ref, rows: live, pages: 1 }], { prune: false });
    expect(again.changes[1]!.liveDigest).toBe(update!.liveDigest);
    expect(again.changes[1]!.sensitiveDigests).toEqual(update!.sensitiveDigests);
    const moved = [{ ...live[0]!, route: 'old-2' }, live[1]!];
    const other = planRoutingTables(result.set, [{ table, ref, rows: moved, pages: 1 }], { prune: false });
    expect(other.changes[1]!.liveDigest).not.toBe(update!.liveDigest);
    // Nothing of the values in the changes; apply sends the row diff's real values.
    expect(JSON.stringify(out.changes)).not.toContain(SECRET);
    expect(JSON.stringify(out.changes)).not.toContain('old-1');
    expect(out.tables[0]!.diff.creates[0]!.values['route']).toBe(SECRET);
    expect(out.tables[0]!.diff.updateGroups[0]!.changes).toEqual({ route: SECRET, note: 'n-x' });
    // Another value, another digest.
    const changed = await load('rt-8y');
    const next = planRoutingTables(changed.set, [{ table: changed.set.routingTables[0]!, ref, rows: live, pages: 1 }], {
      prune: false,
    });
    expect(next.changes[0]!.sensitiveDigests!['route']).not.toBe(create!.sensitiveDigests!['route']);
  });

  it('marks the row object of a sensitive record, and quotes no value from the environment in a type error', async () => {
    const result = await load(SECRET);
    const row = result.set.get('routing/draas/active/sens/number=+3302');
    expect(row?.sensitiveFields).toEqual(['route', 'note']);
    expect(result.set.get('routing/draas/active/sens/number=+3303')?.sensitiveFields).toEqual([]);
    const at = await mkdtemp(path.join(tmpdir(), 'sb-routing-sens-'));
    const typed = records.replace('  records:', '  fields: { route: integer }\n  records:');
    await writeFile(path.join(at, 'sens.yaml'), typed);
    const bad = await loadManifests([at], { cwd: at, env: { ROUTE: SECRET, NOTE: 'x' } });
    await rm(at, { recursive: true, force: true });
    const messages = bad.diagnostics.map((d) => d.message);
    expect(messages.filter((m) => m.includes('"route" must be an integer'))).toEqual([
      '"route" must be an integer (spec.fields), not its value from the environment',
      '"route" must be an integer (spec.fields), not its value from the environment',
      '"route" must be an integer (spec.fields), not "same"',
    ]);
    expect(messages.join('\n')).not.toContain(SECRET);
    // Nor the row diff's, when the live rows type the column.
    const table = result.set.routingTables[0]!;
    const live: RoutingRecord[] = [{ id: 1, number: '+3309', route: 7 }];
    const out = planRoutingTables(result.set, [{ table, ref, rows: live, pages: 1 }], { prune: false });
    expect(out.problems.map((p) => p.message.replace(/^.*?: /, ''))).toEqual([
      'field "route": its value from the environment is not a valid value for its type',
      'field "route": its value from the environment is not a valid value for its type',
      'field "route": "same" is not a valid value for its type',
    ]);
  });

  it('reads a CSV cell as written: ${VAR} there is text, not the environment, and not sensitive', async () => {
    const at = await mkdtemp(path.join(tmpdir(), 'sb-routing-sens-'));
    await writeFile(path.join(at, 'csv.yaml'), TABLE.replace('name: routes', 'name: fromcsv'));
    await writeFile(path.join(at, 'routes.csv'), 'number,route,priority\n+3401,${ROUTE},1\n');
    const result = await loadManifests([at], { cwd: at, env: { ROUTE: SECRET } });
    await rm(at, { recursive: true, force: true });
    expect(result.diagnostics).toEqual([]);
    const table = result.set.routingTables[0]!;
    expect(table.rows[0]).toContain('${ROUTE}');
    expect(table.sensitiveCells.size).toBe(0);
  });
});
