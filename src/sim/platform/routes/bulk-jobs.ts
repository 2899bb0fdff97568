/**
 * Bulk jobs (Document 2 §2.9, §4.5, §4.6): running a job, the job lists of addresses and
 * address-numbers, a job's detail with its items, and the CSV templates.
 *
 * Design decisions:
 * - Jobs run synchronously inside the PUT: when the response arrives the job is already
 *   `success`, `error` or `partial` (the spec shows no running state). 200 when at least one
 *   item succeeded (`partial` when some failed), 400 when none did; both bodies carry
 *   `code`/`reason` plus the job's `id` and `job_id` (extras); the 400 also carries the
 *   simulator's usual `error` object (code `bulk_failed`).
 * - When a job ends, an e-mail goes to the caller (if the account has an address) unless the
 *   group configuration sets `bulk_job_notifications` to `false`.
 * - The job lists page in token style; `search` is a case-insensitive substring of title or
 *   kind; `filters` (JSON object, or array of `{field, value}`) keeps jobs whose fields equal
 *   the values (e.g. `{"status":"partial"}`).
 * - Templates for kinds other than `addresses` (headers not shown): `address_numbers` →
 *   `full_address,number`; `number_ranges` → `first_number,last_number`; `uc_alpha_users` →
 *   `username,firstName,lastName,number,templateSku`.
 */
import { ApiError, badRequest, notFound } from '../errors.js';
import { sendMail } from '../mail.js';
import { matchesSearch, paginate, pageBody, readListQuery } from '../pagination.js';
import { ok, T, type ApiResponse, type RequestContext, type RouteModule } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import { subscriptionTables, type BulkItem, type BulkJobRow, type BulkKind } from '../store/subscription-tables.js';
import type { SubscriptionScope } from './subscription-scope.js';
import { intParam, objectQuery, visibleSubscription } from './subscription-scope.js';
import { optionalString, requiredString } from '../validate.js';

const TEMPLATE_HEADERS: Record<string, string> = {
  addresses: 'premises,city,country,isoCode,number,postalCode,state,street',
  address_numbers: 'full_address,number',
  number_ranges: 'first_number,last_number',
  uc_alpha_users: 'username,firstName,lastName,number,templateSku',
};

export const registerBulkJobRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: `${T}/addresses/bulk_jobs`,
    role: 'tenants.instance.subscriptions.instance.addresses.bulk.jobs',
    handler: (ctx) => listJobs(ctx, 'addresses'),
  });
  router.add({
    method: 'GET',
    path: `${T}/address_numbers/bulk_jobs`,
    role: 'tenants.instance.subscriptions.instance.address_numbers.bulk.jobs',
    handler: (ctx) => listJobs(ctx, 'address_numbers'),
  });
  router.add({
    method: 'GET',
    path: `${T}/bulks/:bulk_id`,
    role: 'tenants.instance.subscriptions.instance.bulk.jobs.details',
    handler: (ctx) => {
      const { sub } = visibleSubscription(ctx);
      const id = intParam(ctx, 'bulk_id');
      const job = subscriptionTables(ctx.store).bulkJobs.get(id);
      if (!job || job.subscriptionId !== sub.id) throw notFound(`bulk job ${id} of subscription ${sub.id} not found`);
      return ok(jobView(job, true));
    },
  });
  router.add({
    method: 'POST',
    path: `${T}/downloads/bulk_template`,
    role: 'tenants.instance.subscriptions.instance.downloads.bulk_template',
    handler: (ctx) => {
      visibleSubscription(ctx);
      const format = requiredString(ctx.body, 'format');
      if (format !== 'csv') throw badRequest('bad_field', 'format must be csv');
      const kind = requiredString(ctx.body, 'kind');
      const header = TEMPLATE_HEADERS[kind];
      if (!header) throw badRequest('bad_field', `kind must be one of ${Object.keys(TEMPLATE_HEADERS).join(', ')}`);
      const filename = optionalString(ctx.body, 'filename') ?? `bulk_template_${kind}.csv`;
      return {
        status: 200,
        text: `${header}\r\n`,
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="${filename.replace(/"/g, '')}"`,
        },
      };
    },
  });
};

/** One item of a job: its key, the request data, and the operation (which throws ApiError to fail). */
export interface BulkInput {
  key: string;
  data: unknown;
  run: () => void;
}

/**
 * Runs a bulk job item by item and stores it. Answers 200 (`code`, `reason`) when at least
 * one item succeeded, 400 when none did.
 */
