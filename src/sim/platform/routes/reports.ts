/**
 * Licenses and reports of a group (Document 2 §2.2, §2.14, §4.2): the licenses map (and,
 * with `detailed=true`, the consumption per distributor, reseller, tenant and subscription),
 * phone and product usage rows, and the licenses and entitlements downloads.
 *
 * Design decisions ("not shown" or unclear in the spec):
 * - License keys served: `ucAlphaUsers` (the subscriptions' `licenses.ucAlphaUsers`, with
 *   `inUse`/`inUseUcAlphaUsers` = distinct users holding a number, `inUseUcAlphaResourceAccount`
 *   = resource accounts) and `sipTrunkChannelNational` (their `sipTrunkChannels`);
 *   `sipTrunkChannelInternational` is served with 0 (nothing in the API sets it).
 * - A tenant owned by a reseller under a distributor is counted in the distributor's and the
 *   reseller's totals, and listed under the reseller (or under the group/distributor when it
 *   owns the tenant directly).
 * - Product usage: one row per subscription and license (sku = the license name, quantity =
 *   licensed, used = in use where known).
 * - Downloads: `csv` answers an attachment; `json` answers `fileBody` (base64 of a JSON array
 *   with one object per CSV row, keyed by the CSV header) and `fileName`; `xlsx` is 400 `unsupported_format` (the simulator writes no spreadsheets).
 *   The entitlements CSV columns are `tenant,subscription,name,countryCode,numberType,entitlement,assigned`.
 */
import { badRequest } from '../errors.js';
import { ok, G, type ApiResponse, type RequestContext, type RouteModule } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import type { SubscriptionRow, TenantRow } from '../store/types.js';
import { optionalString, queryFlag, requiredString } from '../validate.js';
import { assignedCount } from './entitlements.js';
import { visibleGroup } from './groups.js';

interface License {
  assigned: number;
  name: string;
  description: string;
  service: string | null;
  inUse?: number;
  inUseUcAlphaResourceAccount?: number;
  inUseUcAlphaUsers?: number;
}
type Licenses = Record<string, License>;

export const registerReportRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: `${G}/licenses`,
    role: 'groups.instance.licenses.list',
    handler: (ctx) => {
      const group = visibleGroup(ctx);
      const subs = ctx.store.subscriptions.descendants(group.uuid);
      return ok({
        licenses: licensesOf(ctx.store, subs),
        ...(queryFlag(ctx.query, 'detailed') ? { group: groupDetail(ctx.store, group.uuid) } : {}),
      });
    },
  });
  router.add({
    method: 'GET',
    path: `${G}/sdrs/phone_usage`,
    role: 'groups.instance.sdrs.phone_usage',
    handler: (ctx) => ok({ phoneUsages: phoneUsage(ctx) }),
  });
  router.add({
    method: 'GET',
    path: `${G}/sdrs/product_usage`,
    role: 'groups.instance.sdrs.product_usage',
    handler: (ctx) => ok({ productUsages: productUsage(ctx) }),
  });
  router.add({
    method: 'POST',
    path: `${G}/downloads/report`,
    role: 'groups.instance.downloads.report',
    handler: (ctx) => {
      const group = visibleGroup(ctx);
      const rows = subscriptionsWithNames(ctx.store, group.uuid).map(({ sub, tenant }) => {
        const l = licensesOf(ctx.store, [sub]);
        return [
          `${tenant.name}/${sub.name}`,
          ...LICENSE_KEYS.map((k) => String(l[k]?.assigned ?? 0)),
          String(l['ucAlphaUsers']?.assigned ?? 0),
          String(l['ucAlphaUsers']?.inUse ?? 0),
        ];
      });
      const header = [
        'name',
        ...LICENSE_KEYS.map((k) => `${k}_assigned`),
        'ucAlphaUsers_assigned',
        'ucAlphaUsers_used',
      ];
      return download(ctx, `licenses_group_${group.uuid}`, [header, ...rows]);
    },
  });
  router.add({
    method: 'POST',
    path: `${G}/downloads/entitlements`,
    role: 'groups.instance.downloads.entitlements',
    handler: (ctx) => {
      const group = visibleGroup(ctx);
      const rows: string[][] = [
        ['tenant', 'subscription', 'name', 'countryCode', 'numberType', 'entitlement', 'assigned'],
      ];
      for (const { sub, tenant } of subscriptionsWithNames(ctx.store, group.uuid)) {
        for (const e of ctx.store.entitlements.children(String(sub.id))) {
          const t = ctx.store.entitlementTypes.get(e.licenseModelId);
          rows.push([
            tenant.name,
            sub.name,
            t?.name ?? '',
            t?.countryCode ?? '',
            t?.numberType ?? '',
            String(e.entitlement),
            String(assignedCount(ctx.store, e)),
          ]);
        }
      }
      return download(ctx, `entitlements_group_${group.uuid}`, rows);
    },
  });
};

