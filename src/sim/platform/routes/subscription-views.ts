/**
 * Views of a subscription (Document 2 §2.1) and what is linked to it. The stored
 * `suspensionProfileId` is the suspension profile's integer id; the read serves that
 * profile's `barringProfileId` string under the same name (the quirk of the spec README).
 */
import type { PlatformStore } from '../store/store.js';
import { subscriptionTables } from '../store/subscription-tables.js';
import type { Region, SubscriptionRow } from '../store/types.js';

export function subscriptionView(store: PlatformStore, sub: SubscriptionRow): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: sub.id,
    name: sub.name,
    billingId: sub.billingId,
    licenses: { ...sub.licenses },
    uc: sub.uc,
  };
  const sp = sub.suspensionProfileId === null ? undefined : store.suspensionProfiles.get(sub.suspensionProfileId);
  if (sp) view['suspensionProfileId'] = sp.barringProfileId;
  return view;
}

/** Detail view; `detailed` adds `isDeletable` and `assignedEntities`. */
export function subscriptionDetailView(
  store: PlatformStore,
  sub: SubscriptionRow,
  detailed: boolean,
): Record<string, unknown> {
  const numbers = store.numbers.children(String(sub.id));
  const users = new Set<number>();
  let free = 0;
  let toUsers = 0;
  let toTrunks = 0;
  let toCarrier = 0;
  for (const n of numbers) {
    const a = n.assignedTo;
    if (!a) free++;
    else if (a.type === 'sip_trunk') toTrunks++;
    else if (a.subType === 'carrier_connect') toCarrier++;
    else {
      toUsers++;
      if (a.subType !== 'resource_account') users.add(a.to);
    }
  }
  const phoneNumbers: Record<string, number> = { total: numbers.length };
  for (const [k, v] of [
    ['free', free],
    ['linkedToUsers', toUsers],
    ['linkedToTrunkgroups', toTrunks],
    ['linkedToCarrierConnect', toCarrier],
  ] as const) {
    if (v > 0) phoneNumbers[k] = v;
  }
  const view: Record<string, unknown> = {
    ...subscriptionView(store, sub),
    numberOfUsers: users.size,
    numberOfTrunkgroups: sub.trunkGroups.length,
    phoneNumbers,
  };
  if (detailed) {
    const blocking = assignedEntities(store, sub);
    view['isDeletable'] = blocking.length === 0;
    view['assignedEntities'] = blocking;
  }
  return view;
}

/**
 * What blocks a delete (Document 2 §2.1 `assignedEntities` values): numbers held by the
 * subscription (`Phone numbers`), numbers linked to uc_alpha users (`MS Users`), trunk
 * groups (`Trunkgroups`) and user templates other than the default one (`Templates`).
 * `MS Admin`, `MS Tenant` and `Anywhere` never occur: nothing in the API creates them.
 */
export function assignedEntities(store: PlatformStore, sub: SubscriptionRow): string[] {
  const out: string[] = [];
  const numbers = store.numbers.children(String(sub.id));
  if (numbers.some((n) => n.assignedTo?.type === 'uc_alpha' && n.assignedTo.subType !== 'carrier_connect'))
    out.push('MS Users');
  if (sub.trunkGroups.length > 0) out.push('Trunkgroups');
  if (numbers.length > 0) out.push('Phone numbers');
  if (subscriptionTables(store).templates.countChildren(String(sub.id)) > 0) out.push('Templates');
  return out;
}

/**
 * The regions of a subscription (`GET T/regions`, response not shown): the distinct
 * regions of its locations' postal codes, as Document 1 §2.9 region objects. The group's
 * region of the same country and name lends its id and timestamps.
 */
export function subscriptionRegions(store: PlatformStore, sub: SubscriptionRow, groupRegions: Region[]): Region[] {
  const out = new Map<string, Region>();
  for (const loc of subscriptionTables(store).locations.children(String(sub.id))) {
    const pc = store.postalCodes.get(loc.postalCodeId);
    if (!pc || !pc.region.name) continue;
    const key = `${pc.country.isoCode}\u0000${pc.region.name}`;
    if (out.has(key)) continue;
    const known = groupRegions.find((r) => r.isoCode === pc.country.isoCode && r.name === pc.region.name);
    const now = store.clock.isoNow();
    out.set(
      key,
      known
        ? { ...known }
        : { id: pc.region.id, isoCode: pc.country.isoCode, name: pc.region.name, createdOn: now, updatedOn: now },
    );
  }
  return [...out.values()].sort((a, b) => a.id - b.id || a.name.localeCompare(b.name));
}
