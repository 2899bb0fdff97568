/** A scripted platform for executor unit tests: lists from a map, writes answered by a handler. */
import type { Journal } from '../../src/apply/journal.js';
import { ApiError, ApiErrorCode, codeForStatus } from '../../src/api/errors.js';
import { applyChanges } from '../../src/apply/executor.js';
import type { ApplyClient, ApplyResult } from '../../src/apply/types.js';
import { kinds } from '../../src/kinds/index.js';
import type { KindContext } from '../../src/kinds/types.js';
import { computeChanges, type PlannerOutput } from '../../src/plan/planner.js';
import type { Change } from '../../src/plan/types.js';
import { LiveReader } from '../../src/state/read.js';
import type { DesiredNode, LastApplied, LiveState } from '../../src/state/types.js';
import { staticRefs } from '../kinds/static-refs.js';

export const P = '/api/v01/draas/demo';

export interface SentRequest {
  method: string;
  path: string;
  body?: unknown;
}

export type Answer = { status: number; body?: unknown } | ApiError;
export type Handler = (request: SentRequest, nth: number) => Answer | undefined;

const ctx: KindContext = {
  P,
  refs: staticRefs({
    'suspension profiles': [{ id: 2, name: 'outgoing-barring', barringProfileId: 'BP-OUT' }],
    'entitlement types': [{ id: 1, name: 'BE geo' }],
    'postal codes': [{ id: 11, code: '1000' }],
  }),
};

export function apiError(
  method: string,
  path: string,
  status: number | undefined,
  message = 'refused',
  code = status === undefined ? ApiErrorCode.outcomeUnknown : codeForStatus(status),
): ApiError {
  return new ApiError({
    code,
    method,
    path,
    ...(status === undefined ? {} : { status }),
    platformMessage: message,
    retryable: false,
    detail: status === undefined ? 'no answer' : 'refused',
  });
}

/**
 * Lists come from `collections` (path?query → items), which tests may change as writes
 * happen; every write goes to `handler` (default: 200 with a fresh id).
 */
export class FakePlatform implements ApplyClient {
  readonly sent: SentRequest[] = [];
  private ids = 100;

  constructor(
    readonly collections: Record<string, unknown[]>,
    public handler: Handler = () => undefined,
  ) {}

  async listPages<T>(options: {
    path: string;
    query?: Record<string, string>;
    notFoundIsEmpty?: boolean;
  }): Promise<T[]> {
    const key =
      options.query && Object.keys(options.query).length
        ? `${options.path}?${new URLSearchParams(options.query).toString()}`
        : options.path;
    this.sent.push({ method: 'LIST', path: key });
    const items = this.collections[key];
    if (!items && !options.notFoundIsEmpty) throw apiError('GET', key, 404, 'not found');
    return (items ?? []) as T[];
  }

  async request<T>(options: {
    method: string;
    path: string;
    body?: unknown;
    okStatuses?: readonly number[];
  }): Promise<{ status: number; body: T }> {
    const request: SentRequest = {
      method: options.method,
      path: options.path,
      ...(options.body === undefined ? {} : { body: options.body }),
    };
    const nth = this.sent.filter((s) => s.method === request.method && s.path === request.path).length;
    this.sent.push(request);
    const answer = this.handler(request, nth) ?? { status: 200, body: { id: ++this.ids, uuid: `u-${++this.ids}` } };
    if (answer instanceof ApiError) {
      if (answer.status !== undefined && options.okStatuses?.includes(answer.status))
        return { status: answer.status, body: undefined as T };
      throw answer;
    }
    return { status: answer.status, body: answer.body as T };
  }

  writes(): string[] {
    return this.sent.filter((s) => s.method !== 'LIST' && s.method !== 'GET').map((s) => `${s.method} ${s.path}`);
  }
}

export interface Planned {
  changes: Change[];
  live: LiveState;
  desired: DesiredNode[];
  requests: PlannerOutput['requests'];
}

/** Reads and plans with the real reader and planner against the fake's lists. */
export async function planWith(
  platform: FakePlatform,
  desired: DesiredNode[],
  lastApplied: LastApplied = new Map(),
  prune = false,
): Promise<Planned> {
  const live = await new LiveReader(platform, ctx, lastApplied).read(
    desired,
    kinds.map((k) => k.kind),
  );
  const out = await computeChanges({ desired, live, lastApplied, ctx, options: { prune } });
  if (out.problems.length > 0) throw new Error(JSON.stringify(out.problems));
  platform.sent.length = 0;
  return { changes: out.changes, live, desired, requests: out.requests };
}

export async function applyWith(
  platform: FakePlatform,
  planned: Planned,
  options: { failFast?: boolean; concurrency?: number; bulkThreshold?: number; journal?: Journal } = {},
): Promise<ApplyResult> {
  return applyChanges({
    changes: planned.changes,
    desired: planned.desired,
    live: planned.live,
    client: platform,
    ctx,
    requests: planned.requests,
    ...(options.journal ? { journal: options.journal } : {}),
    options: {
      concurrency: options.concurrency ?? 4,
      failFast: options.failFast ?? false,
      runId: 'test',
      jobPollMs: 1,
      ...(options.bulkThreshold ? { bulkThreshold: options.bulkThreshold } : {}),
    },
  });
}

export const groups = {
  [`${P}/groups`]: [{ uuid: 'g-1', name: 'demo-group' }],
  // The group's list holds its whole subtree: where a new tenant is first looked for (it cannot move).
  [`${P}/tenants?parent=g-1`]: [],
  [`${P}/resellers?parent=g-1`]: [],
};
export const north = {
  [`${P}/resellers?parent=g-1`]: [{ uuid: 'r-1', name: 'north', billingId: 'R-NORTH' }],
  [`${P}/tenants?parent=r-1`]: [],
};

export function outcomeOf(result: ApplyResult, address: string) {
  return result.results.find((r) => r.change.address === address)?.outcome;
}