export function runBulkJob(
  ctx: RequestContext,
  scope: SubscriptionScope,
  kind: BulkKind,
  code: number,
  items: BulkInput[],
): ApiResponse {
  const { store } = ctx;
  const title = requiredString(ctx.body, 'name');
  const now = store.clock.isoNow();
  const jobItems: BulkItem[] = items.map((item, i) => {
    try {
      item.run();
      return { id: i + 1, key: item.key, status: 'success', data: item.data, created_on: now, updated_on: now };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return {
        id: i + 1,
        key: item.key,
        status: 'error',
        data: item.data,
        reason: error.message,
        created_on: now,
        updated_on: now,
      };
    }
  });
  const success = jobItems.filter((i) => i.status === 'success').length;
  const status = success === jobItems.length ? 'success' : success === 0 ? 'error' : 'partial';
  const id = store.nextId('bulkJobs');
  const job: BulkJobRow = {
    id,
    subscriptionId: scope.sub.id,
    job_id: `${kind}-${scope.sub.id}-${id}`,
    title,
    kind,
    status,
    total_count: jobItems.length,
    success_count: success,
    created_on: now,
    updated_on: now,
    job_items: jobItems,
  };
  subscriptionTables(store).bulkJobs.insert(job);
  notify(ctx, scope, job);
  const reason = `${kind} bulk job ${job.job_id} finished: ${success} of ${jobItems.length} items succeeded (status ${status})`;
  const body = { code, reason, id, job_id: job.job_id };
  if (success === 0) return { status: 400, body: { ...body, ...new ApiError(400, 'bulk_failed', reason).body() } };
  return ok(body);
}

function notify(ctx: RequestContext, scope: SubscriptionScope, job: BulkJobRow): void {
  const to = ctx.user?.email;
  if (!to || scope.group?.configuration['bulk_job_notifications'] === 'false') return;
  sendMail(ctx.store, {
    to,
    template: 'mails.bulk_job_done',
    subject: `Bulk job ${job.title} finished: ${job.status}`,
    body: `Bulk job ${job.job_id} (${job.kind}) finished with status ${job.status}: ${job.success_count}/${job.total_count} items succeeded.`,
    data: { jobId: job.job_id, id: job.id, status: job.status },
  });
}

function listJobs(ctx: RequestContext, kind: BulkKind): ApiResponse {
  const { sub } = visibleSubscription(ctx);
  const q = readListQuery(ctx.query, { searchable: ['title', 'kind'], defaultSort: 'id', filters: ['filters'] });
  let filters: Record<string, unknown>;
  if (ctx.query.get('next'))
    filters = q.filters['filters'] ? (JSON.parse(q.filters['filters']) as Record<string, unknown>) : {};
  else {
    filters = objectQuery(ctx.query, 'filters');
    q.filters = Object.keys(filters).length > 0 ? { filters: JSON.stringify(filters) } : {};
  }
  const rows = subscriptionTables(ctx.store)
    .bulkJobs.sorted({ kind: 'parent', key: String(sub.id) }, { field: q.sort, dir: q.dir })
    .filter(
      (j) =>
        j.kind === kind &&
        matchesSearch(j, q.search, ['title', 'kind']) &&
        Object.entries(filters).every(([k, v]) => String((j as unknown as Record<string, unknown>)[k]) === String(v)),
    );
  return ok(pageBody(paginate(rows, q, 'token'), 'bulks', (j) => jobView(j, false), ctx.forms));
}

function jobView(job: BulkJobRow, withItems: boolean): Record<string, unknown> {
  const { subscriptionId: _s, job_items, ...rest } = job;
  return withItems ? { ...rest, job_items: job_items.map((i) => ({ ...i })) } : rest;
}

/** Bulk item data must be objects. */
export function itemObject(v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw badRequest('bad_item', 'each item must be an object');
  return v as Record<string, unknown>;
}

export function requireArray(ctx: RequestContext, key: string): unknown[] {
  const v = ctx.body[key];
  if (!Array.isArray(v)) throw badRequest('missing_field', `${key} is required (an array)`);
  return v;
}

/** Used by the address-numbers job: the number of a subscription by E.164. */
export function subscriptionNumber(store: PlatformStore, subscriptionId: number, e164: string) {
  return store.numbers.findBy('fullNumber', e164).find((n) => n.subscriptionId === subscriptionId);
}
