import type { SimFieldType } from './types.js';

/** Marks a value the column cannot take (the engine answers 500, Doc3 §4.2 and §7). */
export const REFUSED: unique symbol = Symbol('refused');

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
const NUMBER_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * A value as an SQLite database behind Flask-Restless stores it (the `typeAffinity` quirk):
 * SQLite gives each column a type affinity and converts what it can, keeping the rest as it
 * came; SQLAlchemy's Boolean refuses anything but true, false, 1 and 0.
 *
 * - integer, number: text that reads as a number becomes it (`"5"` → 5, `" 2.5"` → 2.5),
 *   other text stays text (`"abc"`); a boolean becomes 1 or 0.
 * - string: a number becomes its text (`5` → `"5"`), a boolean `"1"` or `"0"`.
 * - boolean: true, false, 1 and 0; anything else is refused.
 */
export function withAffinity(value: unknown, type: SimFieldType): unknown {
  if (value === null) return null;
  switch (type) {
    case 'integer':
    case 'number':
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value === 'string' && (INTEGER_TEXT.test(value) || NUMBER_TEXT.test(value))) return Number(value);
      return typeof value === 'number' || typeof value === 'string' ? value : REFUSED;
    case 'string':
      if (typeof value === 'boolean') return value ? '1' : '0';
      if (typeof value === 'number') return String(value);
      return typeof value === 'string' ? value : REFUSED;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 1 || value === 0) return value === 1;
      return REFUSED;
  }
}
