/** Shared types of the routing-engine client and row diff (Document 3). */
import type { ScalarColumnType } from '../core/values.js';

/** Column types a RoutingTable manifest can declare in `spec.fields`. */
export type RoutingFieldType = ScalarColumnType;

/** Which table: `/<service>/<version>/<table>` (Doc3 §4). */
export interface RoutingTableRef {
  service: string;
  version: 'active' | 'standby';
  table: string;
}

/** A record as the engine returns it: an integer `id` plus the table's fields. */
export type RoutingRecord = { id: number } & Record<string, unknown>;

/** Doc3 §5: HTTP Basic or a bearer token. */
export type RoutingAuth = { username: string; password: string } | { token: string };

/** One list response (Doc3 §4.1). */
export interface RoutingPage {
  num_results: number;
  page: number;
  total_pages: number;
  objects: RoutingRecord[];
}
