/** Joins the values of a multi-field key (a character no key value holds). */
export const SEP = '\u001f';

/** `field=value[,field=value…]`, the tail of a routing address (docs/plans.md). */
export function label(row: Record<string, unknown>, key: readonly string[]): string {
  return key.map((k) => `${k}=${String(row[k])}`).join(',');
}
