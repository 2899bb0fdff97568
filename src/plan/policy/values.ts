import type { PolicyCheck } from '../../manifest/index.js';
import { valueText, type ReferenceValues } from './facts.js';

/** A value check of a rule on one object: a problem, or undefined when the value passes. */
export type ValueCheck = (value: unknown) => string | undefined;

/**
 * The value test of a `limit` (on a field), `require` or `reference` rule, built once per
 * rule and run per object (a million routing rows: no allocation per passing row). A field
 * the object does not declare is unmanaged: limit and reference leave it alone; require
 * says whether it must be there.
 */
export function valueCheck(check: PolicyCheck, references: ReferenceValues): ValueCheck | undefined {
  switch (check.type) {
    case 'limit':
      return check.field === undefined ? undefined : limitCheck(check.field, check.min, check.max);
    case 'require':
      return requireCheck(check);
    case 'reference': {
      if (!references) return undefined;
      const target = check.table ?? check.kind ?? '';
      return (value) => {
        if (value === null || value === undefined) return undefined;
        const text = valueText(value);
        return references.has(text) ? undefined : `${check.field} "${text}" names no ${check.key} of ${target}`;
      };
    }
    default:
      return undefined;
  }
}

/** A number within min and max; `what` names it in the message. */
export function limitCheck(what: string, min: number | undefined, max: number | undefined): ValueCheck {
  return (value) => {
    if (value === null || value === undefined) return undefined;
    const n =
      typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    if (!Number.isFinite(n)) return `${what} is ${JSON.stringify(value)}, not a number`;
    if (min !== undefined && n < min) return `${what} is ${n}, below the minimum ${min}`;
    if (max !== undefined && n > max) return `${what} is ${n}, above the maximum ${max}`;
    return undefined;
  };
}

function requireCheck(check: Extract<PolicyCheck, { type: 'require' }>): ValueCheck {
  const { field, present, pattern, oneOf } = check;
  const allowed = oneOf?.map((v) => (v === null ? null : valueText(v)));
  return (value) => {
    const absent = value === null || value === undefined;
    if (!present) return absent ? undefined : `declares ${field}, which must be left out`;
    if (absent) return `declares no ${field}`;
    const text = valueText(value);
    if (pattern && !pattern.test(text)) return `${field} "${text}" does not match ${pattern.source}`;
    if (allowed && !allowed.includes(text))
      return `${field} "${text}" is not one of ${allowed.map((v) => (v === null ? 'null' : v)).join(', ')}`;
    return undefined;
  };
}
