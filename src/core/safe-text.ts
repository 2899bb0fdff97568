/**
 * Text from manifests, plan files, journals or the platform, made safe to print on a
 * terminal or in a review. Control characters (C0, DEL, C1), bidi overrides and zero-width
 * characters could rewrite a terminal (ANSI escapes, a carriage return over a line) or hide
 * text in a review ("Trojan Source"); they are shown escaped (`\u001b`) instead. The
 * renderers use it for every value they print, and so does every other line the command
 * line prints (diagnostics, errors, notes, summaries).
 */

const UNSAFE_CHARS =
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** `s` with unsafe characters escaped as `\uXXXX`; everything else untouched. */
export function safeText(s: string): string {
  return s.replace(UNSAFE_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** {@link safeText} for a message of several lines: its line breaks (`\n`) are kept. */
export function safeLines(s: string): string {
  return s.split('\n').map(safeText).join('\n');
}
