/**
 * The forms a secret takes when a server, a proxy or a log quotes it, for the secrets
 * registry (secrets.ts, secret-search.ts). Two halves:
 *
 * - forms that are other strings of the secret's bytes, searched as literals: the secret
 *   itself and its base64 in each of the three alignments it can have inside a longer
 *   base64 text (an `Authorization: Basic` header, a base64 body), standard and URL-safe;
 * - escapes, undone on the text instead: a view of the text with one kind of escape
 *   decoded (JSON's `\/`, `\"`, `\uXXXX` in either case; URL's `%HH` in either case and
 *   `+` for a space; HTML's `&#NN;`, `&#xHH;` and named entities), each kind apart because
 *   they contradict each other (`%41` is a secret's own text to a JSON decoder), and again
 *   on the views up to three levels (a JSON body quoted in a JSON message in a JSON log
 *   line, a URL-encoded value in a JSON message). Each view can say where a span of its
 *   text lies in the original, so that a secret found in it is masked where it is.
 */

/** More characters than one character of a secret takes escaped (18 for `\\\\ud83d\\\\ude80`, 20 for `%25F0%259F%259A%2580`). */
export const MAX_ESCAPED_CHAR_LENGTH = 24;

/** The literal forms of a secret: itself, and its base64 in each alignment, both alphabets. */
export function literalForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = [value];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // The characters made of the secret's bits only: the first ones also hold the bytes
    // before it, the last one the bytes after it.
    const slice = encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
    forms.push(slice, slice.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return forms;
}

/**
 * A text with one kind of escape decoded, and where its parts come from in the text it
 * decodes (`source`): a list of segments, each either copied as is or one decoded escape.
 * Segments are few (two per escape), so decoding costs string operations, not a number per
 * character.
 */
export class DecodedView {
  /** Where each segment starts in this view's text, and where its source starts and ends. */
  private readonly viewAt: number[] = [];
  private readonly sourceAt: number[] = [];
  /** -1 for a copied segment; the index after the escape for a decoded one. */
  private readonly sourceEnd: number[] = [];
  private readonly parts: string[] = [];
  private length = 0;
  text = '';

  constructor(
    readonly source: string,
    /** The view `source` is, or undefined when it is the original text. */
    readonly parent?: DecodedView,
  ) {}

  copy(from: number, to: number): void {
    if (to <= from) return;
    const last = this.viewAt.length - 1;
    const adjoins =
      last >= 0 &&
      this.sourceEnd[last] === -1 &&
      (this.sourceAt[last] as number) + (this.length - (this.viewAt[last] as number)) === from;
    if (!adjoins) this.segment(from, -1);
    this.parts.push(this.source.slice(from, to));
    this.length += to - from;
  }

  /** A decoded character (one or two UTF-16 units), from the escape at `[at, end)` of the source. */
  add(char: string, at: number, end: number): void {
    this.segment(at, end);
    this.parts.push(char);
    this.length += char.length;
  }

  /** Ends the view: the rest of the source from `from` is copied. */
  end(from: number): this {
    this.copy(from, this.source.length);
    this.text = this.parts.join('');
    this.parts.length = 0;
    return this;
  }

  /** Where index `i` of this view's text is in the original text (`end`: as the end of a span). */
  toOriginal(i: number, end: boolean): number {
    const inSource = this.toSource(i, end);
    return this.parent ? this.parent.toOriginal(inSource, end) : inSource;
  }

  private toSource(i: number, end: boolean): number {
    if (i >= this.text.length) return this.source.length;
    let low = 0;
    let high = this.viewAt.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.viewAt[middle] as number) <= i) low = middle;
      else high = middle - 1;
    }
    const start = this.viewAt[low] as number;
    const sourceAt = this.sourceAt[low] as number;
    const sourceEnd = this.sourceEnd[low] as number;
    if (sourceEnd === -1) return sourceAt + (i - start);
    // Inside a decoded character (the second half of a surrogate pair): its escape as a whole.
    return i === start || !end ? sourceAt : sourceEnd;
  }

  private segment(sourceAt: number, sourceEnd: number): void {
    this.viewAt.push(this.length);
    this.sourceAt.push(sourceAt);
    this.sourceEnd.push(sourceEnd);
  }
}

/** Decodes `view.source` into `view`, and returns it ended. */
type Decoder = (view: DecodedView) => DecodedView;

const JSON_SHORT: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const HEX4 = /^[0-9a-fA-F]{4}$/;
const HEX2 = /^[0-9a-fA-F]{2}$/;

/** Decodes JSON string escapes: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX`. */
const decodeJson: Decoder = (out) => {
  const text = out.source;
  let i = 0;
  for (let at = text.indexOf('\\'); at >= 0 && at + 1 < text.length; at = text.indexOf('\\', i)) {
    out.copy(i, at);
    const e = text[at + 1] as string;
    const short = JSON_SHORT[e];
    if (short !== undefined) {
      out.add(short, at, at + 2);
      i = at + 2;
    } else if (e === 'u' && HEX4.test(text.slice(at + 2, at + 6))) {
      out.add(String.fromCharCode(Number.parseInt(text.slice(at + 2, at + 6), 16)), at, at + 6);
      i = at + 6;
    } else {
      out.copy(at, at + 1);
      i = at + 1;
    }
  }
  return out.end(i);
};

