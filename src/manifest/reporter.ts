import type { Diagnostic, SourcePosition } from './types.js';
import { PositionIndex, type NodePath } from './positions.js';

/** Where a finding is: a ready position, or a node of a manifest document. */
export type Place =
  SourcePosition | { file: string; doc: number; path: NodePath; key?: boolean; offsetInString?: number };

/**
 * Collects diagnostics and turns document paths into file:line:col through each file's
 * lazily built {@link PositionIndex}.
 */
export class Reporter {
  readonly diagnostics: Diagnostic[] = [];
  private readonly indexes = new Map<string, PositionIndex>();

  /** Registers a manifest file's text so that its positions can be computed later. */
  addFile(file: string, text: string): void {
    this.indexes.set(file, new PositionIndex(file, text));
  }

  positions(file: string): PositionIndex | undefined {
    return this.indexes.get(file);
  }

  resolve(place: Place): SourcePosition {
    if ('line' in place) return place;
    const index = this.indexes.get(place.file);
    if (!index) return { file: place.file, line: 1, column: 1 };
    return index.locate(place.doc, place.path, place);
  }

  error(code: string, message: string, place: Place): void {
    this.diagnostics.push({ severity: 'error', code, message, source: this.resolve(place) });
  }

  warning(code: string, message: string, place: Place): void {
    this.diagnostics.push({ severity: 'warning', code, message, source: this.resolve(place) });
  }

  get errorCount(): number {
    return this.diagnostics.filter((d) => d.severity === 'error').length;
  }
}

/** Sorts by file, line, column (then code), the order `validate` prints. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => {
    const fa = a.source?.file ?? '';
    const fb = b.source?.file ?? '';
    if (fa !== fb) return fa < fb ? -1 : 1;
    const d = (a.source?.line ?? 0) - (b.source?.line ?? 0) || (a.source?.column ?? 0) - (b.source?.column ?? 0);
    return d !== 0 ? d : a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
  });
}
