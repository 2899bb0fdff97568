/** Loads the Document 2 part of a seeded tenant: subscriptions, entitlements, numbers. */
import { createAddress } from '../routes/addresses.js';
import type { PlatformStore } from '../store/store.js';
import { subscriptionTables } from '../store/subscription-tables.js';
import { countryCodeOf, expandRange, findEntitlementType, SeedError, suspensionProfileId } from './seed-refs.js';
import type { SeedAddress, SeedSubscription } from './types.js';

export function loadSubscriptions(
  store: PlatformStore,
  tenantUuid: string,
  subs: SeedSubscription[],
  where: string,
  now: string,
): void {
  const tenant = store.tenants.get(tenantUuid);
  if (!tenant) return;
  subs.forEach((s, i) => {
    const at = `${where}[${i}]`;
    if (!s.name || !s.billingId) throw new SeedError(at, 'name and billingId are required');
    const id = s.id ?? store.nextId('subscriptions');
    store.reserveId('subscriptions', id);
    store.subscriptions.insert({
      id,
      tenantUuid,
      ancestors: [tenantUuid, ...tenant.ancestors],
      name: s.name,
      billingId: s.billingId,
      uc: s.uc ?? 'uc_alpha',
      licenses: { ucAlphaUsers: s.licenses?.ucAlphaUsers ?? 0, sipTrunkChannels: s.licenses?.sipTrunkChannels ?? 0 },
      suspensionProfileId:
        s.suspensionProfile === undefined
          ? null
          : suspensionProfileId(store, s.suspensionProfile, `${at}.suspensionProfile`),
      trunkGroups: s.trunkGroups ?? [],
      createdOn: now,
    });
    const entitlementByType = new Map<number, number>();
    (s.entitlements ?? []).forEach((e, j) => {
      const typeId = findEntitlementType(store, e.type, `${at}.entitlements[${j}]`);
      const row = store.entitlements.insert({
        id: store.nextId('entitlements'),
        subscriptionId: id,
        licenseModelId: typeId,
        entitlement: e.entitlement,
        ...(e.externalReference ? { externalReference: e.externalReference } : {}),
        assigned: e.assigned ?? 0,
        reserved: e.reserved ?? 0,
        disconnected: e.disconnected ?? 0,
      });
      entitlementByType.set(typeId, row.id);
    });
    const addressIds = loadAddresses(store, id, s.addresses ?? [], `${at}.addresses`);
    (s.locations ?? []).forEach((l, j) => {
      const postalCode = store.postalCodes.rows().find((p) => p.code === l.postalCode);
      if (!postalCode) throw new SeedError(`${at}.locations[${j}].postalCode`, `postal code ${l.postalCode} not found`);
      subscriptionTables(store).locations.insert({
        id: store.nextId('locations'),
        subscriptionId: id,
        street: l.street,
        number: l.number,
        ...(l.postbox ? { postbox: l.postbox } : {}),
        postalCodeId: postalCode.id,
      });
    });
    (s.numbers ?? []).forEach((n, j) => {
      const addressId = n.address === undefined ? undefined : addressIds.get(n.address.toLowerCase());
      if (n.address !== undefined && addressId === undefined)
        throw new SeedError(`${at}.numbers[${j}]`, `address "${n.address}" is not one of the subscription's addresses`);
      const typeId =
        n.entitlementType === undefined
          ? undefined
          : findEntitlementType(store, n.entitlementType, `${at}.numbers[${j}]`);
      const type = typeId === undefined ? undefined : store.entitlementTypes.get(typeId);
      for (const full of expandRange(n.number, n.count ?? 1, `${at}.numbers[${j}]`)) {
        const cc = countryCodeOf(store, full);
        const entitlementId = typeId === undefined ? undefined : entitlementByType.get(typeId);
        store.numbers.insert({
          id: store.nextId('numbers'),
          subscriptionId: id,
          fullNumber: full,
          countryCode: cc,
          isoCode: type?.isoCode ?? '',
          nsn: full.slice(1 + cc.length),
          numberType: n.numberType ?? type?.numberType ?? 'geo',
          source: n.source ?? 'number_inventory',
          status: n.status ?? 'active',
          ...(entitlementId === undefined ? {} : { entitlementId }),
          ...(n.assignedTo ? { assignedTo: n.assignedTo } : {}),
          ...(addressId === undefined ? {} : { addressId, addressVerified: n.addressVerified ?? true }),
          numberDivert: '',
          numberRewrite: '',
        });
      }
    });
  });
}

/** A subscription's seeded addresses, created as `POST A` would (its checks included): their ids by full address, lower case. */
function loadAddresses(store: PlatformStore, subscriptionId: number, addresses: SeedAddress[], where: string) {
  const ids = new Map<string, number>();
  addresses.forEach((a, i) => {
    const { fullAddress, ...data } = a;
    try {
      const row = createAddress(store, subscriptionId, { data, ...(fullAddress ? { full_address: fullAddress } : {}) });
      ids.set(row.full_address.toLowerCase(), row.id);
    } catch (error) {
      throw new SeedError(`${where}[${i}]`, (error as Error).message);
    }
  });
  return ids;
}
