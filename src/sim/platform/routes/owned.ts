/**
 * What resellers and tenants share (Document 1 §2.4–2.6, §4.3–4.4): the list with its
 * `parent` rules, create with owner defaults, update with an immutable owner, delete, and
 * the row/detail views. List rows serve `markup` as a string (design decision: §2.6 says it
 * is "sometimes a string"; clients must accept both), detail `markups[].markup` as numbers;
 * variant mode draws either form for each (./variants.ts).
 */
import { recordEvent } from '../events.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { activeMarkup, isOwnerType, placeUnder, sortMarkups } from '../org.js';
import { listScope, pageBody, readListQuery } from '../pagination.js';
import { ok, type ApiResponse, type RequestContext } from '../router.js';
import { billingKey, type OrgNode, type PlatformStore } from '../store/store.js';
import type { IndexedTable, Scope } from '../store/table.js';
import type { OwnedRow, OwnerRef, ResellerRow, TenantRow } from '../store/types.js';
import { optionalNumber, optionalString, requiredEmail, requiredString } from '../validate.js';
import { DEFAULT_FORMS, numberIn, type AnswerForms } from '../variants.js';
import { actorOf, assertVisible, canSee, isSystem, ownNode } from '../visibility.js';
import { assertEmailFree, createAdministrator } from './admins.js';

export type OwnedKind = 'reseller' | 'tenant';
const OWNED_SEARCHABLE = ['uuid', 'name', 'billingId'] as const;

function tableOf(store: PlatformStore, kind: OwnedKind) {
  return kind === 'reseller' ? store.resellers : store.tenants;
}

/** The row of `:uuid`: 404 when absent, 403 when out of scope. */
export function visibleOwned<K extends OwnedKind>(
  ctx: RequestContext,
  kind: K,
): K extends 'reseller' ? ResellerRow : TenantRow {
  const uuid = ctx.params['uuid'] as string;
  const node = ctx.store.node(uuid);
  if (!node || node.type !== kind) throw notFound(`${kind} ${uuid} not found`);
  assertVisible(ctx, node);
  return node.row as K extends 'reseller' ? ResellerRow : TenantRow;
}

/**
 * `GET P/resellers|tenants` (token style). `parent` is required for system administrators
 * only (Document 1 §4.3, §4.4); without it the list holds what is under the caller's
 * control: a group's or distributor's subtree, a reseller's direct customers (its
 * resellers, Document 1 §4.3: "only resellers directly linked to it"), a tenant
 * administrator's own tenant. Resellers are listed for system, group, distributor and
 * reseller administrators (§4.3's heading and its reseller sentence): a tenant
 * administrator is 403.
 */
export function listOwned(ctx: RequestContext, kind: OwnedKind): ApiResponse {
  const q = readListQuery(ctx.query, { searchable: OWNED_SEARCHABLE, defaultSort: 'name', filters: ['parent'] });
  const actor = actorOf(ctx.user);
  if (kind === 'reseller' && actor.level === 'tenant') {
    throw forbidden('resellers are listed by system, group, distributor and reseller administrators (Document 1 §4.3)');
  }
  const parentUuid = q.filters['parent'];
  if (!parentUuid && isSystem(ctx)) {
    throw badRequest(
      'missing_parent',
      'parent (a group, distributor or reseller uuid) is required for system administrators',
    );
  }
  const table = tableOf(ctx.store, kind) as unknown as IndexedTable<OwnedRow>;
  const keep =
    actor.level === 'reseller' || actor.level === 'tenant'
      ? (row: OwnedRow) => canSee(actor, nodeOf(kind, row))
      : undefined;
  let scope: Scope;
  if (parentUuid) {
    const parent = ctx.store.node(parentUuid);
    if (!parent) throw notFound(`parent ${parentUuid} not found`);
    if (parent.type === 'tenant') throw badRequest('bad_parent', 'parent must be a group, distributor or reseller');
    assertVisible(ctx, parent);
    scope = { kind: 'ancestor', key: parentUuid };
  } else {
    // A tenant administrator's tenant is not below its own node: it is the node.
    scope = actor.level === 'tenant' ? { kind: 'all' } : { kind: 'ancestor', key: actor.reference };
  }
  const page = listScope(table, scope, q, 'token', OWNED_SEARCHABLE, keep);
  return ok(pageBody(page, `${kind}s`, (row) => ownedRowView(ctx.store, kind, row, ctx.forms), ctx.forms));
}

