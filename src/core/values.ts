import { withoutInvisibles } from './safe-text.js';

/** A JSON object: not null, not a list. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An identity as a person would read it: characters that display as nothing dropped
 * (zero-width, soft hyphen, variation selectors, tag characters: safe-text.ts), compatibility
 * forms unified (NFKC: full-width `ａｃｍｅ` is `acme`), surrounding spaces dropped, case
 * folded. Two keys with the same folded form (`SIP:ALICE@X.EXAMPLE ` and
 * `sip:alice@x.example`, `glo\u00adbex` and `globex`) are most likely meant to be one
 * object, and a plan that creates one next to the other says so. For such warnings only:
 * an address or a key is always matched byte for byte.
 */
export function foldIdentity(text: string): string {
  // Printable ASCII holds nothing invisible and is its own NFKC form: most names, on every plan.
  if (PRINTABLE_ASCII.test(text)) return text.trim().toLowerCase();
  return withoutInvisibles(text).normalize('NFKC').trim().toLowerCase();
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** What {@link foldIdentity} disregards, as a warning names it ("the addresses differ only by …"). */
export const FOLDED_AWAY = 'case, surrounding spaces, invisible characters or compatibility forms (NFKC)';

/** The scalar column types of a routing table (Document 3): what a row's cell may be declared as. */
export type ScalarColumnType = 'string' | 'integer' | 'number' | 'boolean';

/** Whether a value fits a declared column type (an integer is a number too). */
export function fitsColumnType(value: unknown, type: ScalarColumnType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
  }
}
