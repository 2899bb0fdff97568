/**
 * The plan's Emergency coverage section (docs/assurance.md "Emergency coverage"): plain
 * data, as the plan file holds it. Made only when a plan asks for it (`plan --coverage`, a
 * coverage policy rule, `switchboard coverage`).
 */

/** Some of a scope's numbers or addresses: how many, and the first of them by name. */
export interface CoverageList {
  count: number;
  /** Identities (E.164 numbers, full addresses), sorted; at most the plan's list limit. */
  items: string[];
}

/** An address the plan changes or deletes while numbers are linked to it. */
export interface AddressInUse {
  /** The address object's address (`tenant/…/address/<full address>`). */
  address: string;
  action: 'update' | 'delete' | 'replace';
  /** The numbers linked to it live. */
  numbers: CoverageList;
  /** Every one of them is linked to another address by the same plan. */
  relinked: boolean;
}

/** What the plan changes about a scope's coverage. */
export interface CoverageEffect {
  /** Numbers that get their first address. */
  linksAdded: CoverageList;
  /** Numbers linked to another address. */
  linksMoved: CoverageList;
  addressesInUse: AddressInUse[];
  /** Numbers without an address once the plan is applied. */
  withoutAddressAfter: number;
}

/** One parent of numbers (a subscription) and the state of its emergency addresses. */
export interface CoverageScope {
  address: string;
  /** Its numbers, live. */
  numbers: number;
  withoutAddress: CoverageList;
  /** Linked to an address the platform has not verified (`addressVerified: false`). */
  unverified: CoverageList;
  /** Linked, without the platform saying whether it verified the address. */
  verificationUnknown: CoverageList;
  /** Addresses of the scope that no number is linked to. */
  unusedAddresses: CoverageList;
  effect: CoverageEffect;
}

export interface CoverageReport {
  /** Scopes in address order. */
  scopes: CoverageScope[];
  /** How many items each list of the report holds at most (the counts are always whole); null: every one. */
  listLimit: number | null;
}
