/**
 * The simulator's in-memory store: one {@link IndexedTable} per entity, integer-id
 * sequences, the sim clock and the settings of the loaded seed.
 *
 * Adding a table (e.g. for Document 2 addresses):
 *
 * ```ts
 * const addresses = store.table<AddressRow>({
 *   name: 'addresses', key: (a) => String(a.id), parent: (a) => String(a.subscriptionId),
 *   searchable: ['full_address'],
 * });
 * const id = store.nextId('addresses');
 * ```
 *
 * Call `store.table()` from a route module's register function (it runs before any seed
 * or state file is loaded); the table then takes part in `GET /_sim/state`, `--state`
 * persistence and `/_sim/reset` with no further wiring. Rows are plain JSON objects.
 */
import { randomUUID } from 'node:crypto';
import { SimClock } from '../clock.js';
import { IndexedTable, type TableOptions } from './table.js';
import type {
  CatalogItemRow,
  CountryCodeRow,
  CountryRow,
  DistributorRow,
  EntitlementRow,
  EntitlementTypeRow,
  EventRow,
  GroupRow,
  InventoryNumberRow,
  MailRow,
  NumberRow,
  OwnerType,
  PendingTwoFactorRow,
  PostalCodeRow,
  ProductRow,
  ResellerRow,
  SessionRow,
  SubscriptionRow,
  SuspensionProfileRow,
  TenantRow,
  UserRow,
} from './types.js';

/** The JSON of `GET /_sim/state` and of a `--state` file. */
export interface StoreSnapshot {
  kind: 'switchboard-sim-state';
  formatVersion: 1;
  instance: string;
  clockOffsetMs: number;
  settings: StoreSettings;
  sequences: Record<string, number>;
  tables: Record<string, unknown[]>;
  /** The routing engine's data (its own seed format), added by the server. */
  routing?: unknown;
}

export interface StoreSettings {
  /** Events (Document 1 §6) are also POSTed here when set. */
  webhookUrl?: string;
  /** Variant mode's seed (the seed's `variants`; ../variants.ts). */
  variants?: string | number;
  /** Endpoints the documents do not show that the simulator invents, switched off (the seed's `inventedEndpoints`). */
  withoutEndpoints?: InventedEndpoint[];
  /** Requests per second each API serves before answering 429 (the seed's `rateLimit`). */
  rateLimit?: number;
}

/** The reads the simulator serves although the documents show no path for them. */
export type InventedEndpoint = 'postalCodes' | 'brandingRead';

/** An organization node found by uuid. */
export type OrgNode =
  | { type: 'group'; row: GroupRow }
  | { type: 'distributor'; row: DistributorRow }
  | { type: 'reseller'; row: ResellerRow }
  | { type: 'tenant'; row: TenantRow };

export class PlatformStore {
  instance = 'demo';
  settings: StoreSettings = {};
  readonly clock = new SimClock();
  /**
   * Called with a subscription id before a tenant delete removes that subscription, so
   * Document 2 tables (addresses, locations …) can cascade. Push from a route module.
   */
  readonly subscriptionDeleteHooks: ((subscriptionId: number) => void)[] = [];
  /** Bumped on every mutation; persistence saves when it moved. */
  version = 0;
  private sequences: Record<string, number> = {};
  private readonly tables = new Map<string, IndexedTable<object>>();
  /** Rows restored for tables that are not registered (yet). */
  private readonly pendingRows = new Map<string, unknown[]>();

