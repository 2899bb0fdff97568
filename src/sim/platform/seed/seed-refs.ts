/**
 * What both seed loaders (load-seed.ts, load-subscriptions.ts) share: the seed's error and the
 * lookups of reference data by name or id. A module of its own: load-seed.ts calls
 * load-subscriptions.ts, which would otherwise import these back from it (an import cycle).
 */
import { SwitchboardError } from '../../../core/errors.js';
import type { PlatformStore } from '../store/store.js';

export class SeedError extends SwitchboardError {
  constructor(where: string, message: string) {
    super('SB_SIM_SEED', `seed ${where}: ${message}`);
    this.name = 'SeedError';
  }
}

export function suspensionProfileId(store: PlatformStore, ref: string | number, where: string): number {
  const row = typeof ref === 'number' ? store.suspensionProfiles.get(ref) : store.suspensionProfiles.findByName(ref)[0];
  if (!row) throw new SeedError(where, `suspension profile ${ref} not found`);
  return row.id;
}

export function findEntitlementType(store: PlatformStore, ref: string | number | undefined, where: string): number {
  const row =
    typeof ref === 'number'
      ? store.entitlementTypes.get(ref)
      : ref === undefined
        ? undefined
        : store.entitlementTypes.findByName(ref)[0];
  if (!row) throw new SeedError(where, `entitlement type ${String(ref)} not found`);
  return row.id;
}

/** `+3221234560` with count 3 → the three consecutive numbers. */
export function expandRange(first: string, count: number, where: string): string[] {
  if (!/^\+\d{6,15}$/.test(first)) throw new SeedError(where, `${first} is not an E.164 number`);
  const start = BigInt(first.slice(1));
  return Array.from({ length: count }, (_, i) => `+${(start + BigInt(i)).toString()}`);
}

/** The longest seeded phone country code that prefixes the number (else its first 2 digits). */
export function countryCodeOf(store: PlatformStore, e164: string): string {
  const digits = e164.slice(1);
  let best = '';
  for (const c of store.countryCodes.rows())
    if (digits.startsWith(c.code) && c.code.length > best.length) best = c.code;
  return best || digits.slice(0, 2);
}
