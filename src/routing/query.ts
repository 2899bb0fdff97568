/**
 * A typed builder for the `q` object of Doc3 §4.1 (Flask-Restless 0.x): conditions,
 * `and` / `or` groups, `order_by`. `encodeQuery` makes the URL form for GET; writes put
 * the same object in the JSON body (see RoutingClient.updateWhere).
 */

export type FilterOp =
  | '=='
  | '!='
  | '>'
  | '<'
  | '>='
  | '<='
  | 'in'
  | 'not_in'
  | 'is_null'
  | 'is_not_null'
  | 'like'
  | 'ilike'
  | 'has'
  | 'any';

/** `{name, op, val}`, or `{name, op, field}` to compare with another field. */
export interface FilterCondition {
  name: string;
  op: FilterOp;
  val?: unknown;
  field?: string;
}

export type Filter = FilterCondition | { and: Filter[] } | { or: Filter[] };

export interface OrderBy {
  field: string;
  direction: 'asc' | 'desc';
}

export interface RoutingQuery {
  filters?: Filter[];
  order_by?: OrderBy[];
}

/** Condition helpers: `f.eq('route', 'trunk-7')`, `f.or(f.lt('priority', 5), f.isNull('priority'))`. */
export const f = {
  eq: (name: string, val: unknown): FilterCondition => ({ name, op: '==', val }),
  ne: (name: string, val: unknown): FilterCondition => ({ name, op: '!=', val }),
  gt: (name: string, val: unknown): FilterCondition => ({ name, op: '>', val }),
  lt: (name: string, val: unknown): FilterCondition => ({ name, op: '<', val }),
  ge: (name: string, val: unknown): FilterCondition => ({ name, op: '>=', val }),
  le: (name: string, val: unknown): FilterCondition => ({ name, op: '<=', val }),
  in: (name: string, val: readonly unknown[]): FilterCondition => ({ name, op: 'in', val: [...val] }),
  notIn: (name: string, val: readonly unknown[]): FilterCondition => ({ name, op: 'not_in', val: [...val] }),
  isNull: (name: string): FilterCondition => ({ name, op: 'is_null' }),
  isNotNull: (name: string): FilterCondition => ({ name, op: 'is_not_null' }),
  like: (name: string, pattern: string): FilterCondition => ({ name, op: 'like', val: pattern }),
  ilike: (name: string, pattern: string): FilterCondition => ({ name, op: 'ilike', val: pattern }),
  /** Nested condition on the field (docs/design-decisions.md "Routing engine" says what `has`/`any` mean on flat tables). */
  has: (name: string, cond: Omit<FilterCondition, 'name'>): FilterCondition => ({ name, op: 'has', val: cond }),
  any: (name: string, conds: Omit<FilterCondition, 'name'>[]): FilterCondition => ({ name, op: 'any', val: conds }),
  /** Compares two fields of the same row, e.g. `f.field('a', '<', 'b')`. */
  field: (name: string, op: '==' | '!=' | '>' | '<' | '>=' | '<=', other: string): FilterCondition => ({
    name,
    op,
    field: other,
  }),
  and: (...filters: Filter[]): Filter => ({ and: filters }),
  or: (...filters: Filter[]): Filter => ({ or: filters }),
};

/** Builds a query; `orderBy` entries are `field` (ascending) or `-field` (descending). */
export function query(filters: Filter[] = [], orderBy: string[] = []): RoutingQuery {
  const q: RoutingQuery = {};
  if (filters.length) q.filters = filters;
  if (orderBy.length) {
    q.order_by = orderBy.map((o) =>
      o.startsWith('-') ? { field: o.slice(1), direction: 'desc' } : { field: o, direction: 'asc' },
    );
  }
  return q;
}

/** The `q=…` URL parameter, JSON then percent-encoded (Doc3 §4.1: special characters must be encoded). */
export function encodeQuery(q: RoutingQuery): string {
  return `q=${encodeURIComponent(JSON.stringify(q))}`;
}

/** The filter that targets exactly these ids (collection updates). */
export function idsFilter(ids: readonly number[]): Filter[] {
  return [{ name: 'id', op: 'in', val: [...ids] }];
}

/**
 * The filter that matches rows by the values of their key fields: `in` for a one-field key,
 * else one `and` group per row under an `or`.
 */
export function keysFilter(key: readonly string[], rows: readonly Record<string, unknown>[]): Filter[] {
  if (key.length === 1) {
    const field = key[0] as string;
    return [
      f.in(
        field,
        rows.map((row) => row[field]),
      ),
    ];
  }
  return [{ or: rows.map((row) => ({ and: key.map((field) => f.eq(field, row[field])) })) }];
}
