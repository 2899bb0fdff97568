/**
 * How a path the user did not type (a default under the state dir, a folder the demo made) is
 * shown: relative to the current folder when inside it (`.switchboard/journal-….jsonl`, the
 * same line whatever the checkout's location), else absolute, so it can be opened as printed.
 */
import { isAbsolute, relative } from 'node:path';

export function pathForDisplay(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? path.replace(/\/$/, '') : rel;
}
