import { ApiError, ApiErrorCode } from '../api/errors.js';
import type { LiveObject, RequestSpec } from '../kinds/types.js';
import type { LiveReader } from './read.js';
import type { ListingClient } from './types.js';

/** A read of the capacity pre-flight: its answer, or why it could not be made (403, 404). */
export type CapacityRead<T> = { ok: T } | { unreadable: string };

/** The reads the capacity pre-flight (src/plan/capacity.ts) needs. */
export interface CapacityReads {
  /** The live objects of a kind under a live parent. */
  listUnder(kind: string, parent: LiveObject): Promise<CapacityRead<LiveObject[]>>;
  /** Every live object of a kind the caller can list. */
  listAll(kind: string): Promise<CapacityRead<LiveObject[]>>;
  /** The body of a GET (an ancestor's report). */
  get(request: RequestSpec): Promise<CapacityRead<unknown>>;
}

/**
 * The capacity pre-flight's reads through the plan's own reader (a collection it already
 * listed is not listed again) and client. A refusal (403: groups are for system
 * administrators, Doc 1 §4.2) or an absence (404, 405) is an answer the pre-flight reports
 * as unchecked; any other failure fails the plan, as every read does.
 */
export function capacityReads(reader: LiveReader, client: ListingClient): CapacityReads {
  return {
    listUnder: (kind, parent) => unreadableOn(() => reader.listUnderParent(kind, parent)),
    listAll: (kind) => unreadableOn(() => reader.listAll(kind)),
    get: (request) =>
      unreadableOn(async () => {
        const response = await client.request<unknown>({
          method: 'GET',
          path: request.path,
          ...(request.query ? { query: request.query } : {}),
          ...(request.role ? { role: request.role } : {}),
        });
        return response.body;
      }),
  };
}

/** A read whose refusal (403) or absence (404, 405) is an answer, not a failure of the plan. */
export async function unreadableOn<T>(read: () => Promise<T>): Promise<CapacityRead<T>> {
  try {
    return { ok: await read() };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404 || error.status === 405))
      return { unreadable: `${error.method} ${error.path} answered ${error.status}` };
    throw error;
  }
}

/** A report that cannot be what the API documents say: the read fails as a misread answer. */
export function misreadReport(request: RequestSpec, problem: string): ApiError {
  return new ApiError({
    code: ApiErrorCode.badResponse,
    method: 'GET',
    path: request.path,
    status: 200,
    retryable: false,
    detail: `the answer cannot be read: ${problem}`,
    ...(request.role ? { role: request.role } : {}),
  });
}
