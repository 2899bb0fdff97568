import type { JsonScalar, PolicyCondition, PolicyMatch } from '../../manifest/index.js';
import { matchesPattern } from '../targets.js';
import { valueText } from './facts.js';

/**
 * `match.where`: each test of a field's value. A field the object does not have (undeclared,
 * or absent from a row) reads as null: `where: { suspensionProfile: null }` matches it.
 */
export function passes(test: PolicyCondition, value: unknown): boolean {
  const v = value === undefined ? null : value;
  switch (test.type) {
    case 'equals':
      return same(v, test.value);
    case 'in':
      return test.values.some((candidate) => same(v, candidate));
    case 'not':
      return !same(v, test.value);
    case 'pattern':
      return v !== null && test.pattern.test(valueText(v));
  }
}

/** Scalars compare by value; a number and its text are the same (CSV cells, `"10"` house numbers). */
function same(value: unknown, expected: JsonScalar): boolean {
  if (value === expected) return true;
  if (value === null || expected === null) return false;
  return typeof value !== 'object' && valueText(value) === valueText(expected);
}

/** Whether an object (address and fields) is one the rule's match selects. */
export function matchesObject(match: PolicyMatch, address: string, fields: Readonly<Record<string, unknown>>): boolean {
  if (match.table !== undefined && !address.startsWith(`${match.table}/`)) return false;
  if (match.address !== undefined && !matchesPattern(match.address, address)) return false;
  for (const { field, test } of match.where) if (!passes(test, fields[field])) return false;
  return true;
}
