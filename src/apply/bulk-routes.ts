import { kindOf } from '../kinds/index.js';
import type { BulkRoute } from '../kinds/types.js';
import type { Change } from '../plan/types.js';

export type { BulkRoute };

/** Creates of one parent above this many go through their kind's bulk endpoint, when it batches by `threshold` (Doc 2 §4.5). */
export const BULK_THRESHOLD = 20;

/** The bulk route of a change: its kind's, when the change's single request is one the route stands for. */
export function bulkRouteOf(change: Change): BulkRoute | undefined {
  if (change.requests.length !== 1) return undefined;
  const route = kindOf(change.kind).bulk;
  const [request] = change.requests;
  return route && request && route.matches(request) ? route : undefined;
}
