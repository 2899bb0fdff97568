/**
 * The routing provider's apply (src/providers/routing/apply.ts), table by table, against a
 * scripted engine: what the summary lists (`failures`), what the counts say (and so the exit
 * code: failed + skipped > 0 is 1), and the journal's lines. A row not started inside a table
 * that was started is listed as skipped, as a row of a table not started is; every row line
 * carries the manifest position it came from; an answer with the wrong count is journalled as
 * such (an answer came), not as "no answer"; and an engine given up on in one table gets no
 * request for the next one.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/apply/journal.js';
import type { Change } from '../../src/plan/types.js';
import { applyRouting } from '../../src/providers/routing/apply.js';
import { ROUTING_ROW, type RoutingTablePlan } from '../../src/providers/routing/plan.js';
import {
  RoutingClient,
  diffRows,
  routingAddress,
  type RowDiff,
  type RoutingRecord,
  type RoutingTableRef,
} from '../../src/routing/index.js';
import { scriptedServer } from './helpers.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

type Answer = { status: number; body: unknown };

/** An engine answering each request as `answer` says (by method and the request's body), one request at a time. */
async function engine(answer: (method: string, body: unknown) => Answer) {
  const sent: string[] = [];
  const server = await scriptedServer((req, res) => {
    sent.push(`${req.method} ${req.url}`);
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const { status, body } = answer(req.method ?? '', JSON.parse(text || 'null'));
      res.setHeader('content-type', 'application/json');
      res.writeHead(status).end(JSON.stringify(body));
    });
  });
  // One request at a time: which request goes first, and which rows are left, is then known.
  const client = new RoutingClient({ url: server.url, auth: { token: 't' }, concurrency: 1, retries: 0 });
  cleanup.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, sent };
}

/** What a well-behaved engine answers: every write as asked. */
function asAsked(method: string, body: unknown): Answer {
  if (method === 'POST') return { status: 201, body: { inserted: (body as unknown[]).length } };
  if (method === 'PATCH') {
    const ids = (body as { q: { filters: { val: unknown[] }[] } }).q.filters[0]?.val.length ?? 0;
    return { status: 200, body: { num_modified: ids } };
  }
  return { status: 204, body: {} };
}

/** A planned table from declared rows (each with its manifest line) and live ones, with its plan changes. */
function table(name: string, declared: Record<string, unknown>[], live: RoutingRecord[], file: string) {
  const ref: RoutingTableRef = { service: 's', version: 'active', table: name };
  const diff = diffRows(
    declared.map((values, i) => ({ values, source: `${file}:${i + 2}` })),
    live,
    { key: ['k'], prune: true },
  );
  const plan: RoutingTablePlan = { ref, address: `routing/s/active/${name}`, diff, liveRows: live.length };
  return { plan, changes: changesOf(ref, diff) };
}

function changesOf(ref: RoutingTableRef, diff: RowDiff): Change[] {
  const change = (action: Change['action'], key: string, source?: string): Change => ({
    address: routingAddress(ref, key),
    kind: ROUTING_ROW,
    provider: 'routing',
    action,
    before: null,
    after: null,
    patch: [],
    reason: '',
    dependsOn: [],
    requests: [],
    ...(source ? { source } : {}),
  });
  return [
    ...diff.deletes.map((d) => change('delete', d.key)),
    ...diff.creates.map((c) => change('create', c.key, c.source)),
    ...diff.updateGroups.flatMap((g) => g.rows.map((r) => change('update', r.key, r.source))),
  ];
}

interface Line {
  type: string;
  address?: string;
  outcome?: string;
  ok?: boolean;
  message?: string;
  source?: string;
}

async function journal(changes: Change[]) {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-routing-apply-'));
  const file = join(dir, 'journal.jsonl');
  const opened = await Journal.open(file, { changes });
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return {
    journal: opened,
    async lines(): Promise<Line[]> {
      await opened.close();
      const text = await readFile(file, 'utf8');
      return text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Line);
    },
  };
}

/** Each row's change line: address → [outcome, message, source]. */
function rowLines(lines: Line[]) {
  return Object.fromEntries(
    lines.filter((l) => l.type === 'change').map((l) => [l.address, [l.outcome, l.message, l.source]]),
  );
}

