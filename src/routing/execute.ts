import pLimit from 'p-limit';
import type { RoutingClient } from './client.js';
import type { RowCreate, RowDiff } from './diff.js';
import { RoutingApiError } from './errors.js';
import { idsFilter } from './query.js';
import type { RoutingTableRef } from './types.js';

export interface ExecuteOptions {
  /** Records per `_bulk` request (default 1,000). */
  bulkSize?: number;
  /** Ids per collection PATCH (default 1,000; keeps the `in` list and the URL-less body small). */
  updateChunkSize?: number;
  /** Go on after a failure (CLI `--keep-going`); otherwise nothing is sent after it. */
  keepGoing?: boolean;
  /** Told the keys of the rows each successful request applied (for the journal's change lines). */
  onApplied?: (action: RoutingFailure['action'], keys: string[]) => void;
}

/** One thing that did not happen, with where the row came from. */
export interface RoutingFailure {
  action: 'create' | 'update' | 'delete';
  /** `field=value` of the row (the tail of its address). */
  key: string;
  /** Manifest position or CSV line of the row. */
  source?: string;
  code: string;
  message: string;
}

export interface ExecuteReport {
  created: number;
  updated: number;
  deleted: number;
  /** Rows not attempted because an earlier failure stopped the run. */
  skipped: number;
  failures: RoutingFailure[];
  warnings: string[];
  /** True when `_bulk` was unavailable and single POSTs were used. */
  bulkFallback: boolean;
}

/**
 * Applies a row diff: deletes by id (freeing unique values first), creates through `_bulk`
 * in chunks, then one collection PATCH per update group and chunk, with the filter in the body.
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
  readonly report: ExecuteReport = {
    created: 0,
    updated: 0,
    deleted: 0,
    skipped: 0,
    failures: [],
    warnings: [],
    bulkFallback: false,
  };
  private stopped = false;
  private readonly limit;

  constructor(
    private readonly client: RoutingClient,
    private readonly ref: RoutingTableRef,
    private readonly options: ExecuteOptions,
  ) {
    this.limit = pLimit(client.concurrency);
  }

  async deletes(diff: RowDiff): Promise<void> {
    await Promise.all(
      diff.deletes.map((d) =>
        this.limit(async () => {
          if (this.stopped) return void this.report.skipped++;
          try {
            await this.client.delete(this.ref, d.id);
            this.report.deleted++;
            this.options.onApplied?.('delete', [d.key]);
          } catch (error) {
            this.fail({ action: 'delete', key: d.key }, error);
          }
        }),
      ),
    );
  }

  async creates(creates: RowCreate[]): Promise<void> {
    const size = this.options.bulkSize ?? 1000;
    for (let start = 0; start < creates.length; start += size) {
      const chunk = creates.slice(start, start + size);
      if (this.stopped) {
        this.report.skipped += chunk.length;
        continue;
      }
      if (this.report.bulkFallback) await this.singles(chunk);
      else await this.bulk(chunk);
    }
  }

  /** One `_bulk` chunk; with keep-going, a rejected record is dropped and the rest resent. */
  private async bulk(chunk: RowCreate[]): Promise<void> {
    let pending = chunk;
    while (pending.length > 0) {
      try {
        this.report.created += await this.client.bulkCreate(
          this.ref,
          pending.map((c) => c.values),
        );
        this.options.onApplied?.(
          'create',
          pending.map((c) => c.key),
        );
        return;
      } catch (error) {
        if (error instanceof RoutingApiError && (error.status === 404 || error.status === 405)) {
          this.report.bulkFallback = true;
          this.report.warnings.push(
            `POST …/_bulk answered ${error.status}: this engine has no bulk create; sending one POST per record instead`,
          );
          return this.singles(pending);
        }
        const bad = error instanceof RoutingApiError && error.index !== undefined ? pending[error.index] : undefined;
        // Without an index the culprit is unknown: with keep-going, one POST per record finds it.
        if (!bad && this.options.keepGoing) return this.singles(pending);
        const culprit = bad ?? pending[0];
        this.fail(
          {
            action: 'create',
            key: bad ? bad.key : `${culprit?.key ?? ''} … (${pending.length} rows)`,
            ...(bad?.source ? { source: bad.source } : {}),
          },
          error,
          `chunk of ${pending.length} not applied`,
        );
        if (!this.options.keepGoing) {
          this.report.skipped += pending.length - (bad ? 1 : 0);
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
          if (this.stopped) return void this.report.skipped++;
          try {
            await this.client.create(this.ref, c.values);
            this.report.created++;
            this.options.onApplied?.('create', [c.key]);
          } catch (error) {
            this.fail({ action: 'create', key: c.key, ...(c.source ? { source: c.source } : {}) }, error);
          }
        }),
      ),
    );
  }

  async updates(diff: RowDiff): Promise<void> {
    const size = this.options.updateChunkSize ?? 1000;
    const tasks: Promise<void>[] = [];
    for (const group of diff.updateGroups) {
      for (let start = 0; start < group.rows.length; start += size) {
        const rows = group.rows.slice(start, start + size);
        tasks.push(
          this.limit(async () => {
            if (this.stopped) return void (this.report.skipped += rows.length);
            try {
              const n = await this.client.updateWhere(this.ref, idsFilter(rows.map((r) => r.id)), group.changes);
              this.report.updated += n;
              this.options.onApplied?.(
                'update',
                rows.map((r) => r.key),
              );
              if (n !== rows.length)
                this.report.warnings.push(
                  `PATCH of ${rows.length} rows (${rows[0]?.key} …) modified ${n}: rows were deleted meanwhile`,
                );
            } catch (error) {
              for (const r of rows)
                this.fail({ action: 'update', key: r.key, ...(r.source ? { source: r.source } : {}) }, error);
            }
          }),
        );
      }
    }
    await Promise.all(tasks);
  }

  private fail(what: Pick<RoutingFailure, 'action' | 'key' | 'source'>, error: unknown, note?: string): void {
    const code = error instanceof RoutingApiError ? error.code : 'SB_ROUTING_INTERNAL';
    const message = error instanceof Error ? error.message : String(error);
    this.report.failures.push({ ...what, code, message: note ? `${message} (${note})` : message });
    if (!this.options.keepGoing) this.stopped = true;
  }
}
