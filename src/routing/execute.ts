import pLimit from 'p-limit';
import { basePath, type RoutingClient } from './client.js';
import type { RowCreate, RowDiff } from './diff.js';
import { RoutingApiError } from './errors.js';
import { idsFilter } from './query.js';
import {
  emptyReport,
  type ExecuteOptions,
  type ExecuteReport,
  type Row,
  type RoutingFailure,
  type RowSettlement,
} from './execute-types.js';
import type { RoutingTableRef } from './types.js';

export type { RoutingFailure, RowSettlement } from './execute-types.js';

/**
 * Applies a row diff: deletes by id (freeing unique values first), creates through `_bulk`
 * in chunks (one POST per record on an engine without it), then one collection PATCH per
 * update group and chunk, with the filter in the body.
 */
export async function executeRoutingChanges(
  client: RoutingClient,
  ref: RoutingTableRef,
  diff: RowDiff,
  options: ExecuteOptions = {},
): Promise<ExecuteReport> {
  const run = new Run(client, ref, options);
  await run.deletes(diff);
  await run.creates(diff.creates);
  await run.updates(diff);
  return run.report;
}

class Run {
  readonly report: ExecuteReport = emptyReport();
  private stopped = false;
  private readonly limit;

  constructor(
    private readonly client: RoutingClient,
    private readonly ref: RoutingTableRef,
    private readonly options: ExecuteOptions,
  ) {
    this.limit = pLimit(client.concurrency);
    if (options.bulk === false) this.noBulk('the plan found none');
  }

  async deletes(diff: RowDiff): Promise<void> {
    await Promise.all(
      diff.deletes.map((d) =>
        this.limit(async () => {
          const rows: Row[] = [{ action: 'delete', key: d.key }];
          if (this.held(rows)) return;
          try {
            await this.client.delete(this.ref, d.id);
            this.done('deleted', 1);
            this.options.onApplied?.('delete', [d.key]);
          } catch (error) {
            this.fail(rows, error);
          }
        }),
      ),
    );
  }

  async creates(creates: RowCreate[]): Promise<void> {
    const size = this.options.bulkSize ?? 1000;
    for (let start = 0; start < creates.length; start += size) {
      const chunk = creates.slice(start, start + size);
      if (this.held(chunk.map(createRow))) continue;
      if (this.report.bulkFallback) await this.singles(chunk);
      else await this.bulk(chunk);
    }
  }

  /** One `_bulk` chunk; with keep-going, a rejected record is dropped and the rest resent. */
  private async bulk(chunk: RowCreate[]): Promise<void> {
    let pending = chunk;
    while (pending.length > 0) {
      if (this.held(pending.map(createRow))) return;
      try {
        const inserted = await this.client.bulkCreate(
          this.ref,
          pending.map((c) => c.values),
        );
        if (inserted !== pending.length) {
          // One transaction (Doc3 §4.2): all or none. Another count says neither: the next plan reads what is there.
          const said = inserted === undefined ? 'no "inserted" count' : `inserted: ${inserted}`;
          this.outcomeUnknown(
            pending.map(createRow),
            `POST …/_bulk of ${pending.length} records answered ${said}: which of them exist is unknown`,
          );
          return;
        }
        this.done('created', inserted, pending.length);
        this.options.onApplied?.(
          'create',
          pending.map((c) => c.key),
        );
        return;
      } catch (error) {
        if (error instanceof RoutingApiError && (error.status === 404 || error.status === 405)) {
          this.noBulk(`POST …/_bulk answered ${error.status}`);
          return this.singles(pending);
        }
        if (this.notSent(error, pending.map(createRow))) return;
        const bad = error instanceof RoutingApiError && error.index !== undefined ? pending[error.index] : undefined;
        // Without an index the culprit is unknown: with keep-going, one POST per record finds it.
        if (!bad && this.options.keepGoing) return this.singles(pending);
        const culprit = bad ?? pending[0];
        this.fail(bad ? [createRow(bad)] : pending.map(createRow), error, `chunk of ${pending.length} not applied`, {
          action: 'create',
          key: bad ? bad.key : `${culprit?.key ?? ''} … (${pending.length} rows)`,
          ...(bad?.source ? { source: bad.source } : {}),
        });
        if (!this.options.keepGoing) {
          if (bad)
            this.skip(pending.filter((c) => c !== bad).map(createRow), 'its _bulk chunk was refused for another row');
          return;
        }
        pending = pending.filter((c) => c !== bad);
      }
    }
  }

