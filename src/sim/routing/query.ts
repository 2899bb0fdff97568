import { compileFilters, indexedCandidates } from './filters.js';
import type { SimTable } from './table.js';
import { SimHttpError, type SimRow } from './types.js';

/** A parsed `q` object (Doc3 §4.1). */
export interface SimQuery {
  filters?: unknown;
  order_by?: unknown;
}

/** Parses the `q` URL parameter (URL-decoded by then); 400 when it is not a JSON object. */
export function parseQueryParam(raw: string | null): SimQuery | undefined {
  if (raw === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new SimHttpError(400, 'Unable to decode data: "q" is not valid JSON');
  }
  return asQuery(parsed);
}

export function asQuery(value: unknown): SimQuery {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SimHttpError(400, 'Unable to decode data: "q" must be a JSON object');
  }
  return value as SimQuery;
}

/** True when the query names at least one filter condition. */
export function hasFilters(q: SimQuery | undefined): boolean {
  return Array.isArray(q?.filters) && q.filters.length > 0;
}

const cache = new WeakMap<SimTable, { key: string; revision: number; ids: number[] }>();

/**
 * Ids of matching rows in answer order. A filtered or ordered result is cached per table
 * until the next write, so paging through it does not rescan a million rows per page.
 */
export function selectIds(table: SimTable, q: SimQuery | undefined): number[] {
  if (!hasFilters(q) && !hasOrder(q)) return table.orderedIds();
  const key = JSON.stringify([q?.filters ?? null, q?.order_by ?? null]);
  const hit = cache.get(table);
  if (hit && hit.key === key && hit.revision === table.revision) return hit.ids;
  const predicate = compileFilters(q?.filters, table);
  const candidates = indexedCandidates(q?.filters, table);
  const pool = candidates ? [...new Set(candidates)].sort((a, b) => a - b) : table.orderedIds();
  const rows: SimRow[] = [];
  for (const id of pool) {
    const row = table.rows.get(id);
    if (row && predicate(row)) rows.push(row);
  }
  if (hasOrder(q)) rows.sort(comparator(q?.order_by, table));
  const ids = rows.map((r) => r.id);
  cache.set(table, { key, revision: table.revision, ids });
  return ids;
}

function hasOrder(q: SimQuery | undefined): boolean {
  return Array.isArray(q?.order_by) && q.order_by.length > 0;
}

/** `order_by: [{field, direction}]`; nulls sort last ascending, first descending (PostgreSQL); ties by id. */
function comparator(orderBy: unknown, table: SimTable): (a: SimRow, b: SimRow) => number {
  if (!Array.isArray(orderBy)) throw new SimHttpError(400, 'Unable to construct query: "order_by" must be an array');
  const keys = orderBy.map((o) => {
    const { field, direction } = (o ?? {}) as Record<string, unknown>;
    if (typeof field !== 'string' || (field !== 'id' && !table.fields.has(field))) {
      throw new SimHttpError(400, `Unable to construct query: no such field "${String(field)}" to order by`);
    }
    if (direction !== undefined && direction !== 'asc' && direction !== 'desc') {
      throw new SimHttpError(400, 'Unable to construct query: "direction" must be "asc" or "desc"');
    }
    return { field, sign: direction === 'desc' ? -1 : 1 };
  });
  return (a, b) => {
    for (const { field, sign } of keys) {
      const x = a[field];
      const y = b[field];
      if (x === y) continue;
      if (x === null) return sign;
      if (y === null) return -sign;
      return ((x as number) < (y as number) ? -1 : 1) * sign;
    }
    return a.id - b.id;
  };
}
