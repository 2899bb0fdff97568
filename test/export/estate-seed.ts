import { defaultSeed, type Seed } from '../../src/sim/index.js';

/** The size of a generated estate. */
export interface EstateSize {
  tenants: number;
  subscriptionsPerTenant: number;
  entitlementsPerSubscription: number;
}

const TYPES = ['BE geo', 'BE tollfree', 'NL geo', 'FR geo', 'DE geo', 'BE mobile'];

/**
 * The simulator's default data set plus a generated estate: `tenants` tenants, every other
 * one directly under the group and the rest under reseller `north` (both places a real
 * platform has), each with its subscriptions and entitlements of distinct types.
 */
export function estateSeed(size: EstateSize): Seed {
  const seed = defaultSeed();
  const tenants = seed.tenants ?? [];
  for (let i = 0; i < size.tenants; i++) {
    const name = `estate-${String(i).padStart(5, '0')}`;
    tenants.push({
      name,
      billingId: `T-E${i}`,
      markup: i % 7,
      owner: i % 2 === 0 ? { group: 'demo-group' } : { reseller: 'north' },
      subscriptions: Array.from({ length: size.subscriptionsPerTenant }, (_, s) => ({
        name: `sub-${s}`,
        billingId: `T-E${i}-S${s}`,
        uc: 'uc_alpha',
        entitlements: Array.from({ length: size.entitlementsPerSubscription }, (_, e) => ({
          type: TYPES[e % TYPES.length] as string,
          entitlement: 5 + e,
        })),
      })),
    });
  }
  seed.tenants = tenants;
  return seed;
}
