/** What the routing executor (execute.ts) is given and answers. */

export interface ExecuteOptions {
  /** Records per `_bulk` request (default 1,000). */
  bulkSize?: number;
  /** Ids per collection PATCH (default 1,000; keeps the `in` list and the URL-less body small). */
  updateChunkSize?: number;
  /** Go on after a failure (CLI `--keep-going`); otherwise nothing is sent after it. */
  keepGoing?: boolean;
  /** Told the keys of the rows each successful request applied (for the journal's change lines). */
  onApplied?: (action: RoutingFailure['action'], keys: string[]) => void;
  /**
   * False when the plan found that the engine has no `_bulk` (`RoutingClient.bulkSupport`):
   * creates go out as one POST per record from the start. Default true.
   */
  bulk?: boolean;
  /** Aborted (Ctrl-C): nothing more is started; requests in flight finish. */
  signal?: AbortSignal;
  /** Rows settled as they settle (the progress line): `count` rows with one outcome (unknown ones count as failed). */
  onRows?: (status: 'applied' | 'failed' | 'skipped', count: number) => void;
}

/** One row of the diff, as the executor accounts for it. */
export interface Row {
  action: RoutingFailure['action'];
  key: string;
  source?: string | undefined;
}

/**
 * What became of a row that was not applied for certain: `failed` (the engine refused it, or
 * it was not sent because the engine was given up on: counted as failed), `unknown` (sent, and
 * no answer came, or the answer's count did not match what was sent: it may have been
 * applied), `skipped` (not started: `--fail-fast` or an interrupt).
 */
export interface RowSettlement {
  action: RoutingFailure['action'];
  outcome: 'failed' | 'unknown' | 'skipped';
  message: string;
  source?: string;
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
  /** Rows not attempted: an earlier failure stopped the run (`--fail-fast`), or it was interrupted. */
  skipped: number;
  failures: RoutingFailure[];
  /**
   * Rows not sent because the engine was given up on earlier in the run (it stopped answering,
   * or a PATCH modified rows it did not name): failed, but reported once (`unsentReason`), not
   * row by row.
   */
  unsent: number;
  unsentReason?: string;
  /**
   * Rows sent whose outcome is unknown: no answer came (a timeout, a broken connection, or the
   * engine given up on while they were in flight), or the answer's count (`inserted`,
   * `num_modified`) fell short of what was sent. They may have been applied, and the next plan
   * shows whether. Counted as failed, apart from `failures`.
   */
  unknown: number;
  unknownReason?: string;
  /** Every row not applied for certain, by key: what the journal says of it. */
  settled: Map<string, RowSettlement>;
  /** What the summary should say besides the counts (the `_bulk` fallback), once per table. */
  warnings: string[];
  /** True when `_bulk` was unavailable and single POSTs were used. */
  bulkFallback: boolean;
}

/** The report of a run that has done nothing yet. */
export function emptyReport(): ExecuteReport {
  return {
    created: 0,
    updated: 0,
    deleted: 0,
    skipped: 0,
    failures: [],
    unsent: 0,
    unknown: 0,
    settled: new Map(),
    warnings: [],
    bulkFallback: false,
  };
}
