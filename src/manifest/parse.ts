import jsYaml from 'js-yaml';
import type { Document, LineCounter } from 'yaml';
import { yamlPackage } from '../core/yaml-package.js';
import { Codes } from './codes.js';
import type { Reporter } from './reporter.js';
import { hasContent } from './positions.js';
import { YAML_CORE_SCHEMA } from './yaml-core-schema.js';

/** Alias expansions allowed per document (the yaml package's default, also applied on the fast path). */
export const MAX_ALIAS_COUNT = 100;

/** One non-empty YAML document of a file, as plain data. */
export interface ParsedDocument {
  /** Ordinal among the file's non-empty documents (what {@link PositionIndex} expects). */
  doc: number;
  value: unknown;
}

/**
 * Parses a manifest file into its documents.
 *
 * Fast path: js-yaml, about ten times faster than the yaml package on this machine, with
 * the scalars of the yaml package's YAML 1.2 core schema ({@link YAML_CORE_SCHEMA}: what
 * yaml-language-server reads in editors). When it fails, the yaml package parses the file
 * again: its errors are more precise, it reports all of them, and the documents without
 * errors are kept. No merge keys, no timestamps on either path, so a valid document means
 * the same thing on both, and in the editor. Duplicate keys are errors on both.
 */
export function parseManifest(file: string, text: string, reporter: Reporter): ParsedDocument[] {
  try {
    const values: unknown[] = [];
    jsYaml.loadAll(text, (value) => values.push(value), { schema: YAML_CORE_SCHEMA, filename: file });
    return values.filter((v) => v !== null && v !== undefined).map((value, doc) => ({ doc, value }));
  } catch (error) {
    return parseSlowly(file, text, reporter, error);
  }
}

function parseSlowly(file: string, text: string, reporter: Reporter, fastError: unknown): ParsedDocument[] {
  const { LineCounter, parseAllDocuments } = yamlPackage();
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: true, uniqueKeys: true, logLevel: 'error' });
  const list = Array.isArray(docs) ? docs : [];
  const out: ParsedDocument[] = [];
  let reported = false;
  let ordinal = 0;
  list.forEach((document) => {
    // Numbered as PositionIndex numbers them: among the documents with content.
    const doc = hasContent(document) ? ordinal++ : -1;
    if (document.errors.length > 0) {
      for (const e of document.errors) {
        const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
        reporter.error(Codes.yaml, firstLine(e.message), { file, line: pos.line, column: pos.col });
        reported = true;
      }
      return;
    }
    const value = toValue(file, document, lineCounter, reporter);
    if (value === undefined) reported = true;
    else if (value !== null && doc >= 0) out.push({ doc, value });
  });
  if (!reported) {
    const mark = (fastError as { mark?: { line: number; column: number } }).mark;
    const reason = (fastError as { reason?: string }).reason ?? String(fastError);
    reporter.error(Codes.yaml, reason, { file, line: (mark?.line ?? 0) + 1, column: (mark?.column ?? 0) + 1 });
    return [];
  }
  return out;
}

function toValue(file: string, document: Document.Parsed, lines: LineCounter, reporter: Reporter): unknown {
  try {
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown;
  } catch (error) {
    let offset = document.range[0];
    const { visit } = yamlPackage();
    visit(document, {
      Alias(_key, node) {
        offset = node.range?.[0] ?? offset;
        return visit.BREAK;
      },
    });
    const pos = lines.linePos(offset);
    const message = error instanceof Error ? firstLine(error.message) : String(error);
    reporter.error(Codes.alias, `aliases expand too much (${message})`, { file, line: pos.line, column: pos.col });
    return undefined;
  }
}

/** yaml's pretty errors add the source line and a caret after a newline; the position says it already. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}
