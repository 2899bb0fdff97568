/**
 * Row types of the simulator's store. They are the simulator's own reading of the spec
 * (STYLE.md point 8), stored as plain JSON. Field names follow the API where the API
 * shows them; fields the store needs for bookkeeping (`ancestors`, `groupUuid`,
 * `tenantUuid` …) are internal and never served as such.
 */

export type OwnerType = 'group' | 'distributor' | 'reseller';

/** Document 1 §2.6 owner, as stored (the name is looked up when served). */
export interface OwnerRef {
  type: OwnerType;
  uuid: string;
}

/** Document 1 §2.6 markup entry. */
export interface Markup {
  markup: number;
  startDate: string;
}

/** Document 1 §2.9 region. */
export interface Region {
  id: number;
  isoCode: string;
  name: string;
  createdOn: string;
  updatedOn: string;
}

export type BrandingType = 'font' | 'image' | 'theme';

export interface GroupRow {
  uuid: string;
  name: string;
  draasDomain?: string;
  enabledUcs: string[];
  regions: Region[];
  /** Group configuration (Document 1 §2.9): key → value. */
  configuration: Record<string, string>;
  /** Branding styling per type (Document 1 §2.10). */
  branding: Partial<Record<BrandingType, Record<string, unknown>>>;
  createdOn: string;
}

/** Distributors are read-only through the API (Document 1 §4.2): seeded only. */
export interface DistributorRow {
  uuid: string;
  name: string;
  groupUuid: string;
  regions: Region[];
  createdOn: string;
}

/** Fields shared by the two owned organization levels. */
export interface OwnedRow {
  uuid: string;
  name: string;
  billingId?: string;
  owner: OwnerRef;
  /** Every ancestor uuid, nearest first, ending with the group (fixed: owners never change). */
  ancestors: string[];
  groupUuid: string;
  /** Sorted nearest (latest startDate) first. */
  markups: Markup[];
  regions: Region[];
  createdOn: string;
}

export interface ResellerRow extends OwnedRow {
  status?: string;
  /** Integer id of the suspension profile, null when not suspended (Document 1 §3). */
  suspensionProfileId: number | null;
}

export type TenantRow = OwnedRow;

export type AdminLevel = 'system' | 'group' | 'distributor' | 'reseller' | 'tenant';

/** One api_rule as stored on a user (Document 1 §2.2). */
export interface ApiRuleSpec {
  method: string;
  url: string;
  name: string;
  allowed?: boolean;
}

/**
 * The rules of a user: a preset resolved against the registered routes when read
 * (`all`: one rule per route; `read`: one rule per GET route; `tenant`: one rule per route
 * that is not billable, Document 1 §1.5), or explicit rules.
 */
export type RuleSet = RulePreset | ApiRuleSpec[];
export type RulePreset = 'all' | 'read' | 'tenant';

export interface TrustedLocation {
  userAgent: string;
  ip: string;
  createdOn: string;
}

/** A user account: seeded users and administrators created through the API alike. */
export interface UserRow {
  id: number;
  username: string;
  /** null: the account exists but has no password yet (new administrators). */
  password: string | null;
  email?: string;
  firstName?: string;
  lastName?: string;
  mobile?: string;
  language: string;
  timezone: string;
  adminOf: { level: AdminLevel; reference: string };
  rules: RuleSet;
  profileId: number;
  profileName: string;
  /** Second factor used when one is needed. */
  twoFactor: 'none' | 'email' | 'totp';
  /** Ask for the second factor on every login, trusted location or not. */
  alwaysTwoFactor: boolean;
  /** Base32 TOTP secret (RFC 6238). */
  totpSecret?: string;
  /** Immutable machine-to-machine token (Document 1 §2.1). */
  m2mToken?: string;
  trustedLocs: TrustedLocation[];
  forceReset: boolean;
  registeredOn: string;
}

export interface SessionRow {
  id: string;
  userId: number;
  accessToken: string;
  accessExpiresAt: number;
  refreshToken: string;
  refreshExpiresAt: number;
  /** SHA-256 hex of the refresh token (logout by `sign`). */
  refreshSign: string;
  createdOn: string;
}

