import { describe, expect, it } from 'vitest';
import { diffRows, type DesiredRow, type RoutingRecord } from '../../src/routing/index.js';

const live: RoutingRecord[] = [
  { id: 1, number: '+321', route: 'trunk-7', priority: 10, enabled: true },
  { id: 2, number: '+322', route: 'trunk-7', priority: 20, enabled: false },
  { id: 3, number: '+323', route: 'trunk-8', priority: null, enabled: true },
  { id: 4, number: '+324', route: 'trunk-1', priority: 5, enabled: true },
];
const row = (values: Record<string, unknown>, source?: string): DesiredRow =>
  source ? { values, source } : { values };

describe('routing row diff', () => {
  it('types CSV cells by the live value type before comparing: "10" equals 10, "" equals null', () => {
    const diff = diffRows(
      [
        row({ number: '+321', route: 'trunk-7', priority: '10', enabled: 'true' }),
        row({ number: '+323', priority: '' }),
      ],
      live,
      { key: ['number'], prune: false },
    );
    expect(diff).toMatchObject({ creates: [], updateGroups: [], deletes: [], noops: 2, unmanaged: 2, problems: [] });
  });

  it('groups updates by identical change set, keeps before values and sources', () => {
    const diff = diffRows(
      [
        row({ number: '+321', route: 'trunk-9' }, 'r.csv:2'),
        row({ number: '+322', route: 'trunk-9' }, 'r.csv:3'),
        row({ number: '+323', route: 'trunk-9', priority: 1 }, 'r.csv:4'),
      ],
      live,
      { key: ['number'], prune: false },
    );
    expect(diff.updateGroups).toEqual([
      {
        changes: { route: 'trunk-9' },
        rows: [
          { id: 1, key: 'number=+321', before: { route: 'trunk-7' }, source: 'r.csv:2' },
          { id: 2, key: 'number=+322', before: { route: 'trunk-7' }, source: 'r.csv:3' },
        ],
      },
      {
        changes: { route: 'trunk-9', priority: 1 },
        rows: [{ id: 3, key: 'number=+323', before: { route: 'trunk-8', priority: null }, source: 'r.csv:4' }],
      },
    ]);
  });

  it('a number column is integer only when no live value has a fraction: 2 then 2.5 is a number column', () => {
    const diff = diffRows(
      {
        columns: ['k', 'w'],
        rows: [
          ['a', '2'],
          ['b', '2.5'],
        ],
        isText: () => true,
      },
      [
        { id: 1, k: 'a', w: 2 },
        { id: 2, k: 'b', w: 2.5 },
      ],
      { key: ['k'], prune: true, refuseUntypedText: true },
    );
    expect(diff.problems).toEqual([]);
    expect(diff.noops).toBe(2);
  });

  it('refuses a YAML number in a text key column: what was written (007, 1.0) and so the row are not known', () => {
    const liveRows: RoutingRecord[] = [
      { id: 1, k: '007', v: 'a' },
      { id: 2, k: '1', v: 'd' },
    ];
    const diff = diffRows(
      [row({ k: 7, v: 'a' }, 'r.yaml:3:7'), row({ k: 1.0, v: 'c' }, 'r.yaml:4:7'), row({ k: '1', v: 'd' })],
      liveRows,
      { key: ['k'], prune: true },
    );
    expect(diff.problems.map((p) => [p.code, p.source])).toEqual([
      ['SB_ROUTING_BAD_VALUE', 'r.yaml:3:7'],
      ['SB_ROUTING_BAD_VALUE', 'r.yaml:4:7'],
    ]);
    expect(diff.problems[0]?.message).toMatch(/key field "k" is text, but YAML read this value as the number 7/);
    expect(diff.updateGroups).toEqual([]);
  });

  it('never prunes a live row with an empty key field: no manifest row could declare it', () => {
    const liveRows: RoutingRecord[] = [
      { id: 1, num: 2, sub: '' },
      { id: 2, num: 3, sub: 'a' },
      { id: 3, num: '', sub: 'b' },
      { id: 4, num: 5, sub: null },
    ];
    const diff = diffRows([row({ num: '3', sub: 'a' })], liveRows, { key: ['num', 'sub'], prune: true });
    expect(diff.deletes).toEqual([]);
    expect(diff.noops).toBe(1);
    const one = diffRows(
      [row({ num: '3' })],
      [
        { id: 1, num: '' },
        { id: 2, num: 3 },
      ],
      { key: ['num'], prune: true },
    );
    expect(one.deletes).toEqual([]);
  });

  it('creates typed rows, deletes unmatched live rows only with prune, and leaves unmentioned fields alone', () => {
    const desired = [
      row({ number: '+321', route: 'trunk-7' }),
      row({ number: '+329', route: 'trunk-2', priority: '7' }, 'r.yaml:9:5'),
    ];
    const kept = diffRows(desired, live, { key: ['number'], prune: false });
    expect(kept.creates).toEqual([
      { key: 'number=+329', values: { number: '+329', route: 'trunk-2', priority: 7 }, source: 'r.yaml:9:5' },
    ]);
    expect(kept).toMatchObject({ deletes: [], unmanaged: 3, noops: 1 });
    const pruned = diffRows(desired, live, { key: ['number'], prune: true });
    expect(pruned.deletes.map((d) => [d.id, d.key])).toEqual([
      [2, 'number=+322'],
      [3, 'number=+323'],
      [4, 'number=+324'],
    ]);
  });

  it('uses declared field types over live ones, and matches composite integer keys', () => {
    const liveCarriers: RoutingRecord[] = [{ id: 7, country: 32, prefix: '4', carrier: 'a' }];
    const diff = diffRows([row({ country: '32', prefix: '4', carrier: 'b' })], liveCarriers, {
      key: ['country', 'prefix'],
      fieldTypes: { country: 'integer', prefix: 'string' },
      prune: true,
    });
    expect(diff.updateGroups).toEqual([
      { changes: { carrier: 'b' }, rows: [{ id: 7, key: 'country=32,prefix=4', before: { carrier: 'a' } }] },
    ]);
    expect(diff.deletes).toEqual([]);
  });

  it('reports duplicate keys, missing keys and cells that do not fit their type, and leaves those rows out', () => {
    const diff = diffRows(
      [
        row({ number: '+329', route: 'a' }, 'a:1'),
        row({ number: '+329', route: 'b' }, 'a:2'),
        row({ route: 'c' }, 'a:3'),
        row({ number: '+328', priority: 'ten' }, 'a:4'),
      ],
      live,
      { key: ['number'], prune: false },
    );
    expect(diff.creates.map((c) => c.key)).toEqual(['number=+329']);
    expect(diff.problems.map((p) => [p.code, p.source])).toEqual([
      ['SB_ROUTING_DUPLICATE_KEY', 'a:2'],
      ['SB_ROUTING_MISSING_KEY', 'a:3'],
      ['SB_ROUTING_BAD_VALUE', 'a:4'],
    ]);
  });

  it('keeps the first of live rows that share a key, names every other one, and still diffs against the first', () => {
    const twice: RoutingRecord[] = [
      { id: 1, number: '+321', route: 'trunk-7' },
      { id: 2, number: '+322', route: 'trunk-7' },
      { id: 3, number: '+321', route: 'trunk-8' },
      { id: 4, number: '+322', route: 'trunk-9' },
      { id: 5, number: '+321', route: 'trunk-9' },
      { id: 6, number: '+323', route: 'trunk-1' },
    ];
    const diff = diffRows(
      [row({ number: '+321', route: 'trunk-7' }), row({ number: '+322', route: 'trunk-2' })],
      twice,
      {
        key: ['number'],
        prune: true,
      },
    );
    expect(diff.problems.map((p) => p.message)).toEqual([
      'live rows 1 and 3 share the key number=+321; the key does not identify one row',
      'live rows 2 and 4 share the key number=+322; the key does not identify one row',
      'live rows 1 and 5 share the key number=+321; the key does not identify one row',
    ]);
    expect(diff.noops).toBe(1);
    expect(diff.updateGroups).toMatchObject([{ changes: { route: 'trunk-2' }, rows: [{ id: 2 }] }]);
    // Only the rows the index holds are matched or deleted: the duplicates are reported, not touched.
    expect(diff.deletes.map((d) => d.id)).toEqual([6]);
  });

  it('accepts the columnar form of the manifest loader (undefined cell = field not given)', () => {
    const diff = diffRows(
      {
        columns: ['number', 'route', 'priority'],
        rows: [
          ['+321', 'trunk-7', undefined],
          ['+322', undefined, '21'],
          ['+330', 'x', '1'],
        ],
        sourceOf: (i) => `r.csv:${i + 2}`,
      },
      live,
      { key: ['number'], prune: false },
    );
    expect(diff.noops).toBe(1);
    expect(diff.updateGroups).toEqual([
      { changes: { priority: 21 }, rows: [{ id: 2, key: 'number=+322', before: { priority: 20 }, source: 'r.csv:3' }] },
    ]);
    expect(diff.creates).toEqual([
      { key: 'number=+330', values: { number: '+330', route: 'x', priority: 1 }, source: 'r.csv:4' },
    ]);
  });

  it('finds lookalikes among live keys that folding leaves as they are and keys it changes, the later live row named', () => {
    const liveRows: RoutingRecord[] = [
      { id: 1, uri: 'sip:bob@x', zone: 'eu' },
      { id: 2, uri: ' SIP:Bob@X', zone: 'EU' },
      { id: 3, uri: 'SIP:ANN@X ', zone: 'eu' },
      { id: 4, uri: 'sip:ann@x', zone: 'eu ' },
      { id: 5, uri: 'sip:cé@x', zone: 'eu' },
      { id: 6, uri: 'sip:dan@x', zone: 'us' },
      { id: 7, uri: 'SIP:EVE@X', zone: 'eu' },
      { id: 8, uri: 'sip:eve@x', zone: 'eu' },
    ];
    const diff = diffRows(
      [
        row({ uri: 'Sip:Bob@x', zone: 'eu' }, 'u.csv:2'),
        row({ uri: 'sip:ann@x', zone: 'eu' }, 'u.csv:3'),
        row({ uri: 'sip:CÉ@x', zone: 'eu' }, 'u.csv:4'),
        row({ uri: 'SIP:DAN@X', zone: 'US' }),
        row({ uri: 'Sip:Eve@x', zone: 'eu' }),
        row({ uri: 'sip:fay@x', zone: 'eu' }),
      ],
      liveRows,
      { key: ['uri', 'zone'], prune: false },
    );
    expect(diff.creates).toHaveLength(6);
    expect(diff.lookalikes).toEqual([
      { key: 'uri=Sip:Bob@x,zone=eu', liveKey: 'uri= SIP:Bob@X,zone=EU', liveId: 2, source: 'u.csv:2' },
      { key: 'uri=sip:ann@x,zone=eu', liveKey: 'uri=sip:ann@x,zone=eu ', liveId: 4, source: 'u.csv:3' },
      { key: 'uri=sip:CÉ@x,zone=eu', liveKey: 'uri=sip:cé@x,zone=eu', liveId: 5, source: 'u.csv:4' },
      { key: 'uri=SIP:DAN@X,zone=US', liveKey: 'uri=sip:dan@x,zone=us', liveId: 6 },
      { key: 'uri=Sip:Eve@x,zone=eu', liveKey: 'uri=sip:eve@x,zone=eu', liveId: 8 },
    ]);
  });

  // The CPU a 1,000,000-row diff takes is measured by the benchmark (node test/bench/routing.mjs: under 3 s).
  it('diffs 100,000 CSV rows with 1% drift: 1,000 creates, 1,000 deletes, 990 updates', () => {
    const n = 100_000;
    const liveRows: RoutingRecord[] = new Array(n);
    const rows: string[][] = [];
    for (let i = 0; i < n; i++)
      liveRows[i] = { id: i + 1, number: `+32${i}`, route: `trunk-${i % 50}`, priority: i % 10 };
    for (let i = 1000; i < n + 1000; i++)
      rows.push([`+32${i}`, `trunk-${i % 50}${i % 100 === 7 ? 'x' : ''}`, String(i % 10)]);
    const diff = diffRows({ columns: ['number', 'route', 'priority'], rows }, liveRows, {
      key: ['number'],
      prune: true,
    });
    expect(diff.creates).toHaveLength(1000);
    expect(diff.deletes).toHaveLength(1000);
    const changed = (n - 1000) / 100; // the rows of both sides, [1000, n), whose i % 100 is 7
    expect(diff.updateGroups.reduce((s, g) => s + g.rows.length, 0)).toBe(changed);
    expect(diff.noops).toBe(n - 1000 - changed);
  });
});