describe('applying routing tables', () => {
  it('with --fail-fast, the rows of a started table left after a failure are listed as skipped, with their source', async () => {
    // The first delete is refused; nothing more is sent, in this table or the next.
    const { client, sent } = await engine((method, body) =>
      method === 'DELETE' ? { status: 500, body: { code: '500', message: 'boom' } } : asAsked(method, body),
    );
    const first = table(
      'a',
      [
        { k: 'u', v: 'new' },
        { k: 'n', v: 'x' },
      ],
      [
        { id: 1, k: 'u', v: 'old' },
        { id: 10, k: 'x', v: 'gone' },
        { id: 11, k: 'y', v: 'gone' },
      ],
      'a.csv',
    );
    const second = table('b', [{ k: 'z', v: 'x' }], [], 'b.csv');
    const changes = [...first.changes, ...second.changes];
    const { journal: opened, lines } = await journal(changes);
    const out = await applyRouting([first.plan, second.plan], changes, client, { failFast: true, journal: opened });

    expect(sent).toEqual(['DELETE /s/active/a/10']);
    // The exit code is 1 when failed + skipped > 0 (src/cli/commands/apply-action.ts): every row not applied counts.
    expect(out).toMatchObject({ applied: 0, failed: 1, skipped: 4, unsent: 0, unknown: 0 });
    const stopped = 'not sent: an earlier failure stopped the run (--fail-fast)';
    const notStarted = 'not started: --fail-fast after an earlier failure';
    expect(
      out.failures.map(({ change, outcome }) => [
        change.address,
        change.source,
        outcome.status,
        outcome.status === 'skipped' ? outcome.reason : outcome.status === 'failed' ? outcome.message : '',
      ]),
    ).toEqual([
      ['routing/s/active/a/k=x', undefined, 'failed', 'DELETE /s/active/a/10 → 500: boom'],
      ['routing/s/active/a/k=y', undefined, 'skipped', stopped],
      ['routing/s/active/a/k=n', 'a.csv:3', 'skipped', stopped],
      ['routing/s/active/a/k=u', 'a.csv:2', 'skipped', stopped],
      ['routing/s/active/b/k=z', 'b.csv:2', 'skipped', notStarted],
    ]);
    const written = await lines();
    expect(rowLines(written)).toEqual({
      'routing/s/active/a/k=x': ['failed', 'DELETE /s/active/a/10 → 500: boom', undefined],
      'routing/s/active/a/k=y': ['skipped', stopped, undefined],
      'routing/s/active/a/k=n': ['skipped', stopped, 'a.csv:3'],
      'routing/s/active/a/k=u': ['skipped', stopped, 'a.csv:2'],
      'routing/s/active/b/k=z': ['skipped', notStarted, 'b.csv:2'],
    });
    expect(written.find((l) => l.type === 'outcome')).toMatchObject({
      ok: false,
      message: '1 row failure(s); 3 row change(s) skipped',
    });
  });

  it('a PATCH answered with fewer rows modified: an answer came, and the journal says what it said', async () => {
    const { client } = await engine((method, body) =>
      method === 'PATCH' ? { status: 200, body: { num_modified: 1 } } : asAsked(method, body),
    );
    const only = table(
      'a',
      [
        { k: 'u', v: 'new' },
        { k: 'w', v: 'new' },
      ],
      [
        { id: 1, k: 'u', v: 'old' },
        { id: 2, k: 'w', v: 'old' },
      ],
      'a.csv',
    );
    const { journal: opened, lines } = await journal(only.changes);
    const out = await applyRouting([only.plan], only.changes, client, { failFast: false, journal: opened });

    const why = 'PATCH of 2 rows (k=u …) modified 1: rows were deleted or changed meanwhile; which is unknown';
    expect(out).toMatchObject({ applied: 0, failed: 2, skipped: 0, unknown: 2, unknownReason: why, failures: [] });
    const written = await lines();
    const outcome = written.find((l) => l.type === 'outcome');
    expect(outcome).toMatchObject({ ok: false, message: `2 row change(s) of unknown outcome: ${why}` });
    expect(outcome?.message).not.toMatch(/no answer/);
    expect(rowLines(written)).toEqual({
      'routing/s/active/a/k=u': ['unknown', why, 'a.csv:2'],
      'routing/s/active/a/k=w': ['unknown', why, 'a.csv:3'],
    });
  });

  it('a PATCH that modified rows it did not name: the next table is not written, its rows not sent for that reason', async () => {
    const { client, sent } = await engine((method, body) =>
      method === 'PATCH' ? { status: 200, body: { num_modified: 500 } } : asAsked(method, body),
    );
    const first = table('a', [{ k: 'u', v: 'new' }], [{ id: 1, k: 'u', v: 'old' }], 'a.csv');
    const second = table(
      'b',
      [
        { k: 'z', v: 'x' },
        { k: 'u', v: 'new' },
      ],
      [{ id: 4, k: 'u', v: 'old' }],
      'b.csv',
    );
    const changes = [...first.changes, ...second.changes];
    const { journal: opened, lines } = await journal(changes);
    const out = await applyRouting([first.plan, second.plan], changes, client, { failFast: false, journal: opened });

    const why =
      'PATCH of 1 rows (k=u …) modified 500: the engine changed rows the PATCH did not name (it does not apply ' +
      'the filter in the body), so nothing more is sent to it in this run';
    expect(sent).toEqual(['PATCH /s/active/a']);
    expect(out).toMatchObject({ applied: 0, failed: 3, skipped: 0, unsent: 2, unsentReason: why, unknown: 0 });
    expect(out.failures.map((f) => [f.change.address, f.change.source, f.outcome])).toEqual([
      [
        'routing/s/active/a/k=u',
        'a.csv:2',
        { status: 'failed', code: 'SB_ROUTING_RESPONSE', message: `PATCH /s/active/a → 200: ${why}` },
      ],
    ]);
    expect(rowLines(await lines())).toEqual({
      'routing/s/active/a/k=u': ['failed', `PATCH /s/active/a → 200: ${why}`, 'a.csv:2'],
      'routing/s/active/b/k=z': ['failed', `not sent: ${why}`, 'b.csv:2'],
      'routing/s/active/b/k=u': ['failed', `not sent: ${why}`, 'b.csv:3'],
    });
  });
});