/** License keys other than the users license, in CSV column order. */
const LICENSE_KEYS = ['sipTrunkChannelNational', 'sipTrunkChannelInternational'];

function licensesOf(store: PlatformStore, subs: SubscriptionRow[]): Licenses {
  let users = 0;
  let channels = 0;
  let inUseUsers = 0;
  let inUseResources = 0;
  for (const s of subs) {
    users += s.licenses.ucAlphaUsers;
    channels += s.licenses.sipTrunkChannels;
    const holders = new Set<number>();
    const resources = new Set<number>();
    for (const n of store.numbers.children(String(s.id))) {
      if (n.assignedTo?.type !== 'uc_alpha') continue;
      if (n.assignedTo.subType === 'resource_account') resources.add(n.assignedTo.to);
      else if (n.assignedTo.subType !== 'carrier_connect') holders.add(n.assignedTo.to);
    }
    inUseUsers += holders.size;
    inUseResources += resources.size;
  }
  return {
    ucAlphaUsers: {
      assigned: users,
      name: 'ucAlphaUsers',
      description: 'uc_alpha users that may get a number',
      service: 'uc_alpha',
      inUse: inUseUsers + inUseResources,
      inUseUcAlphaResourceAccount: inUseResources,
      inUseUcAlphaUsers: inUseUsers,
    },
    sipTrunkChannelNational: {
      assigned: channels,
      name: 'sipTrunkChannelNational',
      description: 'SIP trunk channels',
      service: 'sip_trunk',
    },
    sipTrunkChannelInternational: {
      assigned: 0,
      name: 'sipTrunkChannelInternational',
      description: 'International SIP trunk channels',
      service: 'sip_trunk',
    },
  };
}

function tenantDetail(store: PlatformStore, t: TenantRow): Record<string, unknown> {
  const subs = store.subscriptions.children(t.uuid).sort((a, b) => a.id - b.id);
  return {
    uuid: t.uuid,
    name: t.name,
    licenses: licensesOf(store, subs),
    subscriptions: subs.map((s) => ({ id: s.id, name: s.name, licenses: licensesOf(store, [s]) })),
  };
}

function tenantsOwnedBy(store: PlatformStore, uuid: string): Record<string, unknown>[] {
  return store.tenants
    .children(uuid)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t) => tenantDetail(store, t));
}

function resellerDetail(store: PlatformStore, uuid: string, name: string): Record<string, unknown> {
  return {
    uuid,
    name,
    licenses: licensesOf(store, store.subscriptions.descendants(uuid)),
    tenants: tenantsOwnedBy(store, uuid),
  };
}

function resellersOwnedBy(store: PlatformStore, uuid: string): Record<string, unknown>[] {
  return store.resellers
    .children(uuid)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((r) => resellerDetail(store, r.uuid, r.name));
}

