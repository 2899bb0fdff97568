/**
 * Regular expressions taken from manifests (a Policy's `pattern`, `where: {pattern}`),
 * compiled with RE2 semantics (re2js, a port of RE2): matching runs in time linear in the
 * text, whatever the pattern, so a pattern written to backtrack (`^(a+)+$`) cannot stall a
 * plan that a pull request triggers. RE2 has no backreferences and no lookaround; a
 * pattern RE2 cannot compile is a manifest error at its position.
 */
import { requiredOnFirstUse } from '../core/on-first-use.js';
import type { RE2JS as RE2JSClass } from 're2js';

/**
 * re2js, loaded when the first pattern is compiled: most runs have none, and its module is the
 * largest a plan would otherwise compile at start (260 kB). Its CommonJS build: required
 * synchronously, as a pattern is compiled while a document is built.
 */
const re2js = requiredOnFirstUse<typeof import('re2js')>('re2js');
function engine(): typeof RE2JSClass {
  return re2js().RE2JS;
}

/** A compiled manifest pattern: its source as written, and an unanchored test (as `RegExp.test`). */
export interface LinearPattern {
  readonly source: string;
  test(text: string): boolean;
}

/** Distinct texts whose answer a pattern remembers, and the longest one it remembers. */
const REMEMBERED_TEXTS = 4096;
const REMEMBERED_LENGTH = 256;

/**
 * The pattern, or the reason RE2 cannot compile it. A rule tests one field of every object
 * or row, and most fields take few values (a million rows routed to forty trunks): each
 * pattern remembers its answer for the first {@link REMEMBERED_TEXTS} distinct short texts,
 * so a repeated value is one map lookup instead of a run of re2js (about 0.3 µs each).
 */
export function compileLinearPattern(source: string): LinearPattern | { error: string } {
  try {
    const compiled = engine().compile(source);
    const answers = new Map<string, boolean>();
    const test = (text: string): boolean => {
      const known = answers.get(text);
      if (known !== undefined) return known;
      const answer = compiled.test(text);
      if (answers.size < REMEMBERED_TEXTS && text.length <= REMEMBERED_LENGTH) answers.set(text, answer);
      return answer;
    };
    return { source, test };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { error: message.replace(/^error parsing regexp: /, '') };
  }
}
