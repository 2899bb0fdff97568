/**
 * The routing engine client (Document 3), the row diff the planner calls for RoutingTable
 * documents, and the executor that applies such a diff.
 */
export {
  RoutingClient,
  basePath,
  MAX_TABLE_READS,
  type RoutingClientOptions,
  type ReadAllResult,
  type RoutingStats,
} from './client.js';
export { RoutingApiError, type RoutingErrorCode } from './errors.js';
export { type RoutingConnection, type RoutingRequestStats } from './http.js';
export {
  f,
  query,
  encodeQuery,
  type Filter,
  type FilterCondition,
  type FilterOp,
  type OrderBy,
  type RoutingQuery,
} from './query.js';
export {
  diffRows,
  type ColumnarRows,
  type DesiredRow,
  type RowDiffOptions,
  type RowDiff,
  type RowCreate,
  type RowUpdate,
  type UpdateGroup,
  type RowDelete,
  type RowDiffProblem,
} from './diff.js';
export { executeRoutingChanges, type RoutingFailure, type RowSettlement } from './execute.js';
export type { RoutingRecord, RoutingTableRef } from './types.js';

import type { RoutingTableRef } from './types.js';

/** `routing/<service>/<version>/<table>/<field>=<value>[,…]` (docs/plans.md). */
export function routingAddress(ref: RoutingTableRef, keyLabel: string): string {
  return `routing/${ref.service}/${ref.version}/${ref.table}/${keyLabel}`;
}
