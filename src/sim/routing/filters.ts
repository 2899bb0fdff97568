import { SimHttpError, type SimRow } from './types.js';
import type { SimTable } from './table.js';

/**
 * The `q` filter language of Doc3 §4.1 (Flask-Restless 0.x): a list of conditions
 * `{name, op, val}` (or `{name, op, field}` to compare two fields), AND-ed together, with
 * `{and: [...]}` / `{or: [...]}` groups nested at any depth.
 */
export type RowPredicate = (row: SimRow) => boolean;

/** Spec operator names plus the Flask-Restless word aliases. */
const ALIASES: Record<string, string> = {
  eq: '==',
  equals: '==',
  equal_to: '==',
  neq: '!=',
  ne: '!=',
  does_not_equal: '!=',
  not_equal_to: '!=',
  gt: '>',
  lt: '<',
  ge: '>=',
  gte: '>=',
  geq: '>=',
  le: '<=',
  lte: '<=',
  leq: '<=',
  not_in: 'not_in',
  in: 'in',
  is_null: 'is_null',
  is_not_null: 'is_not_null',
  like: 'like',
  ilike: 'ilike',
  has: 'has',
  any: 'any',
};
for (const op of ['==', '!=', '>', '<', '>=', '<=']) ALIASES[op] = op;

/** Compiles a filter list into a predicate; throws 400 for a malformed filter. */
export function compileFilters(filters: unknown, table: SimTable): RowPredicate {
  if (filters === undefined || filters === null) return () => true;
  if (!Array.isArray(filters)) throw bad('"filters" must be an array');
  const parts = filters.map((f) => compileNode(f, table));
  return (row) => parts.every((p) => p(row));
}

function compileNode(node: unknown, table: SimTable): RowPredicate {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) throw bad('a filter must be an object');
  const obj = node as Record<string, unknown>;
  if ('or' in obj || 'and' in obj) {
    const list = obj['or'] ?? obj['and'];
    if (!Array.isArray(list)) throw bad('"and" / "or" must hold an array of filters');
    const parts = list.map((f) => compileNode(f, table));
    return 'or' in obj ? (row) => parts.some((p) => p(row)) : (row) => parts.every((p) => p(row));
  }
  return compileCondition(obj, table);
}

function compileCondition(cond: Record<string, unknown>, table: SimTable): RowPredicate {
  const name = cond['name'];
  if (typeof name !== 'string') throw bad('a filter needs "name"');
  const type = fieldType(name, table);
  const op = ALIASES[String(cond['op'])];
  if (!op) throw bad(`unknown operator "${String(cond['op'])}"`);
  if (op === 'is_null') return (row) => row[name] === null;
  if (op === 'is_not_null') return (row) => row[name] !== null;
  if (op === 'has' || op === 'any') return compileNested(name, op, cond['val'], table);
  if (typeof cond['field'] === 'string') {
    const other = cond['field'];
    fieldType(other, table);
    return (row) => compare(op, row[name], row[other]);
  }
  if (!('val' in cond)) throw bad(`operator "${op}" needs "val"`);
  const val = coerce(cond['val'], type, op);
  if (op === 'in' || op === 'not_in') {
    if (!Array.isArray(val)) throw bad(`operator "${op}" needs an array "val"`);
    const set = new Set(val);
    return op === 'in' ? (row) => set.has(row[name]) : (row) => row[name] !== null && !set.has(row[name]);
  }
  if (op === 'like' || op === 'ilike') {
    if (typeof val !== 'string') throw bad(`operator "${op}" needs a string "val"`);
    const re = likeToRegExp(val, op === 'ilike');
    return (row) => typeof row[name] === 'string' && re.test(row[name]);
  }
  // `== null` / `!= null` mean IS NULL / IS NOT NULL, as SQLAlchemy renders them.
  if (val === null && op === '==') return (row) => row[name] === null;
  if (val === null && op === '!=') return (row) => row[name] !== null;
  return (row) => compare(op, row[name], val);
}

