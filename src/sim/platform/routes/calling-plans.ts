/**
 * Calling plans (Document 2 §2.11, §4.9, §4.10): the block list of a group, and the block
 * and allow lists of a trunk group, each with its prefixes. All three share one shape.
 *
 * - A list answers 404 when it holds no plan at all (a search that matches nothing is an
 *   empty 200); a plan's prefix list answers 404 when the plan has no prefix.
 * - `PUT …/{id}` changes only `name` (required); every other field of the body is ignored.
 * - `isExact` is accepted as a boolean or as the string "true"/"false", and served as a boolean.
 * - A trunk group is one of the subscription's seeded `trunkGroups` (no endpoint creates
 *   them): another id is 404.
 * - Deleting a missing object: the group block list's plan delete says it counts as success
 *   (204); no other delete here says so (Document 1 §1.10 makes it per endpoint), so a
 *   missing prefix, allow-list plan or trunk-group block-list plan is 404.
 *
 * Design decisions ("not shown"): the delete of a trunk-group block list and its prefix
 * endpoints exist, shaped like the allow list's, with roles
 * `…trunk_group.instance.block_list.instance.delete` and
 * `…block_list.instance.prefixes.{list,create,instance.update,instance.delete}`; the type of a
 * trunk-group list is fixed by its path (another `type` in the body is 400); a group list
 * accepts either type (default `block_list`); `country` and `countryCode` are filled from
 * the seeded countries when only `isoCode` is given; prefixes are digits with an optional
 * leading `+`, unique within a plan.
 */
import { badRequest, notFound } from '../errors.js';
import { listScope, pageBody, readListQuery } from '../pagination.js';
import {
  G,
  noContent,
  ok,
  T,
  type ApiResponse,
  type RequestContext,
  type RouteModule,
  type Router,
} from '../router.js';
import { deletePlan, subscriptionTables, type CallingPlanRow, type PrefixRow } from '../store/subscription-tables.js';
import { optionalString, requiredString } from '../validate.js';
import type { AnswerForms } from '../variants.js';
import { intParam, optionalBool, optionalInt, visibleSubscription } from './subscription-scope.js';
import { visibleGroup } from './groups.js';

type PlanType = CallingPlanRow['type'];
interface PlanScope {
  scope: string;
  subscriptionId?: number;
}
interface ListSpec {
  base: string;
  roles: Record<'list' | 'create' | 'update' | 'delete' | 'pList' | 'pCreate' | 'pUpdate' | 'pDelete', string>;
  scopeOf: (ctx: RequestContext) => PlanScope;
  type?: PlanType;
  /** The plan delete says "missing counts as success" (only the group block list, §4.9). */
  missingDeleteSucceeds?: boolean;
}

const SEARCHABLE = ['name', 'country', 'isoCode', 'countryCode', 'classification'] as const;
const TG = `${T}/trunkgroups/:trunkgroup_id`;
const TG_ROLE = 'tenants.instance.subscriptions.instance.trunk_group.instance';

export const registerCallingPlanRoutes: RouteModule = (router) => {
  register(router, {
    base: `${G}/block_list`,
    roles: {
      list: 'groups.instance.block_list.instance.list',
      create: 'groups.instance.block_list.create',
      update: 'groups.instance.block_list.instance.update',
      delete: 'groups.instance.block_list.instance.delete',
      pList: 'groups.instance.block_list.instance.prefixes.list',
      pCreate: 'groups.instance.block_list.instance.prefixes.create',
      pUpdate: 'groups.instance.block_list.instance.prefixes.instance.update',
      pDelete: 'groups.instance.block_list.instance.prefixes.instance.delete',
    },
    scopeOf: (ctx) => ({ scope: `group:${visibleGroup(ctx).uuid}` }),
    missingDeleteSucceeds: true,
  });
  for (const type of ['block_list', 'allow_list'] as const) {
    const r = `${TG_ROLE}.${type}`;
    register(router, {
      base: `${TG}/${type}`,
      type,
      roles: {
        list: type === 'block_list' ? `${r}.instance.read` : `${r}.list`,
        create: `${r}.create`,
        update: `${r}.instance.update`,
        delete: `${r}.instance.delete`,
        pList: `${r}.instance.prefixes.list`,
        pCreate: `${r}.instance.prefixes.create`,
        pUpdate: `${r}.instance.prefixes.instance.update`,
        pDelete: `${r}.instance.prefixes.instance.delete`,
      },
      scopeOf: (ctx) => trunkGroupScope(ctx, type),
    });
  }
};

