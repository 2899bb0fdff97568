/**
 * The provider contract. A provider is one system switchboard reconciles, made for one run
 * with its connected client and its share of the declared objects:
 *
 * - `platform` (src/providers/platform.ts): the platform API, object by object, through the
 *   kind table (reader, planner, executor);
 * - `routing` (src/providers/routing/): the routing engine's tables, row by row, through
 *   the row diff and the routing executor.
 *
 * The run layer (src/run/) calls `read`, then `plan`, then (for `apply`) `apply` with the
 * changes to make, and never looks inside: no provider or kind is named there.
 */
import type { Journal } from '../apply/journal.js';
import type { RecordKeeper } from '../apply/record.js';
import type { ApplyResult } from '../apply/types.js';
import type { Outcome } from '../apply/walk.js';
import type { CapacityOutput } from '../plan/capacity.js';
import type { CoverageReport } from '../plan/coverage/types.js';
import type { PlanPart } from '../plan/part.js';
import type { Change, ProviderName } from '../plan/types.js';

/** What planning takes from the command line. */
export interface ProviderPlanOptions {
  /** `--prune`: prune every declared collection (or table), whatever the documents say. */
  prune: boolean;
  /** Live addresses never deleted, whatever prune says (`--exclude`d ones). */
  keep?: (address: string) => boolean;
  /** `--allow-address-in-use`: deleting an address numbers still use is a warning, not a refusal. */
  allowAddressInUse?: boolean;
}

/** What one apply run gives every provider. */
export interface ProviderApplyEnv {
  /** Requests (or changes) in flight at once. */
  concurrency: number;
  failFast: boolean;
  /** Names this run in the journal and in what it creates (bulk jobs). */
  runId: string;
  /** Every request's intent and outcome, and every change's outcome. */
  journal: Journal;
  /** The last-applied record (write-only digests, identities of unreadable objects). */
  record: RecordKeeper;
  /** Aborted (Ctrl-C): start nothing new, finish what is in flight. */
  signal?: AbortSignal;
  /** Called once per change when its outcome is known (the progress line). */
  onSettle(outcome: Outcome): void;
  /** A line worth saying at once, on stderr (an engine without a bulk create); the summary repeats it. */
  onNote?(note: string): void;
}

/**
 * One provider of one run. `read` then `plan` make its part of the plan; `apply` makes the
 * given changes of that part (all of them, or those a saved plan holds), sending the
 * requests `plan` built. Calling them out of order is a programming error.
 */
export interface Provider {
  readonly name: ProviderName;
  /** Reads the live state its declared objects touch; writes nothing. */
  read(): Promise<void>;
  /** Diffs what it declares against what `read` found: its part of the plan. */
  plan(options: ProviderPlanOptions): Promise<PlanPart>;
  /** Applies `changes` (each of this provider, from this run's plan); never rejects for a change's failure. */
  apply(changes: readonly Change[], env: ProviderApplyEnv): Promise<ApplyResult>;
  /**
   * The capacity pre-flight of its planned changes, after `plan`: the Capacity section's rows,
   * and what it refuses or warns about. Absent for a provider whose objects hold no capacity.
   */
  capacity?(): Promise<Omit<CapacityOutput, 'misread'>>;
  /**
   * The Emergency coverage section (docs/assurance.md) of the parents of numbers its plan's
   * scope declares, after `plan`: read only when asked. Absent for a provider without numbers.
   */
  coverage?(listLimit: number | null): Promise<CoverageReport>;
  /**
   * The values `field` takes over the live objects of `kind` (the rows of `table`, a table's
   * address, for the routing engine), for the policies' references; read once, after `plan`.
   * Undefined when they are not this provider's to read.
   */
  liveValues?(ref: LiveValuesRef): Promise<ReadonlySet<string> | undefined>;
}

/** What a policy reference names: a kind's objects, or a routing table's rows. */
export interface LiveValuesRef {
  kind?: string;
  table?: string;
  field: string;
  /**
   * Whether the plan takes a live object's value of `field` away (deletes it, or it, or
   * changes that field): such a value is no longer there to be named once the plan is applied.
   */
  gone?: (address: string) => boolean;
}
