/**
 * Making untrusted text inert in GitHub-flavoured markdown. Values in a plan come from
 * manifests and from the live API, so a tenant named `<img src=x onerror=…>` or
 * `| @org/team` must neither inject HTML, break a table, ping anyone nor render as math.
 */
import { safeText } from './render-common.js';

/**
 * Every character inline markdown, HTML, autolinks (`:` of a scheme, `.` of `www.`),
 * mentions, issue references or math could act on. Numeric character references are
 * decoded after parsing, so they display as the character and do nothing else, inside
 * `<code>`, a table cell or plain text alike. Block syntax (`-`, `+`, `=`, `1.` at the
 * start of a line) needs no escaping: escaped text is one line (newlines come out as
 * `\u000a`) and never starts one.
 */
const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#!|<>&~:@$.]/g;

/** `s` made inert for inline markdown/HTML (control characters escaped, specials as `&#NN;`). */
export function escapeMd(s: string): string {
  return safeText(s).replace(MARKDOWN_SPECIAL, (c) => `&#${c.charCodeAt(0)};`);
}

/** A code fence longer than any run of backticks in `text`, so `text` cannot close it. */
export function fence(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** `s` cut to at most `max` characters (never inside a surrogate pair), marked with `…`. */
export function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${s.slice(0, end)}…`;
}
