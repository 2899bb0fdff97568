/**
 * The routing engine simulator's data model (Document 3 §2): services hold data-model
 * versions (`active`, `standby`), versions hold tables, tables declare typed fields and
 * unique constraints. Written from the spec; it shares nothing with the client.
 */

/** Column types a routing-engine table can declare. */
export type SimFieldType = 'string' | 'integer' | 'number' | 'boolean';

export interface SimFieldSeed {
  type: SimFieldType;
  /** Defaults to true; a non-nullable field must be present on create (Doc3 §2). */
  nullable?: boolean;
  /** A single-column unique constraint. */
  unique?: boolean;
}

/** A record as stored and returned: `id` plus every declared field (null when unset). */
export type SimRow = Record<string, unknown> & { id: number };

export interface SimTableSeed {
  fields: Record<string, SimFieldSeed>;
  /** Multi-column unique constraints, each a list of field names. */
  unique?: string[][];
  /** Initial rows; an `id` is assigned when a row has none. */
  rows?: Record<string, unknown>[];
}

export type SimVersionName = 'active' | 'standby';

export interface SimCredentials {
  basic?: { username: string; password: string }[];
  tokens?: string[];
}

/** Deliberate deviations, to test how a client copes with other engines. */
export interface SimQuirks {
  /** `_bulk` answers this status (older engines, plain Flask-Restless). */
  bulkStatus?: 404 | 405;
  /** Collection PATCH/PUT ignores a `q` in the URL and updates every row (a hazard of engines that ignore URL filters). */
  ignoreUrlFilterOnWrite?: boolean;
  /**
   * What listing a table that holds no record answers: 404 (the default, Doc3 §4.2 "404
   * when data not found"), or 200 with `num_results: 0`, as some engines built on the same
   * conventions do. A search that matches nothing is 404 either way.
   */
  emptyListStatus?: 200 | 404;
  /** What a search (`q` with filters) that matches nothing answers: 404 (the default, Doc3 §4.2) or 200 with no objects. */
  emptySearchStatus?: 200 | 404;
  /**
   * Values are stored as an SQLite database stores them (type affinity), instead of a value
   * of another type being refused with 500 (Doc3 §4.2 "text for an integer"): in an integer
   * or number column, text that reads as a number becomes that number and other text is kept
   * as text, a boolean becomes 1 or 0; in a text column, a number or a boolean becomes its
   * text (`5` → `"5"`, `true` → `"1"`); a boolean column takes true, false, 1 and 0 only (500
   * otherwise, as SQLAlchemy refuses the rest).
   */
  typeAffinity?: boolean;
}

/**
 * Engines whose behaviour the simulator can take on as a whole (its quirks, which the
 * seed's own `quirks` override one by one). `flask-restless-0.17`: an unmodified
 * Flask-Restless 0.17 server over SQLite, the usual stand-in for the routing engine: no
 * `_bulk` (its record route takes `_bulk` for an id: a POST is 405), 200 with
 * `num_results: 0` for an empty table and for a search that matches nothing, and SQLite's
 * type affinity (text accepted for integer columns).
 */
export type SimPeer = 'flask-restless-0.17';

export const PEER_QUIRKS: Readonly<Record<SimPeer, SimQuirks>> = {
  'flask-restless-0.17': { bulkStatus: 405, emptyListStatus: 200, emptySearchStatus: 200, typeAffinity: true },
};

export interface RoutingSeed {
  credentials?: SimCredentials;
  /** Server cap on `results_per_page` (default 100). */
  maxResultsPerPage?: number;
  services: Record<string, Partial<Record<SimVersionName, Record<string, SimTableSeed>>>>;
  /** Behave as this engine does (its quirks; `quirks` given too override them). */
  peer?: SimPeer;
  quirks?: SimQuirks;
}

/** An error the simulator answers with `{code, message}` (Doc3 §7), plus extra body fields. */
export class SimHttpError extends Error {
  readonly status: number;
  readonly extra: Record<string, unknown>;

  constructor(status: number, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.extra = extra;
  }
}

/** Flask's generic text for 500, which the engine returns when a value cannot be validated (Doc3 §7). */
export const GENERIC_500 =
  'The server encountered an unexpected condition that prevented it from fulfilling the request.';
