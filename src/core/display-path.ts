/**
 * How a path the user did not type (a default under the state dir, a folder the demo made) is
 * shown: relative to the current folder when inside it (`.switchboard/journal-….jsonl`, the
 * same line whatever the checkout's location), else absolute, so it can be opened as printed.
 */
import { relative } from 'node:path';
import { relativeLeadsInside } from './path-inside.js';

export function pathForDisplay(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return relativeLeadsInside(rel) ? rel : path.replace(/\/$/, '');
}
