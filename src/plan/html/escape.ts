/** Escaping for the HTML report: every value from a plan passes one of these. */

/** Text for HTML content and attribute values (quoted with `"`): `& < > " '` as character references. */
export function escapeHtml(text: string): string {
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
