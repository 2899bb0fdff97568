/**
 * Where a mapping's keys start, read from the text around the mapping instead of a parse with
 * the yaml package: a plan that says where each changed field comes from asks for hundreds
 * of keys, and the yaml package spends about a millisecond per document on them
 * (positions.ts). The answer is taken only when the text proves it: for a block mapping, the
 * lines at its column, from its first key to the first line indented less; for a flow
 * mapping, its one line. They must name exactly the mapping's keys, in order, each a plain
 * key. Anything else (a quoted or explicit key, a merge key, a duplicate, a nested or
 * multi-line flow mapping, a line a multi-line value puts at that column) makes the lists
 * differ, and the caller asks the yaml package.
 */

/** A key the scan can read as written: plain, and read as the same string by every YAML schema. */
const PLAIN_KEY = /^([A-Za-z_][\w-]*)[ \t]*:(?=[ \t\r\n]|$)/;
/** Plain keys the YAML core schema reads as something else than their text. */
const NOT_A_STRING = /^(true|false|null|y|yes|n|no|on|off)$/i;

/**
 * Where each key of the mapping that starts at `start` (its first key, or the `{` of a
 * one-line flow mapping) starts in `text`, when the text proves it: `mapping` is its value
 * as parsed. Undefined otherwise.
 */
export function mappingKeys(
  text: string,
  start: number,
  mapping: Readonly<Record<string, unknown>>,
): ReadonlyMap<string, number> | undefined {
  const expected = Object.keys(mapping);
  const found =
    text.charCodeAt(start) === 0x7b /* { */ ? flowKeys(text, start) : blockKeys(text, start, expected.length);
  if (found?.length !== expected.length) return undefined;
  for (let i = 0; i < expected.length; i++) if (found[i]?.name !== expected[i]) return undefined;
  return new Map(found.map((k) => [k.name, k.at]));
}

interface FoundKey {
  name: string;
  at: number;
}

/** The keys of the block mapping whose first key starts at `start`, as written at its column. */
function blockKeys(text: string, start: number, most: number): FoundKey[] | undefined {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const column = start - lineStart;
  const found: FoundKey[] = [];
  for (let at = lineStart; at < text.length;) {
    const end = lineEnd(text, at);
    const first = at === lineStart;
    const indent = indentation(text, at, end);
    const blank = at + indent >= end || text.charCodeAt(at + indent) === 0x23; /* # */
    if (!first && !blank && indent < column) break; // the mapping ended
    // The first line holds the mapping's first key at `column` (after `- ` in a sequence).
    const keyAt = first ? start : at + indent;
    const match = first || (!blank && indent === column) ? PLAIN_KEY.exec(text.slice(keyAt, end)) : null;
    if (match) {
      const name = match[1] as string;
      if (NOT_A_STRING.test(name)) return undefined;
      found.push({ name, at: keyAt });
      if (found.length > most) return undefined;
    }
    at = end + 1;
  }
  return found;
}

const FLOW_KEY = /[A-Za-z_][\w-]*/y;

/**
 * The keys of a flow mapping written on one line, `{ a: 1, b: "x, y" }`, whose values are
 * plain or quoted scalars; undefined for anything else (a nested collection, a line break,
 * a comment, a key that is not plain).
 */
function flowKeys(text: string, open: number): FoundKey[] | undefined {
  const found: FoundKey[] = [];
  let i = skipSpaces(text, open + 1);
  if (text.charCodeAt(i) === 0x7d /* } */) return found;
  for (;;) {
    FLOW_KEY.lastIndex = i;
    const name = FLOW_KEY.exec(text)?.[0];
    if (name === undefined || NOT_A_STRING.test(name)) return undefined;
    found.push({ name, at: i });
    i = skipSpaces(text, i + name.length);
    if (text[i] !== ':' || (text[i + 1] !== ' ' && text[i + 1] !== '\t')) return undefined;
    const end = scalarEnd(text, skipSpaces(text, i + 1));
    if (end === undefined) return undefined;
    i = skipSpaces(text, end);
    if (text[i] === '}') return found;
    if (text[i] !== ',') return undefined;
    i = skipSpaces(text, i + 1);
    if (text[i] === '}') return found;
  }
}

/** Where a flow scalar value starting at `i` ends; undefined for a collection or a value the scan cannot prove. */
function scalarEnd(text: string, i: number): number | undefined {
  const quote = text[i];
  if (quote === '"' || quote === "'") {
    for (let j = i + 1; j < text.length; j++) {
      const c = text[j];
      if (c === '\n' || c === '\r') return undefined;
      if (quote === '"' && c === '\\') j++;
      else if (c === quote) {
        if (quote === "'" && text[j + 1] === "'") j++;
        else return j + 1;
      }
    }
    return undefined;
  }
  if (PLAIN_FIRST_REFUSED.includes(text[i] ?? '\n')) return undefined;
  if ('-?:'.includes(text[i] as string) && ' \t'.includes(text[i + 1] ?? ' ')) return undefined;
  let j = i;
  for (; j < text.length; j++) {
    const c = text[j] as string;
    if (c === ',' || c === '}') break;
    if (c === '\n' || c === '\r' || c === '[' || c === ']' || c === '{') return undefined;
    if (c === '#' && text[j - 1] === ' ') return undefined; // a comment
    if (c === ':' && ' \t'.includes(text[j + 1] ?? ' ')) return undefined;
  }
  return j > i ? j : undefined;
}

/** Characters a plain scalar cannot start with (YAML 1.2 §7.3.3 indicators), and the end of the line. */
const PLAIN_FIRST_REFUSED = '[]{},#&*!|>\'"%@`\n\r';

function skipSpaces(text: string, i: number): number {
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end < 0 ? text.length : end;
}

/** Leading spaces of the line [from, end), ignoring a \r before its end. */
function indentation(text: string, from: number, end: number): number {
  let i = from;
  while (i < end && text.charCodeAt(i) === 0x20) i++;
  if (i === end - 1 && text.charCodeAt(i) === 0x0d) return end - from;
  return i - from;
}