/** Decodes URL escapes: runs of `%HH` as UTF-8, and `+` as a space when `plusIsSpace`. */
function urlDecoder(plusIsSpace: boolean): Decoder {
  const next = plusIsSpace ? /[%+]/g : /%/g;
  return (out) => {
    const text = out.source;
    let i = 0;
    for (next.lastIndex = 0; next.test(text); next.lastIndex = i) {
      const at = next.lastIndex - 1;
      out.copy(i, at);
      if (text[at] === '+') {
        out.add(' ', at, at + 1);
        i = at + 1;
        continue;
      }
      // A run of escaped bytes, decoded as UTF-8 character by character.
      const bytes: number[] = [];
      i = at;
      while (text[i] === '%' && HEX2.test(text.slice(i + 1, i + 3))) {
        bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
        i += 3;
      }
      if (bytes.length === 0) {
        out.copy(at, at + 1);
        i = at + 1;
      } else addUtf8(out, bytes, at);
    }
    return out.end(i);
  };
}

/** Adds UTF-8 `bytes` (written `%HH` from `at` on) as characters; a byte that starts no valid sequence is U+FFFD. */
function addUtf8(out: DecodedView, bytes: number[], at: number): void {
  let k = 0;
  while (k < bytes.length) {
    const lead = bytes[k] as number;
    const length =
      lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead < 0xf5 ? 4 : 0;
    let decoded = '\ufffd';
    let used = 1;
    if (length > 0 && k + length <= bytes.length) {
      const text = Buffer.from(bytes.slice(k, k + length)).toString('utf8');
      if (!text.includes('\ufffd')) {
        decoded = text;
        used = length;
      }
    }
    out.add(decoded, at + 3 * k, at + 3 * (k + used));
    k += used;
  }
}

const NAMED: Record<string, number> = { amp: 0x26, lt: 0x3c, gt: 0x3e, quot: 0x22, apos: 0x27 };

/** Decodes HTML character references: `&#NN;`, `&#xHH;`, `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`. */
const decodeHtml: Decoder = (out) => {
  const text = out.source;
  const reference = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/y;
  let i = 0;
  for (let at = text.indexOf('&'); at >= 0; at = text.indexOf('&', i)) {
    out.copy(i, at);
    reference.lastIndex = at;
    const match = reference.exec(text);
    const code = !match
      ? undefined
      : match[1]
        ? Number(match[1])
        : match[2]
          ? Number.parseInt(match[2], 16)
          : NAMED[match[3] ?? ''];
    if (match && code !== undefined && code <= 0x10ffff) {
      out.add(String.fromCodePoint(code), at, at + match[0].length);
      i = at + match[0].length;
    } else {
      out.copy(at, at + 1);
      i = at + 1;
    }
  }
  return out.end(i);
};

/** A kind of escape: whether a text may hold one (a cheap test), and the text with them decoded. */
interface Unescaper {
  applies(text: string): boolean;
  decode: Decoder;
}

const JSON_ESCAPES: Unescaper = { applies: (t) => t.includes('\\'), decode: decodeJson };
const HTML_ESCAPES: Unescaper = { applies: (t) => t.includes('&'), decode: decodeHtml };
const URL_ESCAPES: Unescaper = { applies: (t) => t.includes('%'), decode: urlDecoder(false) };
const URL_ESCAPES_PLUS_IS_SPACE: Unescaper = {
  applies: (t) => t.includes('%') || t.includes('+'),
  decode: urlDecoder(true),
};

/** How many escapes deep a secret is looked for (a JSON body in a JSON message in a JSON log line). */
const MAX_LEVELS = 3;

/**
 * The decoded views of `text`, each kind of escape apart and nested up to three levels.
 * JSON and URL escapes nest in either order (a URL-encoded value in a JSON message, JSON in
 * a query string), URL at most twice; HTML references are undone last (a JSON text is not
 * HTML-escaped inside). A view is made only when its text holds the escape's first
 * character, and once: the same text decoded in another order is not searched again.
 */
export function decodedViews(text: string, plusIsSpace: boolean): DecodedView[] {
  const url = plusIsSpace ? URL_ESCAPES_PLUS_IS_SPACE : URL_ESCAPES;
  const views: DecodedView[] = [];
  const seen = new Set<string>([text]);
  type Step = { text: string; view?: DecodedView; urls: number; html: boolean };
  let frontier: Step[] = [{ text, urls: 0, html: false }];
  for (let level = 0; level < MAX_LEVELS && frontier.length > 0; level++) {
    const next: Step[] = [];
    for (const { text: source, view, urls, html } of frontier) {
      if (html) continue;
      for (const unescaper of [JSON_ESCAPES, url, HTML_ESCAPES]) {
        if ((unescaper === url && urls >= 2) || !unescaper.applies(source)) continue;
        const decoded = unescaper.decode(new DecodedView(source, view));
        if (seen.has(decoded.text)) continue;
        seen.add(decoded.text);
        views.push(decoded);
        const urlsNow = urls + (unescaper === url ? 1 : 0);
        next.push({ text: decoded.text, view: decoded, urls: urlsNow, html: unescaper === HTML_ESCAPES });
      }
    }
    frontier = next;
  }
  return views;
}