/**
 * `has` and `any` test a relationship in Flask-Restless; routing tables are flat, so a
 * column is treated as a one-element collection: `val` is a nested condition (its `name`
 * defaults to the same field) that must hold for the row (docs/design-decisions.md "Routing engine").
 * `any` also accepts an array of nested conditions, true when one of them holds.
 */
function compileNested(name: string, op: string, val: unknown, table: SimTable): RowPredicate {
  const list = op === 'any' && Array.isArray(val) ? val : [val];
  const parts = list.map((v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw bad(`operator "${op}" needs a nested condition in "val"`);
    return compileNode({ name, ...(v as Record<string, unknown>) }, table);
  });
  return (row) => parts.some((p) => p(row));
}

function compare(op: string, a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return (a as number) > (b as number);
    case '<':
      return (a as number) < (b as number);
    case '>=':
      return (a as number) >= (b as number);
    case '<=':
      return (a as number) <= (b as number);
    default:
      throw bad(`unknown operator "${op}"`);
  }
}

function fieldType(name: string, table: SimTable): string {
  if (name === 'id') return 'integer';
  const def = table.fields.get(name);
  if (!def) throw bad(`no such field "${name}" in table ${table.name}`);
  return def.type;
}

/** Casts `val` to the column type as the database would bind it; 400 when it cannot. */
function coerce(val: unknown, type: string, op: string): unknown {
  if (Array.isArray(val)) return val.map((v) => coerce(v, type, op));
  if (val === null || op === 'like' || op === 'ilike') return val;
  if (
    (type === 'integer' || type === 'number') &&
    typeof val === 'string' &&
    val.trim() !== '' &&
    Number.isFinite(Number(val))
  )
    return Number(val);
  if (type === 'string' && (typeof val === 'number' || typeof val === 'boolean')) return String(val);
  if (type === 'boolean' && (val === 'true' || val === 'false')) return val === 'true';
  const ok =
    type === 'string'
      ? typeof val === 'string'
      : type === 'boolean'
        ? typeof val === 'boolean'
        : typeof val === 'number';
  if (!ok) throw bad(`value ${JSON.stringify(val)} does not fit a ${type} column`);
  return val;
}

const likeCache = new Map<string, RegExp>();
function likeToRegExp(pattern: string, insensitive: boolean): RegExp {
  const key = `${insensitive ? 'i' : 's'}:${pattern}`;
  let re = likeCache.get(key);
  if (!re) {
    let src = '';
    for (const ch of pattern)
      src += ch === '%' ? '[\\s\\S]*' : ch === '_' ? '[\\s\\S]' : ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    re = new RegExp(`^${src}$`, insensitive ? 'i' : '');
    if (likeCache.size > 1000) likeCache.clear();
    likeCache.set(key, re);
  }
  return re;
}

/**
 * Ids that can satisfy the filter, from an index, when a top-level condition is `==` or `in`
 * on `id` or on a single-column unique field; null means "scan every row".
 */
export function indexedCandidates(filters: unknown, table: SimTable): number[] | null {
  if (!Array.isArray(filters)) return null;
  for (const f of filters) {
    if (typeof f !== 'object' || f === null) continue;
    const { name, op, val } = f as Record<string, unknown>;
    const canon = ALIASES[String(op)];
    if (typeof name !== 'string' || (canon !== '==' && canon !== 'in')) continue;
    const values = canon === 'in' ? (Array.isArray(val) ? val : null) : [val];
    if (!values) continue;
    if (name === 'id') return values.map(Number).filter((id) => table.rows.has(id));
    const index = table.uniqueIndexOf(name);
    if (!index) continue;
    const ids: number[] = [];
    for (const v of values) {
      const id = v === null || v === undefined ? undefined : index.get(String(v));
      if (id !== undefined) ids.push(id);
    }
    return ids;
  }
  return null;
}

function bad(message: string): SimHttpError {
  return new SimHttpError(400, `Unable to construct query: ${message}`);
}