  readonly groups = this.table<GroupRow>({
    name: 'groups',
    key: (g) => g.uuid,
    nameOf: (g) => g.name,
    searchable: ['uuid', 'name', 'draasDomain'],
  });
  readonly distributors = this.table<DistributorRow>({
    name: 'distributors',
    key: (d) => d.uuid,
    parent: (d) => d.groupUuid,
    ancestors: (d) => [d.groupUuid],
    nameOf: (d) => d.name,
  });
  readonly resellers = this.table<ResellerRow>({
    name: 'resellers',
    key: (r) => r.uuid,
    parent: (r) => r.owner.uuid,
    ancestors: (r) => r.ancestors,
    nameOf: (r) => r.name,
    searchable: ['uuid', 'name', 'billingId'],
    lookups: { billing: (r) => billingKey(r.groupUuid, r.billingId) },
  });
  readonly tenants = this.table<TenantRow>({
    name: 'tenants',
    key: (t) => t.uuid,
    parent: (t) => t.owner.uuid,
    ancestors: (t) => t.ancestors,
    nameOf: (t) => t.name,
    searchable: ['uuid', 'name', 'billingId'],
    lookups: { billing: (t) => billingKey(t.groupUuid, t.billingId) },
  });
  readonly users = this.table<UserRow>({
    name: 'users',
    key: (u) => String(u.id),
    nameOf: (u) => u.username,
    lookups: {
      email: (u) => u.email?.toLowerCase(),
      m2m: (u) => u.m2mToken,
      username: (u) => u.username.toLowerCase(),
    },
  });
  readonly sessions = this.table<SessionRow>({
    name: 'sessions',
    key: (s) => s.id,
    parent: (s) => String(s.userId),
    lookups: { access: (s) => s.accessToken, refresh: (s) => s.refreshToken, sign: (s) => s.refreshSign },
  });
  readonly pendingTwoFactor = this.table<PendingTwoFactorRow>({ name: 'pendingTwoFactor', key: (p) => p.payload });
  readonly suspensionProfiles = this.table<SuspensionProfileRow>({
    name: 'suspensionProfiles',
    key: (s) => String(s.id),
    nameOf: (s) => s.name,
  });
  readonly countries = this.table<CountryRow>({ name: 'countries', key: (c) => c.isoCode, nameOf: (c) => c.name });
  readonly countryCodes = this.table<CountryCodeRow>({
    name: 'countryCodes',
    key: (c) => String(c.id),
    nameOf: (c) => c.code,
  });
  readonly mails = this.table<MailRow>({ name: 'mails', key: (m) => String(m.id) });
  readonly events = this.table<EventRow>({ name: 'events', key: (e) => String(e.id) });
  // Document 2 entities that the default data set carries.
  readonly subscriptions = this.table<SubscriptionRow>({
    name: 'subscriptions',
    key: (s) => String(s.id),
    parent: (s) => s.tenantUuid,
    ancestors: (s) => s.ancestors,
    nameOf: (s) => s.name,
    searchable: ['name', 'billingId'],
    lookups: { billing: (s) => billingKey(s.ancestors[s.ancestors.length - 1] ?? '', s.billingId) },
  });
  readonly entitlementTypes = this.table<EntitlementTypeRow>({
    name: 'entitlementTypes',
    key: (e) => String(e.id),
    nameOf: (e) => e.name,
  });
  readonly entitlements = this.table<EntitlementRow>({
    name: 'entitlements',
    key: (e) => String(e.id),
    parent: (e) => String(e.subscriptionId),
  });
  readonly numbers = this.table<NumberRow>({
    name: 'numbers',
    key: (n) => String(n.id),
    parent: (n) => String(n.subscriptionId),
    searchable: ['fullNumber', 'nsn', 'countryCode', 'isoCode'],
    lookups: { fullNumber: (n) => n.fullNumber },
  });
  readonly inventory = this.table<InventoryNumberRow>({
    name: 'inventory',
    key: (n) => n.id,
    parent: (n) => n.isoCode,
  });
  readonly postalCodes = this.table<PostalCodeRow>({
    name: 'postalCodes',
    key: (p) => String(p.id),
    parent: (p) => p.country.isoCode,
    nameOf: (p) => p.code,
  });
  readonly products = this.table<ProductRow>({
    name: 'products',
    key: (p) => String(p.id),
    parent: (p) => p.groupUuid,
    nameOf: (p) => p.sku,
    searchable: ['name', 'sku'],
  });
  readonly catalogItems = this.table<CatalogItemRow>({
    name: 'catalogItems',
    key: (c) => String(c.id),
    parent: (c) => c.groupUuid,
  });

