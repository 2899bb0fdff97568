import type { RoutingFieldType, RoutingRecord } from './types.js';

/** Turns a manifest cell into a typed value; returns BAD when it cannot. */
export type Caster = (value: unknown) => unknown;

/** Marks a cell that does not fit its column type. */
export const BAD: unique symbol = Symbol('bad value');

/**
 * How a cell becomes a typed value. CSV cells are strings: they are parsed by the column
 * type, and '' means null for non-string columns (a string column keeps '' as '').
 * Values that are already typed (YAML records) pass through, except numbers and booleans
 * given for a string column, which are written as strings.
 */
export function casterFor(type: RoutingFieldType | undefined): Caster {
  switch (type) {
    case 'integer':
      return (v) => {
        if (typeof v !== 'string') return isUnsafeInteger(v) ? BAD : v;
        if (v.trim() === '') return null;
        return /^\s*[+-]?\d+\s*$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : BAD;
      };
    case 'number':
      return (v) => {
        if (typeof v !== 'string') return isUnsafeInteger(v) ? BAD : v;
        if (v.trim() === '') return null;
        const n = Number(v);
        return Number.isFinite(n) && !isUnsafeIntegerText(v) ? n : BAD;
      };
    case 'boolean':
      return (v) => {
        if (typeof v !== 'string') return v;
        const s = v.trim().toLowerCase();
        if (s === '') return null;
        if (s === 'true' || s === '1' || s === 'yes') return true;
        return s === 'false' || s === '0' || s === 'no' ? false : BAD;
      };
    case 'string':
      return (v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v);
    default:
      return (v) => v;
  }
}

/**
 * Integers beyond 2^53 have no exact double: `9007199254740993` would be stored as
 * `…992`, and the next plan, comparing doubles, would call it in sync. Such a value is
 * refused for numeric columns; declared as a string in `spec.fields`, it is kept as text.
 */
export function isUnsafeInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);
}

/** Whether `text` is an integer literal that no double holds exactly. */
export function isUnsafeIntegerText(text: string): boolean {
  return /^\s*[+-]?\d+\s*$/.test(text) && !Number.isSafeInteger(Number(text));
}

/** Casters per field, resolved once: the declared type first, else the first non-null live value's type. */
export function casterTable(
  live: readonly RoutingRecord[],
  declared: Readonly<Record<string, RoutingFieldType>>,
): (field: string) => Caster {
  const cache = new Map<string, Caster>();
  return (field) => {
    let caster = cache.get(field);
    if (!caster) cache.set(field, (caster = casterFor(declared[field] ?? liveTypeOf(live, field))));
    return caster;
  };
}

/** The type of a column's first non-null live value; undefined when no live row gives it one. */
export function liveTypeOf(live: readonly RoutingRecord[], field: string): RoutingFieldType | undefined {
  for (const row of live) {
    const v = row[field];
    if (v === null || v === undefined) continue;
    if (typeof v === 'boolean') return 'boolean';
    if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
    return 'string';
  }
  return undefined;
}