function nodeOf(kind: OwnedKind, row: OwnedRow): OrgNode {
  return kind === 'reseller' ? { type: 'reseller', row: row as ResellerRow } : { type: 'tenant', row };
}

export function createOwned(ctx: RequestContext, kind: OwnedKind): ApiResponse {
  const { store, body } = ctx;
  const name = requiredString(body, 'name');
  const owner = ownerFor(ctx, kind);
  const place = placeUnder(store, owner) as { ancestors: string[]; groupUuid: string };
  const billingId = optionalString(body, 'billingId');
  assertBillingFree(store, place.groupUuid, billingId);
  const markup = optionalNumber(body, 'markup');
  const adminEmail = optionalString(body, 'adminEmail');
  // Checked whole before anything is stored: a 400 leaves nothing made (Doc 1 §7).
  if (adminEmail) {
    requiredEmail(body, 'adminEmail');
    assertEmailFree(store, adminEmail);
  }
  const now = store.clock.isoNow();
  const row: OwnedRow = {
    uuid: store.newUuid(),
    name,
    ...(billingId ? { billingId } : {}),
    owner,
    ...place,
    markups: markup === undefined ? [] : [{ markup, startDate: now }],
    regions: [],
    createdOn: now,
  };
  if (kind === 'reseller') store.resellers.insert({ ...row, suspensionProfileId: null });
  else store.tenants.insert(row);
  if (adminEmail) createAdministrator(store, kind, row.uuid, body);
  recordEvent(
    store,
    kind,
    'create',
    row.uuid,
    ownedDetailView(store, kind, tableOf(store, kind).get(row.uuid) as OwnedRow),
  );
  return ok({ uuid: row.uuid });
}

/** The owner of a new object: given (required for system administrators) or the creator's level. */
function ownerFor(ctx: RequestContext, kind: OwnedKind): OwnerRef {
  const raw = ctx.body['owner'];
  if (raw === undefined || raw === null) {
    if (isSystem(ctx)) throw badRequest('missing_owner', 'owner ({type, uuid}) is required for system administrators');
    const own = ownNode(ctx.store, actorOf(ctx.user));
    if (!own || own.type === 'tenant') throw forbidden(`a ${own?.type ?? 'caller'} administrator cannot own a ${kind}`);
    return { type: own.type, uuid: own.row.uuid };
  }
  const o = raw as { type?: unknown; uuid?: unknown };
  if (typeof raw !== 'object' || !isOwnerType(o.type) || typeof o.uuid !== 'string') {
    throw badRequest('bad_owner', 'owner must be {type: group|distributor|reseller, uuid}');
  }
  const node = ctx.store.node(o.uuid);
  if (!node || node.type !== o.type) throw badRequest('unknown_owner', `${o.type} ${o.uuid} not found`);
  assertVisible(ctx, node);
  return { type: o.type, uuid: o.uuid };
}

function assertBillingFree(
  store: PlatformStore,
  groupUuid: string,
  billingId: string | undefined,
  self?: string,
): void {
  const key = billingKey(groupUuid, billingId);
  if (!key) return;
  const taken = [...store.resellers.findBy('billing', key), ...store.tenants.findBy('billing', key)].some(
    (r) => r.uuid !== self,
  );
  if (taken) throw badRequest('duplicate_billing_id', `billingId ${billingId} is already used in this group`);
}

