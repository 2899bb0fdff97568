/**
 * User templates (Document 2 §2.10, §4.8). Create answers 204 with no body (no id: a
 * client finds the new template by its `sku`, unique per subscription). The default
 * template (id 0) always exists and is listed unless the search excludes it.
 *
 * Design decisions: the default template is `{id: 0, sku: "default", name: "Default",
 * location: <first region country of the group, else BE>, vrp: "Global", voiceEnabled: true}`;
 * it cannot be changed or deleted (400 `default_template`), and `default` is a taken sku;
 * `sku` is not updatable (a PUT with another sku is 400 `sku_immutable`); `location` is an
 * upper-case ISO alpha-2 code; templates are available on every subscription, whatever its `uc`.
 */
import { badRequest, notFound } from '../errors.js';
import { matchesSearch } from '../pagination.js';
import { noContent, ok, T, type ApiResponse, type RequestContext, type RouteModule } from '../router.js';
import { subscriptionTables, type TemplateRow } from '../store/subscription-tables.js';
import { optionalString, requiredString } from '../validate.js';
import type { AnswerForms } from '../variants.js';
import {
  intParam,
  optionalBool,
  optionalStringArray,
  visibleSubscription,
  type SubscriptionScope,
} from './subscription-scope.js';

const M = `${T}/uc_alpha/templates`;
const ROLE = 'tenants.instance.subscriptions.instance.uc_alpha.templates';
const SEARCHABLE = ['sku', 'name', 'description'] as const;

export const registerTemplateRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: M,
    role: `${ROLE}.list`,
    handler: (ctx) => {
      const scope = visibleSubscription(ctx);
      const search = ctx.query.get('search') ?? undefined;
      const all = [
        defaultTemplate(scope),
        ...subscriptionTables(ctx.store).templates.sorted(
          { kind: 'parent', key: String(scope.sub.id) },
          { field: 'id', dir: 'asc' },
        ),
      ];
      const id = (t: TemplateRow) => templateId(t.id, ctx.forms);
      return ok({
        templates: all
          .filter((t) => matchesSearch(t, search, SEARCHABLE))
          .map((t) => ({ id: id(t), sku: t.sku, name: t.name, description: t.description })),
      });
    },
  });
  router.add({
    method: 'GET',
    path: `${M}/:template_id`,
    role: `${ROLE}.get`,
    handler: (ctx) => {
      const scope = visibleSubscription(ctx);
      const id = intParam(ctx, 'template_id');
      return ok(templateView(id === 0 ? defaultTemplate(scope) : templateOf(ctx, scope, id), ctx.forms));
    },
  });
  router.add({ method: 'POST', path: M, role: `${ROLE}.create`, handler: createTemplate });
  router.add({ method: 'PUT', path: `${M}/:template_id`, role: `${ROLE}.update`, handler: updateTemplate });
  router.add({
    method: 'DELETE',
    path: `${M}/:template_id`,
    role: `${ROLE}.delete`,
    handler: (ctx) => {
      const { sub } = visibleSubscription(ctx);
      const id = intParam(ctx, 'template_id');
      if (id === 0) throw badRequest('default_template', 'the default template (id 0) cannot be deleted');
      const row = subscriptionTables(ctx.store).templates.get(id);
      if (row && row.subscriptionId === sub.id) subscriptionTables(ctx.store).templates.delete(id);
      return noContent();
    },
  });
};

function defaultTemplate(scope: SubscriptionScope): TemplateRow {
  return {
    id: 0,
    subscriptionId: scope.sub.id,
    sku: 'default',
    name: 'Default',
    description: 'Default user template',
    location: scope.group?.regions[0]?.isoCode ?? 'BE',
    voiceEnabled: true,
    vrp: 'Global',
    groups: [],
    licenses: [],
    customerLicenses: [],
  };
}

function templateOf(ctx: RequestContext, scope: SubscriptionScope, id: number): TemplateRow {
  const row = subscriptionTables(ctx.store).templates.get(id);
  if (!row || row.subscriptionId !== scope.sub.id)
    throw notFound(`template ${id} of subscription ${scope.sub.id} not found`);
  return row;
}

function templateView(t: TemplateRow, forms: AnswerForms): Record<string, unknown> {
  const { subscriptionId: _s, ...rest } = t;
  return {
    ...rest,
    id: templateId(t.id, forms),
    groups: [...t.groups],
    licenses: [...t.licenses],
    customerLicenses: [...t.customerLicenses],
  };
}

/** Document 2 §2.10: a template id is a string or an integer. */
function templateId(id: number, forms: AnswerForms): number | string {
  return forms.form('templateId') === 'string' ? String(id) : id;
}

function readLocation(body: Record<string, unknown>, required: boolean): string | undefined {
  const v = required ? requiredString(body, 'location') : optionalString(body, 'location');
  if (v !== undefined && !/^[A-Z]{2}$/.test(v))
    throw badRequest('bad_field', 'location must be an ISO 3166 alpha-2 country code such as BE');
  return v;
}

function createTemplate(ctx: RequestContext): ApiResponse {
  const { store, body } = ctx;
  const { sub } = visibleSubscription(ctx);
  const sku = requiredString(body, 'sku');
  const row: TemplateRow = {
    id: 0,
    subscriptionId: sub.id,
    sku,
    name: requiredString(body, 'name'),
    description: requiredString(body, 'description'),
    location: readLocation(body, true) as string,
    vrp: requiredString(body, 'vrp'),
    voiceEnabled: optionalBool(body, 'voiceEnabled') ?? true,
    groups: optionalStringArray(body, 'groups') ?? [],
    licenses: optionalStringArray(body, 'licenses') ?? [],
    customerLicenses: optionalStringArray(body, 'customerLicenses') ?? [],
  };
  if (sku === 'default' || subscriptionTables(store).templates.findByName(sku, String(sub.id)).length > 0) {
    throw badRequest('duplicate_sku', `subscription ${sub.id} already has a template with sku ${sku}`);
  }
  subscriptionTables(store).templates.insert({ ...row, id: store.nextId('templates') });
  return noContent();
}

function updateTemplate(ctx: RequestContext): ApiResponse {
  const { body } = ctx;
  const scope = visibleSubscription(ctx);
  const id = intParam(ctx, 'template_id');
  if (id === 0) throw badRequest('default_template', 'the default template (id 0) cannot be changed');
  const row = templateOf(ctx, scope, id);
  const sku = optionalString(body, 'sku');
  if (sku !== undefined && sku !== row.sku)
    throw badRequest('sku_immutable', 'the sku of a template cannot be changed: create a new template');
  const changes: Partial<TemplateRow> = {};
  for (const key of ['name', 'description', 'vrp'] as const) {
    const v = optionalString(body, key);
    if (v !== undefined) changes[key] = v;
  }
  const location = readLocation(body, false);
  if (location !== undefined) changes.location = location;
  const voiceEnabled = optionalBool(body, 'voiceEnabled');
  if (voiceEnabled !== undefined) changes.voiceEnabled = voiceEnabled;
  for (const key of ['groups', 'licenses', 'customerLicenses'] as const) {
    const v = optionalStringArray(body, key);
    if (v !== undefined) changes[key] = v;
  }
  subscriptionTables(ctx.store).templates.update(id, changes);
  return noContent();
}
