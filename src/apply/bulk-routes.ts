import { fullAddress } from '../manifest/build-tenant.js';
import type { PlannedRequest } from '../plan/types.js';

/** Address creates of one subscription above this many go through `PUT A/bulk` (Doc 2 §4.5). */
export const BULK_THRESHOLD = 20;

/**
 * The bulk endpoints of Doc 2 §4.5-4.6, described by the shape of the requests they stand
 * for (never by kind): the executor folds requests that match one route and share a path
 * (one subscription) into one bulk request, then follows the job it starts.
 */
export interface BulkRoute {
  name: 'addresses' | 'address_numbers';
  /** Does this planned request belong to the route? */
  matches(request: PlannedRequest): boolean;
  /** `always`: every match is batched; `threshold`: only groups larger than the threshold. */
  when: 'always' | 'threshold';
  /**
   * The items name sibling objects by identity (a number's address, by full address), so
   * the group waits for every create under the same parent in this run.
   */
  afterSiblingCreates: boolean;
  /** The items are creates: list the collection after the job for their ids (and proof). */
  creates: boolean;
  /** The bulk endpoint for the (resolved) path of the grouped requests. */
  bulkPath(path: string): string;
  /** The job list of this kind of job. */
  jobsPath(path: string): string;
  /** `T` of the spec, for `GET T/bulks/{id}`. */
  subscriptionPath(path: string): string;
  /** The items one request contributes to the bulk body's `data`. */
  items(body: unknown): unknown[];
  /**
   * Whether one request may go into the bulk body unchanged in meaning. The address bulk
   * takes address data only (no `full_address`): an address declared with a full address
   * other than the one the platform forms from its parts is created on its own.
   */
  eligible(body: unknown): boolean;
  jobsRole: string;
  detailRole: string;
  bulkRole: string;
}

const ADDRESSES = /\/subscriptions\/[^/]+\/addresses$/;
const ADDRESS_NUMBERS = /\/subscriptions\/[^/]+\/address_numbers\/bulk$/;
const ROLE = 'tenants.instance.subscriptions.instance';

function field(value: unknown, name: string): unknown {
  return value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
}

export const bulkRoutes: readonly BulkRoute[] = [
  {
    name: 'addresses',
    when: 'threshold',
    afterSiblingCreates: false,
    creates: true,
    matches: (r) => r.method === 'POST' && ADDRESSES.test(r.path),
    bulkPath: (path) => `${path}/bulk`,
    jobsPath: (path) => `${path}/bulk_jobs`,
    subscriptionPath: (path) => path.replace(/\/addresses$/, ''),
    items: (body) => [field(body, 'data')],
    eligible: (body) => {
      const full = field(body, 'full_address');
      const data = field(body, 'data');
      return data !== undefined && (full === undefined || full === fullAddress(data as Record<string, never>));
    },
    jobsRole: `${ROLE}.addresses.bulk.jobs`,
    detailRole: `${ROLE}.bulk.jobs.details`,
    bulkRole: `${ROLE}.addresses.bulk`,
  },
  {
    name: 'address_numbers',
    when: 'always',
    afterSiblingCreates: true,
    creates: false,
    matches: (r) => r.method === 'PUT' && ADDRESS_NUMBERS.test(r.path),
    bulkPath: (path) => path,
    jobsPath: (path) => path.replace(/\/bulk$/, '/bulk_jobs'),
    subscriptionPath: (path) => path.replace(/\/address_numbers\/bulk$/, ''),
    items: (body) => {
      const data = field(body, 'data');
      return Array.isArray(data) ? data : [];
    },
    eligible: () => true,
    jobsRole: `${ROLE}.address_numbers.bulk.jobs`,
    detailRole: `${ROLE}.bulk.jobs.details`,
    bulkRole: `${ROLE}.address_numbers.bulk`,
  },
];

/** The route a change's single planned request belongs to, if any. */
export function bulkRouteOf(requests: readonly PlannedRequest[]): BulkRoute | undefined {
  if (requests.length !== 1) return undefined;
  const [request] = requests;
  return request ? bulkRoutes.find((route) => route.matches(request)) : undefined;
}