export function updateOwned(ctx: RequestContext, kind: OwnedKind): ApiResponse {
  const { store, body } = ctx;
  const row = visibleOwned(ctx, kind) as OwnedRow;
  const owner = body['owner'] as { type?: unknown; uuid?: unknown } | undefined | null;
  if (
    owner !== undefined &&
    owner !== null &&
    (owner.uuid !== row.owner.uuid || (owner.type !== undefined && owner.type !== row.owner.type))
  ) {
    throw badRequest(
      'owner_immutable',
      `the owner of a ${kind} cannot be changed through the API: delete and re-create it`,
    );
  }
  const name = optionalString(body, 'name');
  const billingId = optionalString(body, 'billingId');
  const markup = optionalNumber(body, 'markup');
  if (actorOf(ctx.user).level === 'tenant' && (billingId !== undefined || markup !== undefined)) {
    throw forbidden('billingId and markup are billable: tenant administrators may not change them');
  }
  if (billingId !== undefined && billingId !== row.billingId)
    assertBillingFree(store, row.groupUuid, billingId, row.uuid);
  const changes: Partial<OwnedRow> = {};
  if (name !== undefined) changes.name = name;
  if (billingId !== undefined) changes.billingId = billingId;
  if (markup !== undefined && activeMarkup(row.markups, store.clock.isoNow())?.markup !== markup) {
    const now = store.clock.isoNow();
    changes.markups = sortMarkups([...row.markups.filter((m) => m.startDate !== now), { markup, startDate: now }]);
  }
  tableOf(store, kind).update(row.uuid, changes);
  recordEvent(store, kind, 'update', row.uuid, ownedDetailView(store, kind, row));
  return ok({ uuid: row.uuid });
}

/** Deletes (missing counts as success); `blockers` says what must be gone first. */
export function deleteOwned(
  ctx: RequestContext,
  kind: OwnedKind,
  blockers: (row: OwnedRow) => string | undefined,
  cascade: (row: OwnedRow) => void,
): ApiResponse {
  const uuid = ctx.params['uuid'] as string;
  const node = ctx.store.node(uuid);
  if (!node || node.type !== kind) return ok({ uuid });
  assertVisible(ctx, node);
  const row = node.row as OwnedRow;
  if (actorOf(ctx.user).level === 'tenant')
    throw forbidden(`deleting a ${kind} is a billable change, which tenant administrators may not make`);
  const blocked = blockers(row);
  if (blocked) throw badRequest('has_children', `${kind} ${row.name} still has ${blocked}: delete them first`);
  const before = ownedDetailView(ctx.store, kind, row);
  cascade(row);
  for (const admin of ctx.store.users.rows().filter((u) => u.adminOf.reference === uuid))
    ctx.store.users.delete(admin.id);
  tableOf(ctx.store, kind).delete(uuid);
  recordEvent(ctx.store, kind, 'delete', uuid, before);
  return ok({ uuid });
}

function ownedRowView(
  store: PlatformStore,
  kind: OwnedKind,
  row: OwnedRow,
  forms: AnswerForms,
): Record<string, unknown> {
  const markup = activeMarkup(row.markups, store.clock.isoNow());
  const view: Record<string, unknown> = {
    uuid: row.uuid,
    name: row.name,
    billingId: row.billingId ?? '',
    owner: store.ownerView(row.owner.type, row.owner.uuid),
    ...(markup ? { markup: numberIn(forms, 'markup', markup.markup) } : {}),
  };
  if (kind === 'reseller' && (row as ResellerRow).status) view['status'] = (row as ResellerRow).status;
  return view;
}

/** The detail (Document 1 §2.4, §2.5); events carry it in its default forms. */
export function ownedDetailView(
  store: PlatformStore,
  kind: OwnedKind,
  row: OwnedRow,
  forms: AnswerForms = DEFAULT_FORMS,
): Record<string, unknown> {
  const view: Record<string, unknown> = {
    uuid: row.uuid,
    name: row.name,
    billingId: row.billingId ?? '',
    owner: store.ownerView(row.owner.type, row.owner.uuid),
    markups: sortMarkups(row.markups).map((m) => ({ ...m, markup: numberIn(forms, 'markupEntry', m.markup) })),
  };
  if (kind === 'tenant') view['numberOfSubscriptions'] = store.subscriptions.countChildren(row.uuid);
  else {
    const r = row as ResellerRow;
    view['nbOfTenants'] = store.tenants.countDescendants(r.uuid);
    if (r.status) view['status'] = r.status;
    const sp = r.suspensionProfileId === null ? undefined : store.suspensionProfiles.get(r.suspensionProfileId);
    if (sp) view['suspensionProfileId'] = sp.barringProfileId;
  }
  return view;
}