function trunkGroupScope(ctx: RequestContext, type: PlanType): PlanScope {
  const { sub } = visibleSubscription(ctx);
  const tg = intParam(ctx, 'trunkgroup_id');
  if (!sub.trunkGroups.includes(tg))
    throw notFound(
      `trunk group ${tg} not found in subscription ${sub.id} (it has ${sub.trunkGroups.join(', ') || 'none'})`,
    );
  return { scope: `tg:${sub.id}:${tg}:${type}`, subscriptionId: sub.id };
}

function register(router: Router, spec: ListSpec): void {
  const { base, roles } = spec;
  router.add({ method: 'GET', path: base, role: roles.list, handler: (ctx) => listPlans(ctx, spec) });
  router.add({ method: 'POST', path: base, role: roles.create, handler: (ctx) => createPlan(ctx, spec) });
  router.add({
    method: 'PUT',
    path: `${base}/:id`,
    role: roles.update,
    handler: (ctx) => {
      const plan = planOf(ctx, spec);
      const name = requiredString(ctx.body, 'name');
      subscriptionTables(ctx.store).callingPlans.update(plan.id, { name });
      return ok({ id: plan.id });
    },
  });
  router.add({
    method: 'DELETE',
    path: `${base}/:id`,
    role: roles.delete,
    handler: (ctx) => {
      const plan = planOf(ctx, spec, spec.missingDeleteSucceeds === true);
      if (plan) deletePlan(subscriptionTables(ctx.store), plan.id);
      return noContent();
    },
  });
  router.add({
    method: 'GET',
    path: `${base}/:id/prefixes`,
    role: roles.pList,
    handler: (ctx) => {
      const plan = planOf(ctx, spec);
      const rows = subscriptionTables(ctx.store).prefixes.sorted(
        { kind: 'parent', key: String(plan.id) },
        { field: 'prefix', dir: 'asc' },
      );
      if (rows.length === 0) throw notFound(`calling plan ${plan.id} has no prefixes`);
      return ok({ prefixes: rows.map((p) => prefixView(p, ctx.forms)) });
    },
  });
  router.add({
    method: 'POST',
    path: `${base}/:id/prefixes`,
    role: roles.pCreate,
    handler: (ctx) => createPrefix(ctx, planOf(ctx, spec)),
  });
  router.add({
    method: 'PUT',
    path: `${base}/:id/prefixes/:pid`,
    role: roles.pUpdate,
    handler: (ctx) => updatePrefix(ctx, planOf(ctx, spec)),
  });
  router.add({
    method: 'DELETE',
    path: `${base}/:id/prefixes/:pid`,
    role: roles.pDelete,
    handler: (ctx) => {
      const plan = planOf(ctx, spec);
      const pid = intParam(ctx, 'pid');
      const row = subscriptionTables(ctx.store).prefixes.get(pid);
      if (!row || row.planId !== plan.id) throw notFound(`prefix ${pid} of calling plan ${plan.id} not found`);
      subscriptionTables(ctx.store).prefixes.delete(pid);
      return noContent();
    },
  });
}

function planOf(ctx: RequestContext, spec: ListSpec): CallingPlanRow;
function planOf(ctx: RequestContext, spec: ListSpec, optional: boolean): CallingPlanRow | undefined;
function planOf(ctx: RequestContext, spec: ListSpec, optional = false): CallingPlanRow | undefined {
  const { scope } = spec.scopeOf(ctx);
  const id = intParam(ctx, 'id');
  const row = subscriptionTables(ctx.store).callingPlans.get(id);
  if (row && row.scope === scope) return row;
  if (optional) return undefined;
  throw notFound(`calling plan ${id} not found in this list`);
}

function listPlans(ctx: RequestContext, spec: ListSpec): ApiResponse {
  const { scope } = spec.scopeOf(ctx);
  const table = subscriptionTables(ctx.store).callingPlans;
  if (table.countChildren(scope) === 0) throw notFound('no calling plan in this list');
  const q = readListQuery(ctx.query, { searchable: SEARCHABLE, defaultSort: 'id' });
  return ok(
    pageBody(
      listScope(table, { kind: 'parent', key: scope }, q, 'token', SEARCHABLE),
      'callingPlans',
      planView,
      ctx.forms,
    ),
  );
}

