import { BAD, cellCaster, isUnsafeInteger, isUnsafeIntegerText, NUMERIC_TEXT, type Caster } from '../core/cell-cast.js';
import type { RoutingFieldType, RoutingRecord } from './types.js';

export { BAD, isUnsafeInteger, isUnsafeIntegerText, type Caster };

/**
 * Whether a declared value and a live value of another JSON type are the same value, as an
 * engine that converts what it is sent stores it (SQLite's type affinity under
 * Flask-Restless): `"5"` sent to an integer column is stored as 5, `5` sent to a text column
 * as `"5"`, `true` to an integer column as 1. Compared so, a row converges on such an
 * engine instead of showing `5 → "5"` on every plan. Numbers compare by value (`"05"` is 5),
 * and only within 2^53, where a double is exact.
 */
export function sameValue(want: unknown, have: unknown): boolean {
  if (typeof want === typeof have || want === null || have === null || have === undefined) return false;
  const number = (v: unknown): number | undefined =>
    typeof v === 'number'
      ? v
      : typeof v === 'boolean'
        ? Number(v)
        : typeof v === 'string' && NUMERIC_TEXT.test(v) && !isUnsafeIntegerText(v)
          ? Number(v)
          : undefined;
  if (typeof want === 'string' && typeof have === 'boolean')
    return want === (have ? '1' : '0') || want === String(have);
  if (typeof have === 'string' && typeof want === 'boolean')
    return have === (want ? '1' : '0') || have === String(want);
  const a = number(want);
  const b = number(have);
  return a !== undefined && b !== undefined && Number.isFinite(a) && a === b && Math.abs(a) <= Number.MAX_SAFE_INTEGER;
}

/** Casters per field, resolved once: the declared type first, else the first non-null live value's type. */
export function casterTable(
  live: readonly RoutingRecord[],
  declared: Readonly<Record<string, RoutingFieldType>>,
): (field: string) => Caster {
  const cache = new Map<string, Caster>();
  return (field) => {
    let caster = cache.get(field);
    if (!caster) cache.set(field, (caster = cellCaster(declared[field] ?? liveTypeOf(live, field))));
    return caster;
  };
}

/**
 * The type of a column's live values: its first non-null value's, except that a number
 * column is `integer` only when none of its values has a fraction (JSON writes 2.0 as 2, so
 * a whole first value says nothing). Undefined when no live row gives the column a value.
 */
export function liveTypeOf(live: readonly RoutingRecord[], field: string): RoutingFieldType | undefined {
  for (let i = 0; i < live.length; i++) {
    const v = (live[i] as RoutingRecord)[field];
    if (v === null || v === undefined) continue;
    if (typeof v === 'boolean') return 'boolean';
    if (typeof v !== 'number') return 'string';
    for (let j = i; j < live.length; j++) {
      const w = (live[j] as RoutingRecord)[field];
      if (typeof w === 'number' && !Number.isInteger(w)) return 'number';
    }
    return 'integer';
  }
  return undefined;
}
