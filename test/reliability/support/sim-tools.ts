/**
 * Reading the simulator from the outside (its `/_sim/` control surface, docs/simulator.md) for
 * the reliability tests: state, stats, faults, clock, and duplicate detection by identity.
 */

export interface SimState {
  tables: Record<string, Record<string, unknown>[]>;
  routing?: {
    services?: Record<
      string,
      Record<
        string,
        Record<string, { rows?: Record<string, unknown>[]; fields?: Record<string, { unique?: boolean }> }>
      >
    >;
  };
}

export interface SimStats {
  total: number;
  byRoute: Record<string, number>;
  faults: Record<string, number>;
}

export async function control<T>(url: string, method: string, what: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}/_sim/${what}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`/_sim/${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export const simState = (url: string) => control<SimState>(url, 'GET', 'state');
export const simStats = (url: string) => control<SimStats>(url, 'GET', 'stats');
export const setFaults = (url: string, faults: Record<string, unknown>) =>
  control<unknown>(url, 'POST', 'faults', faults);
export const advanceClock = (url: string, seconds: number) =>
  control<unknown>(url, 'POST', 'clock', { advanceSeconds: seconds });

type Row = Record<string, unknown>;
/** A row's value at a path, as text (`owner.uuid`). */
const at = (row: Row, ...path: string[]): string =>
  String(path.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? (v as Row)[k] : undefined), row));

/**
 * The identity of a row of each simulator table, as the manifests name objects (docs/manifests.md:
 * "identity inside its parent"). Two rows with one identity are a duplicate.
 */
const IDENTITY: Record<string, (row: Row) => string> = {
  groups: (r) => at(r, 'name'),
  resellers: (r) => `${at(r, 'owner', 'uuid')}/${at(r, 'name')}`,
  tenants: (r) => `${at(r, 'owner', 'uuid')}/${at(r, 'name')}`,
  users: (r) => (r['email'] === undefined || r['email'] === null ? at(r, 'username') : at(r, 'email')).toLowerCase(),
  subscriptions: (r) => `${at(r, 'tenantUuid')}/${at(r, 'name')}`,
  entitlements: (r) => `${at(r, 'subscriptionId')}/${at(r, 'licenseModelId')}`,
  addresses: (r) => `${at(r, 'subscriptionId')}/${at(r, 'full_address')}`,
  locations: (r) => `${at(r, 'subscriptionId')}/${at(r, 'street')}/${at(r, 'number')}/${at(r, 'postalCodeId')}`,
  templates: (r) => `${at(r, 'subscriptionId')}/${at(r, 'sku')}`,
  callingPlans: (r) => `${at(r, 'scope')}/${at(r, 'type')}/${at(r, 'name')}`,
  callingPlanPrefixes: (r) => `${at(r, 'planId')}/${at(r, 'prefix')}`,
  products: (r) => `${at(r, 'groupUuid')}/${at(r, 'sku')}`,
};

/** Every identity held by more than one row, as `table: identity ×n`. */
export function duplicates(state: SimState): string[] {
  const found: string[] = [];
  for (const [table, identity] of Object.entries(IDENTITY)) {
    const counts = new Map<string, number>();
    for (const row of state.tables[table] ?? []) counts.set(identity(row), (counts.get(identity(row)) ?? 0) + 1);
    for (const [key, n] of counts) if (n > 1) found.push(`${table}: ${key} ×${n}`);
  }
  for (const [service, versions] of Object.entries(state.routing?.services ?? {})) {
    for (const [version, tables] of Object.entries(versions)) {
      for (const [table, { rows = [], fields = {} }] of Object.entries(tables)) {
        // A row's identity is its table's unique field (the data model's; `number` for routes).
        const key = Object.keys(fields).find((f) => fields[f]?.unique) ?? 'number';
        const values = rows.map((r) => at(r, key));
        const dupes = values.filter((n, i) => values.indexOf(n) !== i);
        for (const n of new Set(dupes)) found.push(`routing ${service}/${version}/${table}: ${key}=${n}`);
      }
    }
  }
  return found;
}