function createPlan(ctx: RequestContext, spec: ListSpec): ApiResponse {
  const { store, body } = ctx;
  const where = spec.scopeOf(ctx);
  const given = optionalString(body, 'type');
  if (given !== undefined && given !== 'block_list' && given !== 'allow_list')
    throw badRequest('bad_field', 'type must be block_list or allow_list');
  if (spec.type && given !== undefined && given !== spec.type)
    throw badRequest('bad_field', `this list holds ${spec.type} plans only`);
  const isoCode = optionalString(body, 'isoCode')?.toUpperCase() ?? '';
  const country = optionalString(body, 'country') ?? (isoCode ? (store.countries.get(isoCode)?.name ?? '') : '');
  const countryCode =
    optionalString(body, 'countryCode') ??
    store.countryCodes.rows().find((c) => country && c.name === country)?.code ??
    '';
  const row: CallingPlanRow = {
    id: store.nextId('callingPlans'),
    scope: where.scope,
    ...(where.subscriptionId === undefined ? {} : { subscriptionId: where.subscriptionId }),
    name: optionalString(body, 'name') ?? '',
    type: spec.type ?? (given as PlanType | undefined) ?? 'block_list',
    country,
    countryCode,
    isoCode,
    region: optionalString(body, 'region') ?? '',
    classification: optionalString(body, 'classification') ?? '',
    risk: optionalInt(body, 'risk') ?? 0,
  };
  subscriptionTables(store).callingPlans.insert(row);
  return ok(planView(row));
}

function planView(p: CallingPlanRow): Record<string, unknown> {
  const { scope: _s, subscriptionId: _sub, ...rest } = p;
  return rest;
}

/** Document 2 §2.11: `isExact` is a boolean, "typed string in the field table". */
function prefixView(p: PrefixRow, forms: AnswerForms): Record<string, unknown> {
  return {
    id: p.id,
    prefix: p.prefix,
    name: p.name,
    isExact: forms.form('isExact') === 'string' ? String(p.isExact) : p.isExact,
  };
}

function readPrefix(body: Record<string, unknown>, required: boolean): string | undefined {
  const v = required ? requiredString(body, 'prefix') : optionalString(body, 'prefix');
  if (v !== undefined && !/^\+?\d+$/.test(v))
    throw badRequest('bad_field', 'prefix must be digits, optionally after a leading +');
  return v;
}

function assertPrefixFree(ctx: RequestContext, planId: number, prefix: string, self?: number): void {
  const clash = subscriptionTables(ctx.store)
    .prefixes.children(String(planId))
    .find((p) => p.prefix === prefix && p.id !== self);
  if (clash)
    throw badRequest('duplicate_prefix', `prefix ${prefix} is already in calling plan ${planId} (id ${clash.id})`);
}

function createPrefix(ctx: RequestContext, plan: CallingPlanRow): ApiResponse {
  const prefix = readPrefix(ctx.body, true) as string;
  assertPrefixFree(ctx, plan.id, prefix);
  const row = subscriptionTables(ctx.store).prefixes.insert({
    id: ctx.store.nextId('callingPlanPrefixes'),
    planId: plan.id,
    prefix,
    name: optionalString(ctx.body, 'name') ?? '',
    isExact: optionalBool(ctx.body, 'isExact') ?? false,
  });
  return ok({ id: row.id });
}

function updatePrefix(ctx: RequestContext, plan: CallingPlanRow): ApiResponse {
  const pid = intParam(ctx, 'pid');
  const row = subscriptionTables(ctx.store).prefixes.get(pid);
  if (!row || row.planId !== plan.id) throw notFound(`prefix ${pid} of calling plan ${plan.id} not found`);
  const prefix = readPrefix(ctx.body, false);
  if (prefix !== undefined) assertPrefixFree(ctx, plan.id, prefix, pid);
  const name = optionalString(ctx.body, 'name');
  const isExact = optionalBool(ctx.body, 'isExact');
  subscriptionTables(ctx.store).prefixes.update(pid, {
    ...(prefix !== undefined ? { prefix } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(isExact !== undefined ? { isExact } : {}),
  });
  return ok({ id: pid });
}
