import { ApiError, ApiErrorCode } from '../api/errors.js';
import { parentAddressOf } from '../kinds/address-path.js';
import { kindOf } from '../kinds/index.js';
import type { RequestSpec } from '../kinds/types.js';
import { canonicalJson } from '../core/canonical-json.js';
import type { Change } from '../plan/types.js';
import type { BulkRoute } from './bulk-routes.js';
import { parentStandIn } from './ids.js';
import { fetchItems } from './lookup.js';
import { runChange, type ChangeEnv } from './run-change.js';
import type { Outcome } from './walk.js';
import { outcomeIsUnknown } from './unknown-outcome.js';

const DEFAULT_POLL_MS = 500;
const MAX_POLL_MS = 5_000;
const DEFAULT_JOB_TIMEOUT_MS = 10 * 60_000;
/** Doc 2 §2.9 / §3: the states in which a job has ended. */
const ENDED = new Set(['success', 'error', 'partial']);

export interface BulkSettings {
  runId: string;
  pollMs?: number;
  timeoutMs?: number;
}

interface Member {
  change: Change;
  request: RequestSpec;
  identity: string;
}

interface JobItem {
  key?: unknown;
  data?: unknown;
  status?: unknown;
  reason?: unknown;
  message?: unknown;
}

/**
 * Runs the changes of one bulk group (one subscription, one bulk endpoint): their requests
 * folded into one bulk request, then the job followed (`GET …/bulk_jobs`, `GET T/bulks/{id}`)
 * until it ends, and each job item's result reported against its change. Requests that
 * cannot go into the bulk body are sent on their own.
 */
export async function runBulk(
  route: BulkRoute,
  changes: readonly Change[],
  env: ChangeEnv,
  settings: BulkSettings,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const members: Member[] = [];
  const alone: Change[] = [];
  for (const change of changes) {
    const request = builtRequest(change, env);
    if (request && route.eligible(request.body)) members.push({ change, request, identity: identityOf(change, env) });
    else alone.push(change);
  }
  for (const change of alone) outcomes.set(change.address, await runAlone(change, env));
  const [first] = members;
  if (!first) return outcomes;
  const path = first.request.path;
  const name = `switchboard ${settings.runId} ${route.name} ${parentAddressOf(first.change.address) ?? ''}`;
  const data = members.flatMap((m) => route.items(m.request.body));
  const anchor = first.change.address;
  let jobId: unknown;
  try {
    // It starts a job (Doc 2 §4.5): each copy sent would start another, so it is never re-sent blindly.
    const response = await env.sender.send<Record<string, unknown>>(
      { method: 'PUT', path: route.bulkPath(path), role: route.bulkRole, body: { name, data }, creates: true },
      anchor,
      `bulk ${route.name} (${members.length} items)`,
    );
    jobId = response.body?.['id'];
  } catch (error) {
    // 400: none succeeded (Doc 2 §4.5); the job's items still say why, when it exists. No
    // answer (the request may have started the job): the job is looked for by its name.
    const unknown = error instanceof ApiError && error.code === ApiErrorCode.outcomeUnknown;
    if (!(error instanceof ApiError) || (error.status !== 400 && !unknown)) return failAll(members, outcomes, error);
    jobId = (await findJob(route, path, name, env))?.['id'];
    if (jobId === undefined) return failAll(members, outcomes, error);
  }
  try {
    const job = await followJob(route, path, name, jobId, env, settings);
    reportItems(route, job, members, outcomes);
    if (route.creates) await learnIds(members, outcomes, env);
    for (const member of members) {
      const desired = env.desired.get(member.change.address);
      if (desired && outcomes.get(member.change.address)?.status === 'applied') env.record?.applied(desired);
    }
  } catch (error) {
    return failAll(
      members.filter((m) => !outcomes.has(m.change.address)),
      outcomes,
      error,
    );
  }
  return outcomes;
}

/** The change's one planned request (its create or its update), when it has exactly one. */
function builtRequest(change: Change, env: ChangeEnv): RequestSpec | undefined {
  if (!env.desired.has(change.address)) return undefined;
  const step = change.action === 'create' ? 'create' : change.action === 'update' ? 'update' : undefined;
  const requests = step === undefined ? [] : (env.requests.get(change.address)?.[step] ?? []);
  const [request] = requests;
  return requests.length === 1 && request ? env.ids.resolve(request) : undefined;
}

async function runAlone(change: Change, env: ChangeEnv): Promise<Outcome> {
  try {
    await runChange(change, 'all', env);
    return { status: 'applied' };
  } catch (error) {
    return failure(error);
  }
}

function identityOf(change: Change, env: ChangeEnv): string {
  const desired = env.desired.get(change.address);
  return desired ? kindOf(change.kind).identity(desired.fields) : '';
}

