/**
 * How a routing table's cell becomes a value of its column type: the one parser of the
 * manifest loader (a type `spec.fields` declares) and of the row diff (a type the live values
 * give), so that a CSV and the same rows written inline, declared or typed by the engine,
 * plan the same (docs/routing.md, "Row identity and typed comparison").
 */
import type { ScalarColumnType } from './values.js';

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
export function cellCaster(type: ScalarColumnType | undefined): Caster {
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
        // Decimal text only: Number() would also read `0x10`, `0b11` or `Infinity`, which an engine keeps as text.
        return NUMERIC_TEXT.test(v) && !isUnsafeIntegerText(v) ? Number(v) : BAD;
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
      // A YAML number beyond 2^53 was rounded when it was read: its text would not be the one written.
      return (v) => (isUnsafeInteger(v) ? BAD : typeof v === 'number' || typeof v === 'boolean' ? String(v) : v);
    default:
      return (v) => (isUnsafeInteger(v) ? BAD : v);
  }
}

export const NUMERIC_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * A CSV cell as the value of its column type, the one parser of the loader (a declared type)
 * and the diff (a type the live values give): BAD when it does not fit.
 */
export function castCell(type: ScalarColumnType | undefined, cell: string): unknown {
  return cellCaster(type)(cell);
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
