/**
 * Regular expressions taken from manifests (a Policy's `pattern`, `where: {pattern}`),
 * compiled with RE2 semantics (re2js, a port of RE2): matching runs in time linear in the
 * text, whatever the pattern, so a pattern written to backtrack (`^(a+)+$`) cannot stall a
 * plan that a pull request triggers. RE2 has no backreferences and no lookaround; a
 * pattern RE2 cannot compile is a manifest error at its position.
 */
import { RE2JS } from 're2js';

/** A compiled manifest pattern: its source as written, and an unanchored test (as `RegExp.test`). */
export interface LinearPattern {
  readonly source: string;
  test(text: string): boolean;
}

/** The pattern, or the reason RE2 cannot compile it. */
export function compileLinearPattern(source: string): LinearPattern | { error: string } {
  try {
    const compiled = RE2JS.compile(source);
    return { source, test: (text) => compiled.test(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { error: message.replace(/^error parsing regexp: /, '') };
  }
}
