/**
 * A small YAML emitter for exported manifests. The manifests are data we build ourselves
 * (scalars, lists, ordered maps, comments), so a writer that knows exactly one layout is
 * simpler to keep deterministic than a general library: block maps, lists of short flat
 * maps in flow style (`- { type: BE geo, entitlement: 10 }`, as examples/ writes them),
 * and comment lines above a key. Strings are written plain only when every YAML parser
 * (1.1 and 1.2 schemas) reads them back as the same string; anything else is
 * double-quoted, so "+3221234567", "1000", "yes", "2026-01-01" or "" stay strings.
 */

export type YamlScalar = string | number | boolean | null;
export type YamlNode = YamlScalar | YamlNode[] | YamlMap;

/** One key of a map; `value` undefined writes only the comment lines. */
export interface YamlEntry {
  key: string;
  value?: YamlNode;
  /** Lines written as `# …` above the key. */
  comment?: readonly string[];
}

/** An ordered map: keys are written in insertion order. */
export class YamlMap {
  readonly entries: YamlEntry[] = [];

  /** `block`: always written one key per line (documents' `spec`, for line-wise diffs). */
  constructor(readonly style: 'auto' | 'block' = 'auto') {}

  set(key: string, value: YamlNode, comment?: readonly string[]): this {
    this.entries.push(comment ? { key, value, comment } : { key, value });
    return this;
  }

  /** A comment in the place of a key that is not written. */
  note(key: string, comment: readonly string[]): this {
    this.entries.push({ key, comment });
    return this;
  }

  get size(): number {
    return this.entries.length;
  }
}

/** Longest line a flow collection may make; longer ones are written in block style. */
const FLOW_WIDTH = 110;
const RESERVED = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n', '~']);
/** Letters (any script), `_` or `/` first; then letters, digits, space and `_ . @ / + -`. */
const PLAIN = /^[\p{L}_/][\p{L}\p{N} _.@/+-]*$/u;

/** A scalar as YAML text: plain when safe, else double-quoted (JSON escapes are valid YAML). */
export function scalar(value: YamlScalar): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
  return isPlainSafe(value) ? value : JSON.stringify(value);
}

function isPlainSafe(text: string): boolean {
  return PLAIN.test(text) && !text.endsWith(' ') && !text.includes('  ') && !RESERVED.has(text.toLowerCase());
}

/** One YAML document: header comment lines, then the root map. */
export function renderDocument(root: YamlMap, header: readonly string[] = []): string {
  const lines = header.map((line) => `# ${line}`.trimEnd());
  writeMap(root, 0, lines);
  return `${lines.join('\n')}\n`;
}

function writeMap(map: YamlMap, indent: number, out: string[]): void {
  const pad = ' '.repeat(indent);
  for (const entry of map.entries) {
    for (const line of entry.comment ?? []) out.push(`${pad}# ${line}`.trimEnd());
    if (entry.value === undefined) continue;
    writeEntry(`${pad}${scalar(entry.key)}:`, entry.value, indent, out);
  }
}

/** `head` is `<pad>key:` or `<pad>- key:`; nested blocks go two columns deeper than `indent`. */
function writeEntry(head: string, value: YamlNode, indent: number, out: string[]): void {
  const flow = flowText(value);
  if (flow !== undefined && head.length + 1 + flow.length <= FLOW_WIDTH) {
    out.push(`${head} ${flow}`);
    return;
  }
  out.push(head);
  if (value instanceof YamlMap) writeMap(value, indent + 2, out);
  else if (Array.isArray(value)) writeList(value, indent + 2, out);
}

function writeList(items: readonly YamlNode[], indent: number, out: string[]): void {
  const pad = ' '.repeat(indent);
  for (const item of items) {
    const flow = flowText(item);
    if (flow !== undefined && pad.length + 2 + flow.length <= FLOW_WIDTH) {
      out.push(`${pad}- ${flow}`);
    } else if (item instanceof YamlMap) {
      writeListMap(item, indent, out);
    } else if (Array.isArray(item)) {
      out.push(`${pad}-`);
      writeList(item, indent + 2, out);
    }
  }
}

/** A map as a list item: its first key on the dash line, the others aligned under it. */
function writeListMap(map: YamlMap, indent: number, out: string[]): void {
  const pad = ' '.repeat(indent);
  let first = true;
  for (const entry of map.entries) {
    const lead = first ? `${pad}- ` : `${pad}  `;
    for (const line of entry.comment ?? []) {
      out.push(`${first ? `${pad}  ` : lead}# ${line}`.trimEnd());
    }
    if (entry.value === undefined) continue;
    writeEntry(`${first ? `${pad}- ` : lead}${scalar(entry.key)}:`, entry.value, indent + 2, out);
    first = false;
  }
  if (first) out.push(`${pad}- {}`);
}

/**
 * The one-line flow form of a value, or undefined when it must be a block: maps that
 * carry comments, maps holding lists or maps of more than scalars, and non-empty lists
 * of maps (each map of a list gets its own line).
 */
function flowText(value: YamlNode): string | undefined {
  if (!(value instanceof YamlMap) && !Array.isArray(value)) return scalar(value);
  if (Array.isArray(value)) {
    if (value.some((v) => v instanceof YamlMap || Array.isArray(v))) return undefined;
    return value.length === 0 ? '[]' : `[${value.map((v) => scalar(v as YamlScalar)).join(', ')}]`;
  }
  if (value.size === 0) return '{}';
  if (value.style === 'block') return undefined;
  const parts: string[] = [];
  for (const entry of value.entries) {
    if (entry.comment?.length || entry.value === undefined) return undefined;
    const v = entry.value;
    if (v instanceof YamlMap && v.entries.some((e) => e.value instanceof YamlMap || Array.isArray(e.value)))
      return undefined;
    const text = flowText(v);
    if (text === undefined) return undefined;
    parts.push(`${scalar(entry.key)}: ${text}`);
  }
  return `{ ${parts.join(', ')} }`;
}
