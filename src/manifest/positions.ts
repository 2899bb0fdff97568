import type { Document, LineCounter, Node, Scalar } from 'yaml';
import jsYaml from 'js-yaml';
import { yamlPackage } from '../core/yaml-package.js';
import type { SourcePosition } from './types.js';
import { mappingKeys } from './key-positions.js';
import { YAML_CORE_SCHEMA } from './yaml-core-schema.js';

/** A path inside a document: map keys and sequence indexes. */
export type NodePath = readonly (string | number)[];

/**
 * File positions of the nodes of one manifest file, computed with the yaml package's
 * Document nodes (`range`) and a LineCounter. Parsing with the yaml package is exact but
 * about ten times slower than the fast path, so it happens lazily: only for a file that
 * has a diagnostic or whose object positions someone asks for, and then, when the file
 * splits safely into its documents (see {@link splitDocuments}), only for the documents
 * asked about: a plan with changes in 200 of 2,000 tenants parses a tenth of the text
 * (on 1.8 MB of manifests, 0.1 s instead of 0.9 s).
 *
 * Documents are numbered by their ordinal among the file's non-empty documents, the
 * numbering both parsers agree on.
 */
export class PositionIndex {
  private docs: Document.Parsed[] | undefined;
  private lines: LineCounter | undefined;
  private chunks: Chunk[] | null | undefined;
  private ownLines: LineStarts | undefined;
  /** The keys of each mapping read by `keyStart`, by the mapping's offset in the file (null: not provable). */
  private readonly mappings = new Map<number, ReadonlyMap<string, number> | null>();

  constructor(
    readonly file: string,
    private readonly text: string,
  ) {}

  /**
   * Position of the node at `path` (or of its key when `key`); the nearest existing ancestor
   * otherwise. `viaYamlPackage` skips the fast paths for collections and keys (tests compare both).
   */
  locate(
    doc: number,
    path: NodePath,
    options: { key?: boolean; offsetInString?: number; viaYamlPackage?: boolean } = {},
  ): SourcePosition {
    if (options.offsetInString === undefined && !options.viaYamlPackage) {
      const start = options.key
        ? this.keyStart(doc, path)
        : (this.collectionStart(doc, path) ?? this.scalarStart(doc, path));
      if (start !== undefined) return this.at(start);
    }
    const found = this.document(doc);
    if (!found) return this.at(0);
    const { document, offset: base } = found;
    let node: unknown = document.contents;
    let keyNode: Node | undefined;
    for (const segment of path) {
      const next = child(document, node, segment);
      if (!next) return this.at(base + (rangeStart(keyNode ?? node) ?? 0));
      node = next.value;
      keyNode = next.key;
    }
    if (options.key && keyNode) return this.at(base + (rangeStart(keyNode) ?? 0));
    const start = rangeStart(node) ?? rangeStart(keyNode) ?? 0;
    return this.at(base + start + stringOffset(node, options.offsetInString));
  }

  /** Position of a character offset. */
  at(offset: number): SourcePosition {
    const { line, col } = this.lineCounter().linePos(offset);
    return { file: this.file, line, column: col };
  }

  /**
   * Where the collection at `path` starts (an object's item, a document's root), from a
   * js-yaml parse of the document's slice: about ten times faster than the yaml package, which
   * a plan of 10,000 creates otherwise spends 0.3 s in. Undefined, and the yaml package
   * decides, when the file does not split, the node is not a collection or its start is not
   * plain (an anchor, a tag, an explicit key).
   */
  private collectionStart(doc: number, path: NodePath): number | undefined {
    if (this.chunks === undefined) this.chunks = splitDocuments(this.text);
    const chunk = this.chunks?.[doc];
    if (!chunk) return undefined;
    if (chunk.fast === undefined) chunk.fast = parseWithStarts(chunk.text);
    if (!chunk.fast) return undefined;
    let node = chunk.fast.value;
    for (const segment of path) {
      if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
      node = (node as Record<string | number, unknown>)[segment];
    }
    if (node === null || typeof node !== 'object') return undefined;
    const opened = chunk.fast.starts.get(node);
    const start = opened === undefined ? undefined : contentStart(chunk.text, opened);
    return start === undefined ? undefined : chunk.start + start;
  }

  /**
   * Where the key of the last segment of `path` starts, when its mapping's text proves it
   * (key-positions.ts); undefined, and the yaml package decides, otherwise. A key the mapping
   * does not have answers as the yaml package does: the mapping's own key, or its start
   * when it is an item of a sequence or the document's root.
   */
  private keyStart(doc: number, path: NodePath): number | undefined {
    const key = path.at(-1);
    if (typeof key !== 'string') return undefined;
    const parentPath = path.slice(0, -1);
    const found = this.keysOf(doc, parentPath);
    if (!found) return undefined;
    const at = found.keys.get(key);
    if (at !== undefined) return found.chunk.start + at;
    return typeof parentPath.at(-1) === 'string' ? this.keyStart(doc, parentPath) : found.mapping;
  }

