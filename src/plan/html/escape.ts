/** Escaping for the HTML report: every value from a plan passes one of these. */
import { safeText } from '../../core/safe-text.js';

/**
 * Text for HTML content and attribute values (quoted with `"`): `& < > " '` as character
 * references, and what safe-text.ts escapes (controls, format characters, default-ignorables)
 * as `\uXXXX`, so a value displays as it is and no name hides text or looks like another.
 */
export function escapeHtml(text: string): string {
  return escapeMarkup(safeText(text));
}

/**
 * A value the page's script compares with the plan's data (a filter's checkbox value): the
 * markup characters only, the value itself kept exact. Never for text a reader sees.
 */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON that can sit in a `<script type="application/json">` element: `<`, `>`, `&` and the
 * line separators as `\uXXXX` escapes (valid JSON, read back the same), so no value can
 * close the element (`</script>`) or open a comment.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
