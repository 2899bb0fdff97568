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