  /** The mapping at `path` as parsed, its keys as its text proves them (key-positions.ts), and where it starts. */
  private keysOf(
    doc: number,
    path: NodePath,
  ): { node: Record<string, unknown>; keys: ReadonlyMap<string, number>; chunk: Chunk; mapping: number } | undefined {
    const mapping = this.collectionStart(doc, path);
    const chunk = this.chunks?.[doc];
    if (mapping === undefined || !chunk?.fast) return undefined;
    let node: unknown = chunk.fast.value;
    for (const segment of path) node = (node as Record<string | number, unknown>)[segment];
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    // Read once per mapping: a plan asks for several keys of the same one (each changed field).
    let keys = this.mappings.get(mapping);
    if (keys === undefined) {
      keys = mappingKeys(chunk.text, mapping - chunk.start, node as Record<string, unknown>) ?? null;
      this.mappings.set(mapping, keys);
    }
    return keys ? { node: node as Record<string, unknown>, keys, chunk, mapping } : undefined;
  }

  /**
   * Where the scalar value of a mapping's key starts, when it starts on its key's line: after
   * the key (found as keyStart finds it), its colon and spaces, a plain or quoted scalar, whose
   * position is its first character as the yaml package gives it (a quote's included). A
   * baseline's position is its name's (three baselines cost 45 ms of the yaml package
   * otherwise). Undefined, and the yaml package decides, for anything else: an anchor, a tag,
   * an alias, a block scalar, a comment or a line break before the value, an empty value.
   */
  private scalarStart(doc: number, path: NodePath): number | undefined {
    const key = path.at(-1);
    if (typeof key !== 'string') return undefined;
    const found = this.keysOf(doc, path.slice(0, -1));
    const at = found?.keys.get(key);
    if (!found || at === undefined) return undefined;
    const value = found.node[key];
    if (value === null || typeof value === 'object') return undefined;
    const text = found.chunk.text;
    // The key as the scan read it is plain: its name, spaces, then the colon.
    let i = at + key.length;
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] !== ':') return undefined;
    i++;
    while (text[i] === ' ' || text[i] === '\t') i++;
    return VALUE_ON_KEY_LINE.test(text[i] ?? '\n') ? found.chunk.start + i : undefined;
  }

  /** Document `doc` and the offset of its text in the file. */
  private document(doc: number): { document: Document.Parsed; offset: number } | undefined {
    if (this.chunks === undefined) this.chunks = splitDocuments(this.text);
    const chunk = this.chunks?.[doc];
    if (chunk) {
      chunk.parsed ??= parseChunk(chunk.text);
      if (chunk.parsed) return { document: chunk.parsed, offset: chunk.start };
      this.chunks = null; // the split was wrong after all: parse the whole file from now on
    }
    const document = this.documents()[doc];
    return document ? { document, offset: 0 } : undefined;
  }

  private lineCounter(): Pick<LineCounter, 'linePos'> {
    if (this.docs || this.chunks === null) {
      this.documents();
      return this.lines as LineCounter;
    }
    // The line starts the yaml package records: 0, then after every \n (splitDocuments
    // refuses texts with a lone \r, the only other line break it knows).
    this.ownLines ??= new LineStarts(this.text);
    return this.ownLines;
  }

  private documents(): Document.Parsed[] {
    if (!this.docs) {
      const { LineCounter, parseAllDocuments } = yamlPackage();
      this.lines = new LineCounter();
      const all = parseAllDocuments(this.text, { lineCounter: this.lines, uniqueKeys: false });
      const list = Array.isArray(all) ? all : [];
      this.docs = list.filter(hasContent);
    }
    return this.docs;
  }
}

/** The first character of a scalar written on its key's line: no indicator, comment or line end. */
const VALUE_ON_KEY_LINE = /^[^&*!|>#%@`,[\]{}\r\n]$/;

/** 1-based line and column of an offset, as the yaml package's LineCounter answers for lines ending in \n. */
class LineStarts {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  linePos(offset: number): { line: number; col: number } {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.starts[mid] as number) < offset) low = mid + 1;
      else high = mid;
    }
    if (this.starts[low] === offset) return { line: low + 1, col: 1 };
    if (low === 0) return { line: 0, col: offset };
    return { line: low, col: offset - (this.starts[low - 1] as number) + 1 };
  }
}

/** One document's text, from its `---` line to the next one. */
interface Chunk {
  start: number;
  text: string;
  parsed?: Document.Parsed | undefined;
  /** The slice as js-yaml reads it, with where each collection's node opened; null if it does not parse. */
  fast?: { value: unknown; starts: Map<object, number> } | null;
}