function groupDetail(store: PlatformStore, groupUuid: string): Record<string, unknown> {
  const distributors = store.distributors
    .children(groupUuid)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((d) => ({
      uuid: d.uuid,
      name: d.name,
      licenses: licensesOf(store, store.subscriptions.descendants(d.uuid)),
      resellers: resellersOwnedBy(store, d.uuid),
      tenants: tenantsOwnedBy(store, d.uuid),
    }));
  return {
    licenses: licensesOf(store, store.subscriptions.descendants(groupUuid)),
    distributors,
    resellers: resellersOwnedBy(store, groupUuid),
    tenants: tenantsOwnedBy(store, groupUuid),
  };
}

function subscriptionsWithNames(
  store: PlatformStore,
  groupUuid: string,
): { sub: SubscriptionRow; tenant: TenantRow }[] {
  return store.subscriptions
    .descendants(groupUuid)
    .sort((a, b) => a.id - b.id)
    .flatMap((sub) => {
      const tenant = store.tenants.get(sub.tenantUuid);
      return tenant ? [{ sub, tenant }] : [];
    });
}

/** The organization names of a subscription's row (Document 2 §2.14). */
function orgNames(store: PlatformStore, sub: SubscriptionRow, tenant: TenantRow): Record<string, string> {
  const names = { distributor: '', group: '', reseller: '', subscription: sub.name, tenant: tenant.name };
  for (const uuid of tenant.ancestors) {
    const node = store.node(uuid);
    if (!node) continue;
    if (node.type === 'reseller' && !names.reseller) names.reseller = node.row.name;
    if (node.type === 'distributor') names.distributor = node.row.name;
    if (node.type === 'group') names.group = node.row.name;
  }
  return names;
}

function phoneUsage(ctx: RequestContext): Record<string, unknown>[] {
  const group = visibleGroup(ctx);
  return subscriptionsWithNames(ctx.store, group.uuid).flatMap(({ sub, tenant }) => {
    const names = orgNames(ctx.store, sub, tenant);
    return ctx.store.numbers
      .children(String(sub.id))
      .filter((n) => n.assignedTo?.type === 'uc_alpha')
      .sort((a, b) => (a.fullNumber < b.fullNumber ? -1 : 1))
      .map((n) => ({
        ...names,
        phoneNumber: n.fullNumber,
        username: n.assignedTo?.ref ?? String(n.assignedTo?.to ?? ''),
      }));
  });
}

function productUsage(ctx: RequestContext): Record<string, unknown>[] {
  const group = visibleGroup(ctx);
  return subscriptionsWithNames(ctx.store, group.uuid).flatMap(({ sub, tenant }) => {
    const names = orgNames(ctx.store, sub, tenant);
    const l = licensesOf(ctx.store, [sub]);
    return [
      { ...names, sku: 'ucAlphaUsers', quantity: sub.licenses.ucAlphaUsers, used: l['ucAlphaUsers']?.inUse ?? 0 },
      { ...names, sku: 'sipTrunkChannels', quantity: sub.licenses.sipTrunkChannels },
    ];
  });
}

function csvLine(cells: string[]): string {
  return cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');
}

function download(ctx: RequestContext, base: string, rows: string[][]): ApiResponse {
  const format = requiredString(ctx.body, 'format');
  if (format === 'xlsx')
    throw badRequest('unsupported_format', 'the simulator does not write xlsx files: ask for csv or json');
  if (format !== 'csv' && format !== 'json') throw badRequest('bad_field', 'format must be csv, json or xlsx');
  const stamp = ctx.store.clock.isoNow().replace(/[-:T]/g, '');
  const fileName = optionalString(ctx.body, 'filename') ?? `${base}_${stamp}.${format}`;
  const csv = rows.map(csvLine).join('\r\n') + '\r\n';
  if (format === 'json') {
    const [header = [], ...data] = rows;
    const objects = data.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
    return ok({ fileBody: Buffer.from(JSON.stringify(objects)).toString('base64'), fileName });
  }
  return {
    status: 200,
    text: csv,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${fileName.replace(/"/g, '')}"`,
    },
  };
}