  private async singles(chunk: RowCreate[]): Promise<void> {
    await Promise.all(
      chunk.map((c) =>
        this.limit(async () => {
          const rows = [createRow(c)];
          if (this.held(rows)) return;
          try {
            await this.client.create(this.ref, c.values);
            this.done('created', 1);
            this.options.onApplied?.('create', [c.key]);
          } catch (error) {
            this.fail(rows, error);
          }
        }),
      ),
    );
  }

  async updates(diff: RowDiff): Promise<void> {
    const size = this.options.updateChunkSize ?? 1000;
    const tasks: Promise<void>[] = [];
    for (const group of diff.updateGroups) {
      // A field named `q` cannot go in a collection PATCH (its body's `q` is the filter): one PATCH per row.
      if ('q' in group.changes) {
        for (const row of group.rows) tasks.push(this.limit(() => this.updateOne(row, group.changes)));
        continue;
      }
      for (let start = 0; start < group.rows.length; start += size) {
        const rows = group.rows.slice(start, start + size);
        const settled: Row[] = rows.map((r) => ({ action: 'update', key: r.key, source: r.source }));
        tasks.push(
          this.limit(async () => {
            if (this.held(settled)) return;
            try {
              const n = await this.client.updateWhere(this.ref, idsFilter(rows.map((r) => r.id)), group.changes);
              const what = `PATCH of ${rows.length} rows (${rows[0]?.key} …) modified ${n}`;
              if (n > rows.length) {
                // The engine changed rows nobody asked it to (it ignores the filter in the body): any
                // further write may do the same, to any table. The client is given up on, engine-wide.
                const why =
                  `${what}: the engine changed rows the PATCH did not name (it does not apply the filter in ` +
                  'the body), so nothing more is sent to it in this run';
                this.client.giveUp(why);
                this.fail(settled, new RoutingApiError('SB_ROUTING_RESPONSE', routingAnswer(this.ref, why)));
                return;
              }
              if (n < rows.length) {
                this.outcomeUnknown(settled, `${what}: rows were deleted or changed meanwhile; which is unknown`);
                return;
              }
              this.done('updated', n, rows.length);
              this.options.onApplied?.(
                'update',
                rows.map((r) => r.key),
              );
            } catch (error) {
              if (this.notSent(error, settled)) return;
              for (const r of settled) this.fail([r], error);
            }
          }),
        );
      }
    }
    await Promise.all(tasks);
  }

  /** `PATCH <base>/<id>` of one row (Doc3 §4.2): 200 with the record. */
  private async updateOne(row: RowDiff['updateGroups'][number]['rows'][number], changes: Record<string, unknown>) {
    const settled: Row[] = [{ action: 'update', key: row.key, ...(row.source ? { source: row.source } : {}) }];
    if (this.held(settled)) return;
    try {
      await this.client.update(this.ref, row.id, changes);
      this.done('updated', 1);
      this.options.onApplied?.('update', [row.key]);
    } catch (error) {
      this.fail(settled, error);
    }
  }

  /** The engine has no `_bulk`: one POST per record from now on, said once for the table. */
  private noBulk(how: string): void {
    if (this.report.bulkFallback) return;
    this.report.bulkFallback = true;
    this.report.warnings.push(
      `${how}: this engine has no bulk create (POST …/_bulk), so its rows were created with one POST per record`,
    );
  }