/** The job: by the id the answer carries when it does, else by its unique name in the job list; polled until it ends. */
async function followJob(
  route: BulkRoute,
  path: string,
  name: string,
  jobId: unknown,
  env: ChangeEnv,
  settings: BulkSettings,
): Promise<Record<string, unknown>> {
  const deadline = performance.now() + (settings.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS);
  let wait = settings.pollMs ?? DEFAULT_POLL_MS;
  let id = jobId;
  for (;;) {
    if (id === undefined) id = (await findJob(route, path, name, env))?.['id'];
    if (id !== undefined) {
      const detail = await env.sender.send<Record<string, unknown>>(
        {
          method: 'GET',
          path: `${route.subscriptionPath(path)}/bulks/${encodeURIComponent(String(id))}`,
          role: route.detailRole,
        },
        name,
        'follow bulk job',
      );
      if (ENDED.has(String(detail.body?.['status']))) return detail.body ?? {};
    }
    if (performance.now() + wait > deadline) {
      throw new Error(
        `bulk job "${name}" did not end within ${Math.round((settings.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS) / 1000)} s; see GET ${route.jobsPath(path)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, MAX_POLL_MS);
  }
}

async function findJob(
  route: BulkRoute,
  path: string,
  name: string,
  env: ChangeEnv,
): Promise<Record<string, unknown> | undefined> {
  const jobs = await env.sender.lookupClient(name, 'find bulk job').listPages<Record<string, unknown>>({
    path: route.jobsPath(path),
    itemsKey: 'bulks',
    style: 'token',
    query: { search: name },
    role: route.jobsRole,
  });
  return jobs.filter((j) => j['title'] === name).sort((a, b) => Number(b['id']) - Number(a['id']))[0];
}

/**
 * Each job item is matched to its change by the data it carries (Doc 2 §2.9: "the original
 * request data"), else by its key (the object's identity), so an item whose key the
 * platform could not even form still reports its reason against the right change.
 */
function reportItems(
  route: BulkRoute,
  job: Record<string, unknown>,
  members: readonly Member[],
  outcomes: Map<string, Outcome>,
): void {
  const items = Array.isArray(job['job_items']) ? (job['job_items'] as JobItem[]) : [];
  const byData = new Map(items.map((item) => [canonicalJson(item.data ?? null), item]));
  const byKey = new Map(items.map((item) => [String(item.key ?? '').toLowerCase(), item]));
  for (const member of members) {
    const data = route.items(member.request.body).find((d) => d !== undefined);
    const item = byData.get(canonicalJson(data ?? null)) ?? byKey.get(member.identity.toLowerCase());
    if (item?.status === 'success') {
      outcomes.set(member.change.address, { status: 'applied' });
      continue;
    }
    if (!item && job['status'] === 'success') {
      // A create's listing has the last word (learnIds). An update no item reports may or may
      // not have been made, whatever the job's status says: the next plan shows which.
      outcomes.set(
        member.change.address,
        route.creates
          ? { status: 'applied' }
          : {
              status: 'failed',
              unknown: true,
              code: 'SB_APPLY_BULK_ITEM',
              message:
                `not among the items of bulk job ${String(job['job_id'] ?? job['id'])}, which reported success: ` +
                'whether it was applied is not known; the next plan shows it',
            },
      );
      continue;
    }
    const why = item
      ? String(item.reason ?? item.message ?? 'the bulk job reported an error for this item')
      : 'not among the items of the bulk job';
    outcomes.set(member.change.address, {
      status: 'failed',
      code: 'SB_APPLY_BULK_ITEM',
      message: `bulk job ${String(job['job_id'] ?? job['id'])}: ${why}`,
    });
  }
}

/**
 * The ids of the objects a job created, by listing their collection once. The listing has
 * the last word: an object found under its declared identity exists (even when its item
 * failed, e.g. a re-sent bulk answering "exists"), one not found does not.
 */
async function learnIds(members: readonly Member[], outcomes: Map<string, Outcome>, env: ChangeEnv): Promise<void> {
  const [first] = members;
  const desired = first && env.desired.get(first.change.address);
  if (!first || !desired) return;
  const kind = kindOf(first.change.kind);
  const parent = env.ids.parentRefOf(desired);
  const parentLive = parent ? parentStandIn(parent) : undefined;
  const specs = kind.list?.(parentLive, env.ctx);
  if (!specs) return;
  const found = new Map<string, string>();
  for (const spec of Array.isArray(specs) ? specs : [specs]) {
    for (const item of await fetchItems(env.sender.lookupClient(first.change.address, 'list after bulk job'), spec)) {
      const parts = await kind.fromApi(item, env.ctx, parentLive);
      found.set(kind.identity(parts.fields), parts.id);
    }
  }
  for (const member of members) {
    const id = found.get(member.identity);
    if (id !== undefined) {
      env.ids.setCreated(member.change.address, id);
      outcomes.set(member.change.address, { status: 'applied' });
    } else if (outcomes.get(member.change.address)?.status === 'applied') {
      const listed = `the ${kind.collection ?? `${kind.kind} objects`} of ${parent?.address ?? 'its parent'}`;
      outcomes.set(member.change.address, {
        status: 'failed',
        code: 'SB_APPLY_BULK_ITEM',
        message: `the bulk job reported success, but ${listed} do not include ${member.identity}`,
      });
    }
  }
}

function failAll(members: readonly Member[], outcomes: Map<string, Outcome>, error: unknown): Map<string, Outcome> {
  for (const member of members) outcomes.set(member.change.address, failure(error));
  return outcomes;
}

export function failure(error: unknown): Outcome {
  const message = error instanceof Error ? error.message : String(error);
  const code =
    error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  return {
    status: 'failed',
    message,
    ...(code ? { code } : {}),
    ...(outcomeIsUnknown(error) ? { unknown: true } : {}),
  };
}