/**
 * One document's value and, for each collection in it, the offset at which js-yaml opened its
 * node (before the separating spaces and comments). The first opening wins: an alias
 * (`*a`) resolves to its anchor's collection, as the yaml package's positions do.
 */
function parseWithStarts(text: string): { value: unknown; starts: Map<object, number> } | null {
  const starts = new Map<object, number>();
  const opened: number[] = [];
  try {
    const value = jsYaml.load(text, {
      schema: YAML_CORE_SCHEMA,
      listener: (event, state) => {
        if (event === 'open') {
          opened.push(state.position);
          return;
        }
        const at = opened.pop();
        const result: unknown = state.result;
        if (at !== undefined && result !== null && typeof result === 'object' && !starts.has(result))
          starts.set(result, at);
      },
    });
    return { value, starts };
  } catch {
    return null;
  }
}

/** The first character of a node opened at `at`: past spaces, line breaks and comments; undefined if not plain. */
function contentStart(text: string, at: number): number | undefined {
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
    else if (c === 0x23 /* # */) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else break;
  }
  // Anchors, tags, aliases, explicit keys, block scalars and sequences: the yaml package decides.
  return i < text.length && !'&!*?|>-'.includes(text.charAt(i)) ? i : undefined;
}

const MARKER = /^---(?=[ \t\r\n]|$)/gm;
const BLANK_OR_COMMENT = /^[ \t]*(#.*)?\r?$/;
/** A root node that cannot be empty or null: a block map key, a block sequence item, a flow collection. */
const PLAIN_ROOT = /^([A-Za-z0-9_][\w.-]*[ \t]*:([ \t]|\r?$)|-([ \t]|\r?$)|[[{])/;

/**
 * The file's non-empty documents as slices of its text, numbered as {@link hasContent}
 * numbers them; null when the file does not split with certainty (directives, `...`
 * markers, a lone \r, or a document whose first line does not show that it has content),
 * so the whole file is parsed instead. A `---` at column 0 ends any node in YAML, so
 * each slice parses alone exactly as it does inside the file.
 */
function splitDocuments(text: string): Chunk[] | null {
  if (/^%|^\.\.\.(?=[ \t\r\n]|$)/m.test(text) || /\r(?!\n)/.test(text)) return null;
  const starts = [0];
  for (const match of text.matchAll(MARKER)) if (match.index > 0) starts.push(match.index);
  const chunks: Chunk[] = [];
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i] as number;
    const chunkText = text.slice(start, starts[i + 1] ?? text.length);
    const kind = classify(chunkText);
    if (kind === 'unknown') return null;
    if (kind === 'content') chunks.push({ start, text: chunkText });
  }
  return chunks;
}

function classify(chunk: string): 'empty' | 'content' | 'unknown' {
  const lines = chunk.split('\n');
  const first = lines[0] ?? '';
  if (first.startsWith('---') && !BLANK_OR_COMMENT.test(first.slice(3))) return 'unknown';
  for (let i = first.startsWith('---') ? 1 : 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (BLANK_OR_COMMENT.test(line)) continue;
    return PLAIN_ROOT.test(line) ? 'content' : 'unknown';
  }
  return 'empty';
}

/** The one document of a slice, or undefined when the slice is not what the split assumed. */
function parseChunk(text: string): Document.Parsed | undefined {
  const all = yamlPackage().parseAllDocuments(text, { uniqueKeys: false });
  const list = (Array.isArray(all) ? all : []).filter(hasContent);
  return list.length === 1 ? list[0] : undefined;
}

function child(doc: Document, node: unknown, segment: string | number): { key?: Node; value: unknown } | undefined {
  const { isAlias, isMap, isScalar, isSeq } = yamlPackage();
  const target = isAlias(node) ? node.resolve(doc) : node;
  if (isMap(target)) {
    for (const pair of target.items) {
      const key = pair.key;
      const keyValue = isScalar(key) ? key.value : key;
      if (String(keyValue) === String(segment)) return { key: key as Node, value: pair.value ?? key };
    }
    return undefined;
  }
  if (isSeq(target) && typeof segment === 'number') {
    const item = target.items[segment];
    return item === undefined ? undefined : { value: item };
  }
  return undefined;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range?.[0];
}

/** Best effort: the offset of a character inside a one-line plain or quoted scalar. */
function stringOffset(node: unknown, offset: number | undefined): number {
  const { isScalar, Scalar } = yamlPackage();
  if (offset === undefined || !isScalar(node)) return 0;
  const source = (node as Scalar & { source?: string }).source;
  if (typeof source === 'string' && source.includes('\n')) return 0;
  const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
  return offset + (quoted ? 1 : 0);
}

/** A document both parsers count: not empty, and not an explicit null (`~`). */
export function hasContent(document: Document.Parsed): boolean {
  const contents = document.contents;
  return contents !== null && !(yamlPackage().isScalar(contents) && contents.value === null);
}