  /**
   * Registers a table (or returns the one already registered under that name). Rows of a
   * restored snapshot that were waiting for this table are inserted now.
   */
  table<T extends object>(options: TableOptions<T>): IndexedTable<T> {
    const existing = this.tables.get(options.name);
    if (existing) return existing as unknown as IndexedTable<T>;
    const table = new IndexedTable<T>(options, () => this.version++);
    this.tables.set(options.name, table as unknown as IndexedTable<object>);
    const pending = this.pendingRows.get(options.name);
    if (pending) {
      this.pendingRows.delete(options.name);
      for (const row of pending) table.insert(row as T);
    }
    return table;
  }

  tableNames(): string[] {
    return [...this.tables.keys()];
  }

  /** Next integer id of a sequence (ids are never reused, as a database would do). */
  nextId(sequence: string): number {
    const next = (this.sequences[sequence] ?? 0) + 1;
    this.sequences[sequence] = next;
    this.version++;
    return next;
  }

  /** Makes sure the next id of `sequence` is above `id` (used when seeding explicit ids). */
  reserveId(sequence: string, id: number): void {
    if ((this.sequences[sequence] ?? 0) < id) this.sequences[sequence] = id;
  }

  newUuid(): string {
    return randomUUID();
  }

  /** The group, distributor, reseller or tenant with this uuid. */
  node(uuid: string): OrgNode | undefined {
    const g = this.groups.get(uuid);
    if (g) return { type: 'group', row: g };
    const d = this.distributors.get(uuid);
    if (d) return { type: 'distributor', row: d };
    const r = this.resellers.get(uuid);
    if (r) return { type: 'reseller', row: r };
    const t = this.tenants.get(uuid);
    if (t) return { type: 'tenant', row: t };
    return undefined;
  }

  /** Owner object of Document 1 §2.6 (`type`, `uuid`, `name`). */
  ownerView(type: OwnerType, uuid: string): { type: OwnerType; uuid: string; name: string } {
    return { type, uuid, name: this.node(uuid)?.row.name ?? '' };
  }

  snapshot(): StoreSnapshot {
    const tables: Record<string, unknown[]> = {};
    for (const [name, table] of this.tables) tables[name] = table.rows();
    for (const [name, rows] of this.pendingRows) tables[name] = rows;
    return {
      kind: 'switchboard-sim-state',
      formatVersion: 1,
      instance: this.instance,
      clockOffsetMs: this.clock.offset,
      settings: { ...this.settings },
      sequences: { ...this.sequences },
      tables,
    };
  }

  /** Empties every table and settings (before a seed is loaded). */
  clear(): void {
    for (const table of this.tables.values()) table.clear();
    this.pendingRows.clear();
    this.sequences = {};
    this.settings = {};
    this.clock.offset = 0;
    this.version++;
  }

  restore(snapshot: StoreSnapshot): void {
    this.clear();
    this.instance = snapshot.instance;
    this.settings = { ...snapshot.settings };
    this.sequences = { ...snapshot.sequences };
    this.clock.offset = snapshot.clockOffsetMs;
    for (const [name, rows] of Object.entries(snapshot.tables)) {
      const table = this.tables.get(name);
      if (!table) this.pendingRows.set(name, rows);
      else for (const row of rows) table.insert(structuredClone(row) as object);
    }
  }
}

/** Billing ids are unique per group (Document 1 §2.4). */
export function billingKey(groupUuid: string, billingId: string | undefined): string | undefined {
  return billingId ? `${groupUuid}\u0000${billingId}` : undefined;
}

export function isSnapshot(value: unknown): value is StoreSnapshot {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'switchboard-sim-state';
}
