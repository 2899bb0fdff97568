/**
 * Making untrusted text inert in GitHub-flavoured markdown. Values in a plan come from
 * manifests and from the live API, so a tenant named `<img src=x onerror=…>` or
 * `| @org/team` must neither inject HTML, break a table, ping anyone nor render as math.
 */
import { createHash } from 'node:crypto';
import { safeText } from '../core/safe-text.js';

/**
 * What inline markdown, HTML, mentions, issue references or math act on wherever it stands:
 * escaped always. Block syntax (`-`, `+`, `=`, `1.` at the start of a line) needs no
 * escaping: escaped text is one line (newlines come out as `\u000a`) and never starts one.
 * Numeric character references are decoded after parsing, so they display as the character
 * and do nothing else, inside `<code>`, a table cell or plain text alike.
 */
const ALWAYS_SPECIAL = '\\\\`*[\\]#|<>&~@$';

/**
 * Characters that form markup only in some places, escaped there alone so that times,
 * addresses, file positions and codes stay readable in the raw text (`15:10`, `a.yaml:6:3`,
 * `SB_POLICY`):
 * - `:` opening `://` (a URL autolink, whatever the scheme) or an emoji shortcode
 *   (`:name:`; `:10:` of a time is none, 3 digits or more may be: `:100:`);
 * - `.` after `www` (GitHub's `www.` autolink);
 * - `_` unless a letter or digit stands before it: such a `_` can never open emphasis
 *   (CommonMark's flanking rules), so with every other `_` escaped no emphasis can form
 *   (`SB_POLICY` stays as it is, `_x_` does not).
 * `!` and `(` `)` need nothing: an image or a link needs `[` `]`, which are always escaped.
 */
const SPECIAL = new RegExp(
  [
    `[${ALWAYS_SPECIAL}]`,
    ':(?=//)',
    ':(?=(?:[\\p{L}_+-][\\p{L}\\p{N}_+-]*|\\p{N}[\\p{L}\\p{N}_+-]*[\\p{L}_+-][\\p{L}\\p{N}_+-]*|\\p{N}{3,}):)',
    '(?<=www)\\.',
    '(?<![\\p{L}\\p{N}])_',
  ].join('|'),
  'giu',
);

/** `s` made inert for inline markdown/HTML (control characters escaped, specials as `&#NN;`). */
export function escapeMd(s: string): string {
  return safeText(s).replace(SPECIAL, (c) => `&#${c.charCodeAt(0)};`);
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

/**
 * A name (an address, a manifest position) cut as {@link cut} does, ending with a fingerprint
 * of the whole: two names that differ only past the cut still read differently in review.
 */
export function cutName(s: string, max: number): string {
  if (s.length <= max) return s;
  const fingerprint = createHash('sha256').update(s).digest('hex').slice(0, 8);
  return `${cut(s, max - fingerprint.length - 1)}#${fingerprint}`;
}
