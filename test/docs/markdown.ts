/**
 * Just enough markdown for the documentation tests: fenced blocks, headings with GitHub's
 * anchors, links outside code, and table rows. README.md and docs/*.md are the input.
 */

export interface Heading {
  type: 'heading';
  level: number;
  text: string;
  /** GitHub's anchor for it (`#slug`), with `-1`, `-2`… for repeated headings. */
  slug: string;
  line: number;
}

export interface Fence {
  type: 'fence';
  /** The first word of the info string (`sh`, `text`, `yaml`, …), or ''. */
  lang: string;
  /** `key=value` words after the language (GitHub shows none of them). */
  attrs: Record<string, string>;
  /** The lines between the fences, without the fence's indentation, ending with a newline. */
  body: string;
  line: number;
}

export interface Prose {
  type: 'prose';
  text: string;
  line: number;
}

export type Item = Heading | Fence | Prose;

const FENCE = /^(\s*)(`{3,}|~{3,})\s*(.*)$/;

/** The document as headings, fenced blocks and prose lines, in order (1-based line numbers). */
export function parseMarkdown(text: string): Item[] {
  const lines = text.split('\n');
  const items: Item[] = [];
  const slugs = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const open = FENCE.exec(line);
    if (open) {
      const [, indent = '', marker = '', info = ''] = open;
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const close = FENCE.exec(lines[j] ?? '');
        if (close && close[2]?.[0] === marker[0] && (close[2]?.length ?? 0) >= marker.length && close[3] === '') break;
        body.push(
          (lines[j] ?? '').startsWith(indent) ? (lines[j] ?? '').slice(indent.length) : (lines[j] ?? '').trimStart(),
        );
      }
      const [lang = '', ...words] = info.trim().split(/\s+/);
      const attrs = Object.fromEntries(
        words.map((w) => [w.split('=')[0] ?? w, w.includes('=') ? w.slice(w.indexOf('=') + 1) : '']),
      );
      items.push({ type: 'fence', lang, attrs, body: body.length > 0 ? `${body.join('\n')}\n` : '', line: i + 1 });
      i = j;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = githubSlug(heading[2] ?? '');
      const seen = slugs.get(base) ?? 0;
      slugs.set(base, seen + 1);
      const slug = seen === 0 ? base : `${base}-${seen}`;
      items.push({ type: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '', slug, line: i + 1 });
      continue;
    }
    items.push({ type: 'prose', text: line, line: i + 1 });
  }
  return items;
}

/** The text a heading renders as: code, links, emphasis and HTML reduced to their text. */
function plainText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
}

/**
 * GitHub's heading anchor (github-slugger): lower case, every character that is not a
 * letter, mark, digit, connector (`_`), hyphen or space removed, then each space a hyphen.
 */
export function githubSlug(heading: string): string {
  return plainText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** A prose line without its code spans, so that `[a](b)` written as code is not a link. */
function withoutCode(text: string): string {
  return text.replace(/(`+)[\s\S]*?\1/g, '');
}

/** `[text](target "title")` and `![alt](target)`, the target in group 1. */
const INLINE_LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

export interface Link {
  target: string;
  line: number;
}

/** Inline links, images and reference definitions outside code. */
export function links(items: Item[]): Link[] {
  const found: Link[] = [];
  for (const item of items) {
    if (item.type === 'fence') continue;
    const text = withoutCode(item.text);
    for (const m of text.matchAll(INLINE_LINK)) found.push({ target: m[1] ?? '', line: item.line });
    const definition = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(text);
    if (definition) found.push({ target: definition[1] ?? '', line: item.line });
  }
  return found;
}

/** The cells of a table row (`| a | b |`), `\|` unescaped; undefined for other lines. */
export function tableCells(line: string): string[] | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('|') || !trimmed.endsWith('|')) return undefined;
  return trimmed
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}