  /**
   * True (and the rows accounted for) when `rows` are not to be started: the engine is gone or
   * given up on (unsent: failed), the run was interrupted, or an earlier failure stops it (skipped).
   */
  private held(rows: readonly Row[]): boolean {
    const gone = this.client.unreachable;
    if (gone !== undefined) return this.unsend(rows, gone);
    if (this.stopped || this.options.signal?.aborted) {
      this.skip(rows, this.stopped ? 'an earlier failure stopped the run (--fail-fast)' : 'the run was interrupted');
      return true;
    }
    return false;
  }

  /**
   * True (and the rows accounted for) when `error` says the rows were not applied for certain
   * and not refused either: sent without an answer (unknown), never sent (engine gone), or
   * cancelled before they went (skipped).
   */
  private notSent(error: unknown, rows: readonly Row[]): boolean {
    if (!(error instanceof RoutingApiError)) return false;
    if (error.outcomeUnknown) {
      this.outcomeUnknown(rows, error.message);
      return true;
    }
    if (error.code === 'SB_ROUTING_UNREACHABLE') return this.unsend(rows, error.serverMessage);
    if (error.code !== 'SB_ROUTING_ABORTED') return false;
    this.skip(rows, 'the run was interrupted');
    return true;
  }

  /** Rows sent whose outcome is unknown (the next plan reads the table and shows it). */
  private outcomeUnknown(rows: readonly Row[], why: string): void {
    this.report.unknown += rows.length;
    this.report.unknownReason ??= why;
    for (const row of rows) this.settle(row, 'unknown', why);
    this.options.onRows?.('failed', rows.length);
  }

  private unsend(rows: readonly Row[], reason: string): true {
    this.report.unsent += rows.length;
    this.report.unsentReason ??= reason;
    for (const row of rows) this.settle(row, 'failed', `not sent: ${reason}`);
    this.options.onRows?.('failed', rows.length);
    return true;
  }

  private skip(rows: readonly Row[], why: string): void {
    this.report.skipped += rows.length;
    for (const row of rows) this.settle(row, 'skipped', `not sent: ${why}`);
    this.options.onRows?.('skipped', rows.length);
  }

  private settle(row: Row, outcome: RowSettlement['outcome'], message: string): void {
    this.report.settled.set(row.key, {
      action: row.action,
      outcome,
      message,
      ...(row.source === undefined ? {} : { source: row.source }),
    });
  }

  private done(what: 'created' | 'updated' | 'deleted', count: number, settled = count): void {
    this.report[what] += count;
    this.options.onRows?.('applied', settled);
  }

  /**
   * The engine refused `rows` (or the request failed): one failure for the summary (`as`, or
   * the row itself), and each row failed in the journal.
   */
  private fail(
    rows: readonly Row[],
    error: unknown,
    note?: string,
    as?: Pick<RoutingFailure, 'action' | 'key' | 'source'>,
  ): void {
    if (this.notSent(error, rows)) return;
    const code = error instanceof RoutingApiError ? error.code : 'SB_ROUTING_INTERNAL';
    const message = error instanceof Error ? error.message : String(error);
    const text = note ? `${message} (${note})` : message;
    const first = rows[0] as Row;
    const what = as ?? { action: first.action, key: first.key, ...(first.source ? { source: first.source } : {}) };
    this.report.failures.push({ ...what, code, message: text });
    for (const row of rows) this.settle(row, 'failed', text);
    this.options.onRows?.('failed', rows.length);
    if (!this.options.keepGoing) this.stopped = true;
  }
}

function createRow(create: RowCreate): Row {
  return { action: 'create', key: create.key, source: create.source };
}

/** What a routing error says of an answer that cannot be right: the table's collection, 200, and why. */
function routingAnswer(ref: RoutingTableRef, why: string): ConstructorParameters<typeof RoutingApiError>[1] {
  return { method: 'PATCH', path: basePath(ref), status: 200, serverMessage: why, retryable: false };
}