export interface PendingTwoFactorRow {
  payload: string;
  userId: number;
  option: 'email' | 'totp';
  code?: string;
  expiresAt: number;
  userAgent: string;
  ip: string;
}

export interface SuspensionProfileRow {
  id: number;
  name: string;
  description?: string;
  barringProfileId: string;
}

export interface CountryRow {
  isoCode: string;
  name: string;
}

export interface CountryCodeRow {
  id: number;
  code: string;
  name: string;
  createdOn: string;
  updatedOn: string;
}

export interface MailRow {
  id: number;
  to: string;
  template: string;
  subject: string;
  body: string;
  /** Machine-readable extras (2FA code, link …) so tests need not parse the body. */
  data: Record<string, unknown>;
  sentOn: string;
}

export type EventObjectType = 'reseller' | 'tenant' | 'subscription';
export type EventAction = 'create' | 'update' | 'delete';

export interface EventRow {
  id: number;
  /** e.g. `tenant.create`. */
  event: `${EventObjectType}.${EventAction}`;
  objectType: EventObjectType;
  action: EventAction;
  /** uuid or integer id of the object, as a string. */
  objectId: string;
  /** The object as it was after the operation (before, for deletes). */
  object: Record<string, unknown>;
  occurredOn: string;
  webhook?: { url: string; status?: number; error?: string };
}

// ---- Document 2 entities (held here so the default data set can carry them) ----

export interface SubscriptionRow {
  id: number;
  tenantUuid: string;
  /** Tenant uuid first, then the tenant's ancestors. */
  ancestors: string[];
  name: string;
  billingId: string;
  uc: string;
  licenses: { ucAlphaUsers: number; sipTrunkChannels: number };
  /** Integer id of the suspension profile; served as its barringProfileId (Document 2 §2.1). */
  suspensionProfileId: number | null;
  trunkGroups: number[];
  createdOn: string;
}

export interface EntitlementTypeRow {
  id: number;
  name: string;
  description: string;
  externalReference: string;
  countryCode: string;
  isoCode: string;
  numberType: string;
  serviceCapabilities: string;
  vanityType: string | null;
  createdOn: string;
  updatedOn: string;
}

export interface EntitlementRow {
  id: number;
  subscriptionId: number;
  licenseModelId: number;
  entitlement: number;
  externalReference?: string;
  assigned: number;
  reserved: number;
  disconnected: number;
}

export interface NumberRow {
  id: number;
  subscriptionId: number;
  fullNumber: string;
  countryCode: string;
  isoCode: string;
  nsn: string;
  numberType: string;
  source: 'number_inventory' | 'ported_in';
  status: string;
  entitlementId?: number;
  addressId?: number;
  /**
   * Whether the platform verified the number's emergency address (Doc 2 §2.5); absent while
   * it has none. A link made through the API is verified at once; a seed may say otherwise.
   */
  addressVerified?: boolean;
  assignedTo?: { type: 'sip_trunk' | 'uc_alpha'; subType?: string; to: number; ref?: string };
  numberDivert: string;
  numberRewrite: string;
}

export interface InventoryNumberRow {
  /** E.164 full number. */
  id: string;
  countryCode: string;
  isoCode: string;
  nsn: string;
  numberType: string;
  region: string | null;
  /** Absent while free. */
  state?: 'assigned' | 'reserved' | 'disconnected';
  stateUpdatedOn?: string;
}

export interface PostalCodeRow {
  id: number;
  code: string;
  city: string;
  state: string;
  region: { id: number; name: string };
  country: { id: number; name: string; isoCode: string };
}

export interface ProductRow {
  id: number;
  groupUuid: string;
  name: string;
  description?: string;
  sku: string;
  status: 'enabled' | 'disabled';
  items: { type: 'license' | 'entitlement'; subType?: string; id?: number; quantity: number }[];
}

export interface CatalogItemRow {
  id: number;
  groupUuid: string;
  name: string;
  description: string;
  type: 'product_license' | 'group_license' | 'entitlement';
  subType?: string;
}
