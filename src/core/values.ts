/** A JSON object: not null, not a list. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An identity as a person would read it: surrounding spaces dropped, case folded. Two keys
 * with the same folded form (`SIP:ALICE@X.EXAMPLE ` and `sip:alice@x.example`) are most
 * likely meant to be one object, and a plan that creates one next to the other says so.
 */
export function foldIdentity(text: string): string {
  return text.trim().toLowerCase();
}

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
