/**
 * Finds the registered secrets in a text, in every form secret-forms.ts knows, at the cost
 * of a literal search for almost every text.
 *
 * Decoding the whole text for each kind of escape would cost a pass per view over texts of
 * megabytes (measured: 1.4 s for a batch of 10,000 routing-row journal lines holding `%2B`,
 * against 1 ms for the literal search). Instead, each form of a secret that holds a
 * character an escaper may change (anything but an ASCII letter or digit) has an anchor:
 * its longest run of letters and digits, which JSON, URL and HTML escapers all write as is.
 * Only around the places where an anchor occurs, in a window wide enough for the whole form
 * escaped (MAX_ESCAPED_CHAR_LENGTH per character either side) and holding each of the
 * form's other runs of letters and digits, is the text decoded.
 * A form with no letter or digit has no anchor: the whole text is decoded for it.
 */
import { MAX_ESCAPED_CHAR_LENGTH, decodedViews, literalForms, type DecodedView } from './secret-forms.js';

export class SecretSearch {
  private readonly needles = new Set<string>();
  /** Anchor → the forms it anchors: each form's length and its runs of letters and digits. */
  private readonly anchors = new Map<string, { length: number; runs: string[] }[]>();
  private unanchored = false;
  private plusIsSpace = false;
  private pattern: RegExp | undefined;
  private anchorPattern: RegExp | undefined;

  constructor(private readonly minLength: number) {}

  add(secret: string): void {
    if (secret.includes(' ')) this.plusIsSpace = true;
    for (const form of literalForms(secret)) {
      if (form.length < this.minLength || this.needles.has(form)) continue;
      this.needles.add(form);
      this.pattern = undefined;
      if (/^[A-Za-z0-9]*$/.test(form)) continue; // no escaper changes it: the literal search finds it
      const runs = (form.match(/[A-Za-z0-9]+/g) ?? []).sort((a, b) => b.length - a.length);
      const anchor = runs[0];
      if (anchor === undefined) this.unanchored = true;
      else this.anchors.set(anchor, [...(this.anchors.get(anchor) ?? []), { length: form.length, runs }]);
      this.anchorPattern = undefined;
    }
  }

  clear(): void {
    this.needles.clear();
    this.anchors.clear();
    this.unanchored = false;
    this.plusIsSpace = false;
    this.pattern = undefined;
    this.anchorPattern = undefined;
  }

  /** The spans `[start, end)` of `text` that hold a secret, in any form; overlapping spans may repeat. */
  spans(text: string): [number, number][] {
    const found: [number, number][] = [];
    this.search(text, 0, found);
    if (this.mayBeEscaped(text)) {
      for (const [start, end] of this.windows(text)) {
        const window = text.slice(start, end);
        for (const view of decodedViews(window, this.plusIsSpace)) this.search(view.text, start, found, view);
      }
    }
    return found;
  }

  /** Adds the literal matches in `text`: the original, or a view of the part of it at `offset`. */
  private search(text: string, offset: number, found: [number, number][], view?: DecodedView): void {
    if (this.needles.size === 0) return;
    this.pattern ??= new RegExp(
      [...this.needles]
        .sort((a, b) => b.length - a.length) // the longest form first: a secret inside another is masked whole
        .map(escapeRegExp)
        .join('|'),
      'g',
    );
    const pattern = this.pattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const start = match.index;
      const end = start + match[0].length;
      found.push(view ? [offset + view.toOriginal(start, false), offset + view.toOriginal(end, true)] : [start, end]);
    }
  }

  /** Whether the text holds an escape at all, and a form may be escaped in it. */
  private mayBeEscaped(text: string): boolean {
    if (this.anchors.size === 0 && !this.unanchored) return false;
    return text.includes('\\') || text.includes('%') || text.includes('&') || (this.plusIsSpace && text.includes('+'));
  }

  /** The parts of the text around each anchor found, merged where they overlap; the whole text for a form without one. */
  private windows(text: string): [number, number][] {
    if (this.unanchored) return [[0, text.length]];
    this.anchorPattern ??= new RegExp(
      [...this.anchors.keys()]
        .sort((a, b) => b.length - a.length)
        .map(escapeRegExp)
        .join('|'),
      'g',
    );
    const found: [number, number][] = [];
    const pattern = this.anchorPattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      pattern.lastIndex = match.index + 1;
      // Escaped, a form keeps its letters and digits as they are: the window must hold every run of one of them.
      for (const form of this.anchors.get(match[0]) ?? []) {
        const reach = form.length * MAX_ESCAPED_CHAR_LENGTH;
        let start = Math.max(0, match.index - reach);
        // A run of backslashes is taken whole: which of them escape which depends on where it starts.
        while (start > 0 && text[start - 1] === '\\') start--;
        const end = Math.min(text.length, match.index + match[0].length + reach);
        const window = text.slice(start, end);
        if (form.runs.every((run) => window.includes(run))) found.push([start, end]);
      }
    }
    // Anchors of longer forms reach further back: sorted by start before merging.
    found.sort((a, b) => a[0] - b[0]);
    const windows: [number, number][] = [];
    for (const [start, end] of found) {
      const last = windows[windows.length - 1];
      if (last && start <= last[1]) last[1] = Math.max(last[1], end);
      else windows.push([start, end]);
    }
    return windows;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
