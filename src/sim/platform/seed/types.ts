/**
 * The seed format (YAML or JSON; docs/simulator.md "Seed file format"). Objects refer to
 * each other by name; uuids and ids are generated unless given. Every section is optional.
 * The routing engine's part (`routing`) is handed to the routing-engine simulator as is.
 */
import type { BrandingType, RuleSet } from '../store/types.js';

export interface Seed {
  instance?: string;
  webhook?: { url: string };
  groups?: SeedGroup[];
  resellers?: SeedOwned[];
  tenants?: SeedTenant[];
  users?: SeedUser[];
  suspensionProfiles?: { id: number; name: string; description?: string; barringProfileId: string }[];
  entitlementTypes?: SeedEntitlementType[];
  countries?: { isoCode: string; name: string }[];
  countryCodes?: { id?: number; code: string; name: string }[];
  postalCodes?: { code: string; city: string; isoCode: string; state?: string; region?: string }[];
  numberInventory?: SeedInventory[];
  routing?: unknown;
  /** Variant mode: every loosely typed field in one of its documented forms, drawn per answer from this seed. */
  variants?: string | number;
  /** Requests per second each API serves; beyond it, 429 with Retry-After (`--rate-limit` wins). */
  rateLimit?: number;
  /**
   * The reads the documents do not show, on (the default) or off: off, they answer 404 as
   * a platform without them would (`GET P/public/postal_codes`, the branding read).
   */
  inventedEndpoints?: { postalCodes?: boolean; brandingRead?: boolean };
}

export interface SeedRegion {
  isoCode: string;
  name: string;
}

export interface SeedGroup {
  name: string;
  uuid?: string;
  draasDomain?: string;
  enabledUcs?: string[];
  regions?: SeedRegion[];
  configuration?: Record<string, string>;
  branding?: Partial<Record<BrandingType, Record<string, unknown>>>;
  distributors?: { name: string; uuid?: string; regions?: SeedRegion[] }[];
  products?: {
    sku: string;
    name: string;
    description?: string;
    status?: 'enabled' | 'disabled';
    items?: SeedProductItem[];
  }[];
  catalogItems?: {
    name: string;
    description?: string;
    type: 'product_license' | 'group_license' | 'entitlement';
    subType?: string;
  }[];
}

/** `license` items name `subType`; `entitlement` items name the entitlement type (`entitlementType`, name or id). */
export interface SeedProductItem {
  type: 'license' | 'entitlement';
  subType?: string;
  entitlementType?: string | number;
  quantity: number;
}

/** Exactly one key: the owner's kind and its name (or `{uuid}`). */
export interface SeedOwnerRef {
  group?: string;
  distributor?: string;
  reseller?: string;
  uuid?: string;
}

export interface SeedOwned {
  name: string;
  uuid?: string;
  billingId?: string;
  /** Shorthand for one markup starting at load time. */
  markup?: number;
  markups?: { markup: number; startDate: string }[];
  owner: SeedOwnerRef;
  regions?: SeedRegion[];
  status?: string;
  /** Suspension profile name or id (resellers). */
  suspensionProfile?: string | number;
}

export interface SeedTenant extends SeedOwned {
  subscriptions?: SeedSubscription[];
}

export interface SeedSubscription {
  id?: number;
  name: string;
  billingId: string;
  uc?: string;
  licenses?: { ucAlphaUsers?: number; sipTrunkChannels?: number };
  trunkGroups?: number[];
  suspensionProfile?: string | number;
  /** `assigned`, `reserved`, `disconnected`: the counters of Document 2 §2.3 (0 when left out). */
  entitlements?: {
    type: string | number;
    entitlement: number;
    assigned?: number;
    reserved?: number;
    disconnected?: number;
    externalReference?: string;
  }[];
  /** Emergency addresses (Doc 2 §2.7), before the numbers that name them. */
  addresses?: SeedAddress[];
  numbers?: SeedNumber[];
  /** Locations (Document 2 §4.7), by street, house number and postal code (a seeded `postalCodes` code). */
  locations?: { street: string; number: string; postalCode: string; postbox?: string }[];
}

/** An address of a subscription: its data; its full address formed from it unless given. */
export interface SeedAddress {
  street: string;
  number: string;
  postalCode: number;
  city: string;
  country?: string;
  isoCode?: string;
  state?: string;
  premises?: string;
  fullAddress?: string;
}

export interface SeedNumber {
  /** E.164, or the first of a range with `count`. */
  number: string;
  count?: number;
  numberType?: string;
  source?: 'number_inventory' | 'ported_in';
  status?: string;
  /** Entitlement type (name or id) the number counts against. */
  entitlementType?: string | number;
  assignedTo?: { type: 'sip_trunk' | 'uc_alpha'; subType?: string; to: number; ref?: string };
  /** The full address of one of the subscription's seeded addresses: the number's emergency address. */
  address?: string;
  /** Whether that link is verified (Doc 2 §2.5 `addressVerified`); default true. */
  addressVerified?: boolean;
}

export interface SeedEntitlementType {
  id: number;
  name: string;
  countryCode: string;
  isoCode: string;
  numberType: string;
  description?: string;
  externalReference?: string;
  serviceCapabilities?: string;
  vanityType?: string | null;
}

export interface SeedInventory {
  number: string;
  count?: number;
  isoCode: string;
  numberType: string;
  region?: string | null;
}

export interface SeedUser {
  username: string;
  /** Omit (or null) for an account that cannot log in yet. */
  password?: string | null;
  email?: string;
  firstName?: string;
  lastName?: string;
  mobile?: string;
  language?: string;
  timezone?: string;
  /** `level` plus, below system, the name (or uuid) of the group/distributor/reseller/tenant. */
  adminOf: { level: 'system' | 'group' | 'distributor' | 'reseller' | 'tenant'; name?: string; uuid?: string };
  rules?: RuleSet;
  profileName?: string;
  twoFactor?: 'none' | 'email' | 'totp';
  alwaysTwoFactor?: boolean;
  totpSecret?: string;
  m2mToken?: string;
  trustedLocations?: { userAgent: string; ip: string }[];
}
