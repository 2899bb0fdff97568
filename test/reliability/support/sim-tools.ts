/**
 * Reading the simulator from the outside (its `/_sim/` control surface, CONTRACT §6) for
 * the reliability tests: state, stats, faults, clock, and duplicate detection by identity.
 */

export interface SimState {
  tables: Record<string, Record<string, unknown>[]>;
  routing?: { services?: Record<string, Record<string, Record<string, { rows?: Record<string, unknown>[] }>>> };
}

export interface SimStats {
  total: number;
  byRoute: Record<string, number>;
  faults: Record<string, number>;
}

export async function control<T>(url: string, method: string, what: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}/_sim/${what}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!response.ok) throw new Error(`/_sim/${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export const simState = (url: string) => control<SimState>(url, 'GET', 'state');
export const simStats = (url: string) => control<SimStats>(url, 'GET', 'stats');
export const setFaults = (url: string, faults: Record<string, unknown>) => control<unknown>(url, 'POST', 'faults', faults);
export const advanceClock = (url: string, seconds: number) => control<unknown>(url, 'POST', 'clock', { advanceSeconds: seconds });

/**
 * The identity of a row of each simulator table, as the manifests name objects (CONTRACT
 * §2, §3.1: "identity inside its parent"). Two rows with one identity are a duplicate.
 */
const IDENTITY: Record<string, (row: Record<string, any>) => string> = {
  groups: (r) => String(r['name']),
  resellers: (r) => `${String(r['owner']?.['uuid'])}/${String(r['name'])}`,
  tenants: (r) => `${String(r['owner']?.['uuid'])}/${String(r['name'])}`,
  users: (r) => String(r['email'] ?? r['username']).toLowerCase(),
  subscriptions: (r) => `${String(r['tenantUuid'])}/${String(r['name'])}`,
  entitlements: (r) => `${String(r['subscriptionId'])}/${String(r['licenseModelId'])}`,
  addresses: (r) => `${String(r['subscriptionId'])}/${String(r['full_address'])}`,
  locations: (r) => `${String(r['subscriptionId'])}/${String(r['street'])}/${String(r['number'])}/${String(r['postalCodeId'])}`,
  templates: (r) => `${String(r['subscriptionId'])}/${String(r['sku'])}`,
  callingPlans: (r) => `${String(r['scope'])}/${String(r['type'])}/${String(r['name'])}`,
  callingPlanPrefixes: (r) => `${String(r['planId'])}/${String(r['prefix'])}`,
  products: (r) => `${String(r['groupUuid'])}/${String(r['sku'])}`,
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
      for (const [table, { rows = [] }] of Object.entries(tables)) {
        const numbers = rows.map((r) => String(r['number']));
        const dupes = numbers.filter((n, i) => numbers.indexOf(n) !== i);
        for (const n of new Set(dupes)) found.push(`routing ${service}/${version}/${table}: number=${n}`);
      }
    }
  }
  return found;
}

/** How many rows each identity table holds (to compare two states). */
export function rowCounts(state: SimState): Record<string, number> {
  return Object.fromEntries(Object.keys(IDENTITY).map((t) => [t, (state.tables[t] ?? []).length]));
}
