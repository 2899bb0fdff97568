/**
 * What the routing engine answers a write with is checked against what was sent (Doc3 §4.2:
 * `_bulk` answers 201 with `inserted`, a collection PATCH `num_modified`): a count that
 * differs is never taken as rows applied. Fewer than sent: the rows' outcome is unknown (the
 * next plan reads the table). More rows modified than a PATCH named: the engine ignores the
 * filter in the body, the rows fail, and nothing more is sent to it in the run, in any table.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RoutingClient, diffRows, executeRoutingChanges } from '../../src/routing/index.js';
import { scriptedServer } from './helpers.js';

const ref = { service: 's', version: 'active', table: 't' } as const;
const live = [
  { id: 1, k: 'a', v: 'old' },
  { id: 2, k: 'b', v: 'old' },
  { id: 3, k: 'c', w: 'old' },
];
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** An engine answering `_bulk` and collection PATCHes with the given counts (of what it was sent). */
async function engine(
  answers: { inserted: (sent: number) => unknown; modified: (ids: number) => number },
  sent: string[] = [],
  concurrency?: number,
) {
  const server = await scriptedServer((req, res) => {
    sent.push(`${req.method} ${req.url}`);
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const sent = JSON.parse(body || 'null') as unknown;
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url?.endsWith('/_bulk')) {
        res.writeHead(201).end(JSON.stringify(answers.inserted((sent as unknown[]).length)));
        return;
      }
      if (req.method === 'PATCH') {
        const ids = (sent as { q: { filters: { val: unknown[] }[] } }).q.filters[0]?.val.length ?? 0;
        res.writeHead(200).end(JSON.stringify({ num_modified: answers.modified(ids) }));
        return;
      }
      res.writeHead(404).end(JSON.stringify({ message: 'not found' }));
    });
  });
  const client = new RoutingClient({ url: server.url, auth: { token: 't' }, ...(concurrency ? { concurrency } : {}) });
  closing.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

const diff = () =>
  diffRows(
    [
      { values: { k: 'a', v: 'new' } },
      { values: { k: 'b', v: 'new' } },
      { values: { k: 'c', w: 'new' } },
      ...['n1', 'n2', 'n3'].map((k) => ({ values: { k, v: 'x' } })),
    ],
    live,
    { key: ['k'], prune: false },
  );

describe('the routing engine write counts', () => {
  it('as sent: every row applied', async () => {
    const client = await engine({ inserted: (n) => ({ inserted: n }), modified: (n) => n });
    const report = await executeRoutingChanges(client, ref, diff(), { keepGoing: true });
    expect(report).toMatchObject({ created: 3, updated: 3, unknown: 0, failures: [] });
  });

  it('fewer inserted, or no count, or fewer modified: those rows are unknown, none counted applied', async () => {
    for (const inserted of [(n: number) => ({ inserted: n - 1 }), () => ({})]) {
      const client = await engine({ inserted, modified: (n) => Math.max(0, n - 1) });
      const report = await executeRoutingChanges(client, ref, diff(), { keepGoing: true });
      expect(report).toMatchObject({ created: 0, updated: 0, unknown: 6, failures: [] });
      expect(report.unknownReason).toMatch(/_bulk of 3 records answered (inserted: 2|no "inserted" count)/);
      expect([...report.settled.values()].filter((s) => s.outcome === 'unknown')).toHaveLength(6);
    }
  });

  it('a field named q is updated by a PATCH of each row: a collection PATCH would read it as its filter', async () => {
    const sent: string[] = [];
    const server = await scriptedServer((req, res) => {
      sent.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.writeHead(200).end(JSON.stringify({ id: 1, k: 'a', q: 'new' }));
      });
    });
    const client = new RoutingClient({ url: server.url, auth: { token: 't' } });
    closing.push(async () => {
      await client.close();
      await server.close();
    });
    const rows = diffRows([{ values: { k: 'a', q: 'new' } }], [{ id: 1, k: 'a', q: 'old' }], {
      key: ['k'],
      prune: false,
    });
    const report = await executeRoutingChanges(client, ref, rows, { keepGoing: true });
    expect(report).toMatchObject({ updated: 1, failures: [] });
    expect(sent).toEqual(['PATCH /s/active/t/1']);
  });

  it('more modified than a PATCH named: its rows fail, and nothing more is sent to the engine, in any table', async () => {
    const sent: string[] = [];
    // One request at a time: which PATCH comes first (and which rows are left) is then known.
    const client = await engine({ inserted: (n) => ({ inserted: n }), modified: (n) => n + 40 }, sent, 1);
    const report = await executeRoutingChanges(client, ref, diff(), { keepGoing: true });
    const why =
      'PATCH of 2 rows (k=a …) modified 42: the engine changed rows the PATCH did not name (it does not apply ' +
      'the filter in the body), so nothing more is sent to it in this run';
    // The creates went first; the PATCH of k=a and k=b over-modified; the PATCH of k=c never went.
    expect(sent).toEqual(['POST /s/active/t/_bulk', 'PATCH /s/active/t']);
    expect(report).toMatchObject({ created: 3, updated: 0, unknown: 0, unsent: 1, unsentReason: why });
    expect(report.failures).toEqual([
      { action: 'update', key: 'k=a', code: 'SB_ROUTING_RESPONSE', message: `PATCH /s/active/t → 200: ${why}` },
    ]);
    expect(Object.fromEntries([...report.settled].map(([key, s]) => [key, [s.outcome, s.message]]))).toEqual({
      'k=a': ['failed', `PATCH /s/active/t → 200: ${why}`],
      'k=b': ['failed', `PATCH /s/active/t → 200: ${why}`],
      'k=c': ['failed', `not sent: ${why}`],
    });
    expect(client.unreachable).toBe(why);

    // Another table of the same engine, later in the run: not one request, every row not sent, for that reason.
    const other = { service: 's', version: 'active', table: 'u' } as const;
    const rows = diffRows(
      [{ values: { k: 'a', v: 'new' } }, { values: { k: 'z', v: 'x' } }],
      [{ id: 7, k: 'a', v: 'old' }],
      {
        key: ['k'],
        prune: true,
      },
    );
    const later = await executeRoutingChanges(client, other, rows, { keepGoing: true });
    expect(sent).toHaveLength(2);
    expect(later).toMatchObject({ created: 0, updated: 0, failures: [], unsent: 2, unsentReason: why });
    expect([...later.settled.values()].map((s) => [s.outcome, s.message])).toEqual([
      ['failed', `not sent: ${why}`],
      ['failed', `not sent: ${why}`],
    ]);
  });
});
