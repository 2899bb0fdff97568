import { LineCounter, parseAllDocuments, isAlias, isMap, isSeq, isScalar, Scalar, type Document, type Node } from 'yaml';
import type { SourcePosition } from './types.js';

/** A path inside a document: map keys and sequence indexes. */
export type NodePath = readonly (string | number)[];

/**
 * File positions of the nodes of one manifest file, computed with the yaml package's
 * Document nodes (`range`) and a LineCounter. Parsing with the yaml package is exact but
 * about ten times slower than the fast path, so it happens lazily: only for a file that
 * has a diagnostic or whose object positions someone asks for.
 *
 * Documents are numbered by their ordinal among the file's non-empty documents, the
 * numbering both parsers agree on.
 */
export class PositionIndex {
  private docs: Document.Parsed[] | undefined;
  private readonly lines = new LineCounter();

  constructor(
    readonly file: string,
    private readonly text: string,
  ) {}

  /** Position of the node at `path` (or of its key when `key`); the nearest existing ancestor otherwise. */
  locate(doc: number, path: NodePath, options: { key?: boolean; offsetInString?: number } = {}): SourcePosition {
    const document = this.documents()[doc];
    if (!document) return this.at(0);
    let node: unknown = document.contents;
    let keyNode: Node | undefined;
    for (const segment of path) {
      const found = child(document, node, segment);
      if (!found) return this.at(rangeStart(keyNode ?? node) ?? 0);
      node = found.value;
      keyNode = found.key;
    }
    if (options.key && keyNode) return this.at(rangeStart(keyNode) ?? 0);
    const start = rangeStart(node) ?? rangeStart(keyNode) ?? 0;
    return this.at(start + stringOffset(node, options.offsetInString));
  }

  /** Position of a character offset. */
  at(offset: number): SourcePosition {
    this.documents();
    const { line, col } = this.lines.linePos(offset);
    return { file: this.file, line, column: col };
  }

  private documents(): Document.Parsed[] {
    if (!this.docs) {
      const all = parseAllDocuments(this.text, { lineCounter: this.lines, uniqueKeys: false });
      const list = Array.isArray(all) ? all : [];
      this.docs = list.filter(hasContent);
    }
    return this.docs;
  }
}

function child(doc: Document, node: unknown, segment: string | number): { key?: Node; value: unknown } | undefined {
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
  if (offset === undefined || !isScalar(node)) return 0;
  const source = (node as Scalar & { source?: string }).source;
  if (typeof source === 'string' && source.includes('\n')) return 0;
  const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
  return offset + (quoted ? 1 : 0);
}

/** A document both parsers count: not empty, and not an explicit null (`~`). */
export function hasContent(document: Document.Parsed): boolean {
  const contents = document.contents;
  return contents !== null && !(isScalar(contents) && contents.value === null);
}
