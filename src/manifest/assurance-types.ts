/**
 * What the RoutingTest and ChangeWindow documents hand to the rest of switchboard
 * (docs/assurance.md): test vectors with their lookup semantics, and change windows with
 * their scope and schedule. Plain data, checked by the loader.
 */
import type { Schedule } from './change-window-schedule.js';
import type { JsonScalar } from './types.js';

/**
 * How a table answers a lookup: by its exact key, or by the longest value of `column` that
 * is a prefix of the number looked up (a carriers table keyed by prefix).
 */
export type LookupMode = { type: 'exact' } | { type: 'longest-prefix'; column: string };

/** One test vector: what is looked up, and which row must answer (null: none may). */
export interface RoutingVector {
  lookup: Readonly<Record<string, JsonScalar>>;
  /** The values the answering row must hold (compared as text); null: no row may answer. */
  expect: Readonly<Record<string, JsonScalar>> | null;
  /** `file:line:col` of the vector (a CSV row: `file:line:1`). */
  source: string;
}

/** The vectors of one RoutingTest document, over one table. */
export interface RoutingTestSet {
  /** The document's name. */
  name: string;
  /** The table's address (`routing/<service>/<version>/<table>`). */
  table: string;
  ref: { service: string; version: string; table: string };
  mode: LookupMode;
  vectors: RoutingVector[];
  /** `file:line:col` of the document. */
  source: string;
}

/**
 * What a change window covers: every criterion given must hold (an empty scope covers
 * everything); each lists alternatives.
 */
export interface WindowScope {
  /** Address patterns (a trailing `*` matches by prefix, as `--target`). */
  addresses: readonly string[];
  /** Kinds of the kind table, or the routing rows' kind. */
  kinds: readonly string[];
  /** Routing tables by address (`routing/<service>/<version>/<table>`): their rows. */
  tables: readonly string[];
}

/** One ChangeWindow document. */
export interface ChangeWindow extends Schedule {
  name: string;
  /** The document's zone (its freezes, and the windows that name none). */
  timeZone: string;
  scope: WindowScope;
  /** `file:line:col` of the document. */
  source: string;
}

/** A vector's name in messages: its lookup value (`+3221234567`), or its fields (`tenant=a, number=+32…`). */
export function vectorLabel(vector: Pick<RoutingVector, 'lookup'>): string {
  const entries = Object.entries(vector.lookup);
  if (entries.length === 1) return String(entries[0]?.[1]);
  return entries.map(([field, value]) => `${field}=${String(value)}`).join(', ');
}
