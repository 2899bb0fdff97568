import type { Comparison } from './types.js';

/** The comparison as one JSON document (types.ts), for scripts. */
export function renderCompareJson(c: Comparison): string {
  return `${JSON.stringify(c, null, 2)}\n`;
}
