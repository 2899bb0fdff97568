/**
 * Store tables of the Document 2 resources that the core store does not hold:
 * addresses, locations, bulk jobs, user templates, calling plans and their prefixes.
 * Registered by the first Document 2 route module (before any seed or state file is
 * loaded), so they take part in `/_sim/state`, `--state` and `/_sim/reset` like the core's.
 * Every row hangs off a subscription (or, for group block lists, a group) and is removed
 * with it through `store.subscriptionDeleteHooks`.
 */
import type { PlatformStore } from './store.js';
import type { IndexedTable } from './table.js';

/** Document 2 §2.7 address data. */
export interface AddressData {
  number?: string;
  street?: string;
  city?: string;
  state?: string;
  postalCode?: number;
  country?: string;
  isoCode?: string;
  premises?: string;
}

export interface AddressRow {
  id: number;
  subscriptionId: number;
  full_address: string;
  format: string;
  data: AddressData;
}

/** Document 2 §2.8 location; the postal code is served expanded. */
export interface LocationRow {
  id: number;
  subscriptionId: number;
  street: string;
  number: string;
  postbox?: string;
  postalCodeId: number;
}

export type BulkKind = 'addresses' | 'address_numbers' | 'number_ranges';
export type BulkStatus = 'success' | 'error' | 'partial';

export interface BulkItem {
  id: number;
  key: string;
  status: 'success' | 'error';
  data: unknown;
  /** Why an item failed (not in the spec's item table: a simulator extra). */
  reason?: string;
  created_on: string;
  updated_on: string;
}

/** Document 2 §2.9 bulk job, items included. */
export interface BulkJobRow {
  id: number;
  subscriptionId: number;
  job_id: string;
  title: string;
  kind: BulkKind;
  status: BulkStatus;
  total_count: number;
  success_count: number;
  created_on: string;
  updated_on: string;
  job_items: BulkItem[];
}

/** Document 2 §2.10 user template (the default template 0 is not stored). */
export interface TemplateRow {
  id: number;
  subscriptionId: number;
  sku: string;
  name: string;
  description: string;
  location: string;
  voiceEnabled: boolean;
  vrp: string;
  groups: string[];
  licenses: string[];
  customerLicenses: string[];
}

/**
 * Document 2 §2.11 calling plan. `scope` says whose list it is: `group:<uuid>` or
 * `tg:<subscriptionId>:<trunkGroupId>:<block_list|allow_list>`.
 */
export interface CallingPlanRow {
  id: number;
  scope: string;
  subscriptionId?: number;
  name: string;
  type: 'block_list' | 'allow_list';
  country: string;
  countryCode: string;
  isoCode: string;
  region: string;
  classification: string;
  risk: number;
}

export interface PrefixRow {
  id: number;
  planId: number;
  prefix: string;
  name: string;
  isExact: boolean;
}

export interface SubscriptionTables {
  addresses: IndexedTable<AddressRow>;
  locations: IndexedTable<LocationRow>;
  bulkJobs: IndexedTable<BulkJobRow>;
  templates: IndexedTable<TemplateRow>;
  callingPlans: IndexedTable<CallingPlanRow>;
  prefixes: IndexedTable<PrefixRow>;
}

const bySub = (r: { subscriptionId: number }) => String(r.subscriptionId);
const registered = new WeakMap<PlatformStore, SubscriptionTables>();

/** The Document 2 tables of a store, registered (with their delete cascade) on first use. */
export function subscriptionTables(store: PlatformStore): SubscriptionTables {
  const known = registered.get(store);
  if (known) return known;
  const tables: SubscriptionTables = {
    addresses: store.table<AddressRow>({
      name: 'addresses',
      key: (a) => String(a.id),
      parent: bySub,
      searchable: ['full_address', 'id'],
      lookups: { full: (a) => `${a.subscriptionId}\u0000${a.full_address.toLowerCase()}` },
    }),
    locations: store.table<LocationRow>({ name: 'locations', key: (l) => String(l.id), parent: bySub }),
    bulkJobs: store.table<BulkJobRow>({ name: 'bulkJobs', key: (j) => String(j.id), parent: bySub }),
    templates: store.table<TemplateRow>({
      name: 'templates',
      key: (t) => String(t.id),
      parent: bySub,
      nameOf: (t) => t.sku,
    }),
    callingPlans: store.table<CallingPlanRow>({
      name: 'callingPlans',
      key: (c) => String(c.id),
      parent: (c) => c.scope,
      searchable: ['name', 'country', 'isoCode', 'countryCode', 'classification'],
    }),
    prefixes: store.table<PrefixRow>({
      name: 'callingPlanPrefixes',
      key: (p) => String(p.id),
      parent: (p) => String(p.planId),
    }),
  };
  registered.set(store, tables);
  store.subscriptionDeleteHooks.push((subscriptionId) => cascadeSubscription(tables, subscriptionId));
  return tables;
}

/** Removes every Document 2 row of a subscription (entitlements and numbers are the core's). */
function cascadeSubscription(t: SubscriptionTables, subscriptionId: number): void {
  const key = String(subscriptionId);
  for (const table of [t.addresses, t.locations, t.bulkJobs, t.templates] as unknown as IndexedTable<{
    id: number;
  }>[]) {
    for (const row of table.children(key)) table.delete(row.id);
  }
  for (const plan of t.callingPlans.rows().filter((p) => p.subscriptionId === subscriptionId)) deletePlan(t, plan.id);
}

/** Deletes a calling plan and its prefixes. */
export function deletePlan(t: SubscriptionTables, planId: number): void {
  for (const p of t.prefixes.children(String(planId))) t.prefixes.delete(p.id);
  t.callingPlans.delete(planId);
}
