/**
 * Text from manifests, plan files, journals or the platform, made safe to print on a
 * terminal or in a review. Control characters (C0, DEL, C1) could rewrite a terminal (ANSI
 * escapes, a carriage return over a line); format characters (bidi overrides, zero-width
 * characters, the soft hyphen, the Arabic letter mark, tag characters) and every other
 * default-ignorable code point (variation selectors, the combining grapheme joiner, Hangul
 * fillers) display as nothing, or reorder what is around them, and so hide text in a review
 * ("Trojan Source") or make two names look the same. They are shown escaped (`\u001b`)
 * instead. The renderers use it for every value they print, and so does every other line
 * the command line prints (diagnostics, errors, notes, summaries).
 */

/**
 * What is escaped: controls (`Cc`), format characters (`Cf`), default-ignorable code points,
 * lone surrogates (which print as `�`, whatever their value) and the line and paragraph
 * separators.
 */
const UNSAFE_CHARS = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cs}\u2028\u2029]/gu;

/** {@link UNSAFE_CHARS}' source, for the HTML reports' scripts (which cannot import this module). */
export const UNSAFE_PATTERN = UNSAFE_CHARS.source;

/** The characters that display as nothing (format characters and default-ignorable code points). */
const INVISIBLE_CHARS = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * `s` with unsafe characters escaped as `\uXXXX`; everything else untouched. A character
 * beyond U+FFFF is escaped as its surrogate pair (`\udb40\udc20` for U+E0020), as JSON
 * writes it: a JSON text passed through here still parses to the same value.
 */
export function safeText(s: string): string {
  return s.replace(UNSAFE_CHARS, (c) => {
    let escaped = '';
    for (let i = 0; i < c.length; i++) escaped += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return escaped;
  });
}

/** {@link safeText} for a message of several lines: its line breaks (`\n`) are kept. */
export function safeLines(s: string): string {
  return s.split('\n').map(safeText).join('\n');
}

/** `s` without the characters that display as nothing: for comparing names as a reader sees them, never for identity. */
export function withoutInvisibles(s: string): string {
  return s.replace(INVISIBLE_CHARS, '');
}
