import type { KindContext } from '../kinds/types.js';
import type { BuiltRequests } from '../plan/planner.js';
import type { Change } from '../plan/types.js';
import type { DesiredNode, ListingClient, LiveState } from '../state/types.js';
import type { Journal } from './journal.js';
import type { RecordKeeper } from './record.js';
import type { Outcome } from './walk.js';

/** The API client calls the executor makes (the ApiClient satisfies it; unit tests fake it). */
export interface ApplyClient extends Pick<ListingClient, 'listPages'> {
  request<T = unknown>(options: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    path: string;
    query?: Record<string, string>;
    body?: unknown;
    role?: string;
    okStatuses?: readonly number[];
    notFoundIsEmpty?: boolean;
  }): Promise<{ status: number; body: T }>;
}

/** Knobs of one run. */
export interface ApplyOptions {
  /** Changes in flight at once (each sends its requests one after the other). */
  concurrency: number;
  failFast: boolean;
  /** Names this run's bulk jobs, so they can be found again in the job lists. */
  runId: string;
  /** Creates of one parent above this go through their kind's bulk endpoint, when it has one (default BULK_THRESHOLD). */
  bulkThreshold?: number;
  /** First wait between two looks at a running bulk job (default 500 ms; doubles up to 5 s). */
  jobPollMs?: number;
  /** Give up following a bulk job after this long (default 10 minutes). */
  jobTimeoutMs?: number;
}

/** Everything the executor needs: the changes, what the plan was made from, and where to write. */
export interface ApplyInput {
  changes: readonly Change[];
  desired: readonly DesiredNode[];
  live: LiveState;
  client: ApplyClient;
  ctx: KindContext;
  /** The requests the planner built for each change, by address: what is sent. */
  requests: ReadonlyMap<string, BuiltRequests>;
  options: ApplyOptions;
  record?: RecordKeeper;
  journal?: Journal;
  /** Interrupts the run: changes not yet started are skipped. */
  signal?: AbortSignal;
  /** Progress: called once per change when its outcome is known. */
  onSettle?: (address: string, outcome: Outcome) => void;
}

/** A change and what became of it. */
export interface ChangeResult {
  change: Change;
  outcome: Outcome;
}

export interface ApplyResult {
  results: ChangeResult[];
  applied: number;
  failed: number;
  skipped: number;
  /** Requests sent (bulk ones count once). */
  requests: number;
  elapsedMs: number;
  /**
   * Changes not sent because their system stopped answering: counted in `failed`, reported
   * once each (`✗ 693 routing row changes not sent: …`), not one line per change.
   */
  unsent?: { count: number; what: string; reason: string }[];
  /** What the summary says besides the counts (an engine without a bulk create), once each. */
  notes?: string[];
  /**
   * Changes whose request was sent and got no answer: they may have been applied (the next
   * plan shows). Counted in `failed`; the platform's are also marked in `results`
   * (`outcome.unknown`), the routing rows' reported once (`unknownGroups`).
   */
  unknown?: number;
  unknownGroups?: { count: number; what: string; reason: string }[];
  /**
   * What stopped the run while it applied, with its code: a journal that could not be
   * written (SB_JOURNAL). Nothing was started after it; the run is incomplete even when
   * every change it started was applied.
   */
  errors?: { code: string; message: string }[];
}
