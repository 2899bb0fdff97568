import * as path from 'node:path';
import { routingTableKind } from '../kinds/routing-table.js';
import {
  csvDisplayName,
  emit,
  sensitiveFields,
  type DocContext,
  type DocumentBuilder,
  type Json,
} from './build-context.js';
import { sortKeysDeep } from '../core/canonical-json.js';
import { StringIndex } from '../core/string-index.js';
import { fitsColumnType } from '../core/values.js';
import { Codes } from './codes.js';
import type { Place, Reporter } from './reporter.js';
import type { DesiredRoutingTable, JsonScalar, RowValue } from './types.js';
import { cellColumn, readCsv } from './csv.js';
import { BAD, castCell, isUnsafeIntegerText } from '../core/cell-cast.js';

type FieldType = DesiredRoutingTable['fieldTypes'][string];

/**
 * The routing engine's table documents: the table object, its inline `records` and its
 * `recordsFrom` CSV file (read after every document), kept compact in a DesiredRoutingTable.
 */
export const routingTableDocument: DocumentBuilder = {
  address: (metadata) =>
    routingTableKind.address(String(metadata['service']), String(metadata['version']), String(metadata['name'])),
  build: (ctx, metadata, spec) => {
    const table = buildRoutingTable(ctx, metadata, spec);
    const appender = new RowAppender(table, ctx.out.reporter);
    ctx.out.tables.set(table, appender);
    addInlineRecords(ctx, appender, (spec['records'] as Json[] | undefined) ?? []);
    if (typeof spec['recordsFrom'] === 'string') {
      const file = spec['recordsFrom'];
      const display = csvDisplayName(ctx, file);
      ctx.out.csvJobs.push({
        absolute: path.resolve(ctx.dir, file),
        display,
        owner: table.table,
        ctx,
        path: ['spec', 'recordsFrom'],
        add: (text) => addCsvRecords(text, display, appender, ctx.out.reporter),
      });
    }
  },
};

/** A RoutingTable document's table object, its rows still to add. */
function buildRoutingTable(ctx: DocContext, metadata: Json, spec: Json): DesiredRoutingTable {
  const service = String(metadata['service']);
  const version = String(metadata['version']);
  const name = String(metadata['name']);
  const key = (spec['key'] as string[]).slice();
  const fieldTypes = sortKeysDeep((spec['fields'] as Json | undefined) ?? {}) as Record<string, FieldType>;
  const table = emit(ctx, {
    kind: routingTableKind.kind,
    address: routingTableKind.address(service, version, name),
    identity: { service, version, name },
    fields: { service, version, name, key, ...(spec['fields'] ? { fields: fieldTypes } : {}) },
    path: [],
    metadataFields: ['service', 'version', 'name'],
    collections: spec['records'] !== undefined || spec['recordsFrom'] !== undefined ? ['records'] : [],
  });
  return {
    table,
    service,
    version,
    name,
    key,
    fieldTypes,
    columns: [],
    rows: [],
    index: new StringIndex(),
    rowSources: [],
    sourceFiles: [],
    inlinePaths: [],
    sensitiveCells: new Map(),
  };
}

/** Joins the values of a several-field key in an index key (see rowKey). */
export const KEY_SEPARATOR = '\u001f';

/**
 * The index key of a row: the key value itself for a one-field key (no new string per
 * row), the values joined by U+001F otherwise. Undefined when a key value is missing.
 */
function rowKey(table: DesiredRoutingTable, row: RowValue[], columnOf: (field: string) => number): string | undefined {
  if (table.key.length === 1) {
    const value = row[columnOf(table.key[0]!)];
    return value === undefined || value === null || value === '' ? undefined : String(value);
  }
  const parts: string[] = [];
  for (const field of table.key) {
    const value = row[columnOf(field)];
    if (value === undefined || value === null || value === '') return undefined;
    parts.push(String(value));
  }
  return parts.join(KEY_SEPARATOR);
}

/** The address of row `index` of a table (`routing/<service>/<version>/<table>/<key>=<value>,…`). */
export function rowAddress(table: DesiredRoutingTable, index: number): string {
  const key = rowKey(table, table.rows[index] ?? [], (field) => table.columns.indexOf(field)) ?? '';
  return `${table.table.address}/${keySuffix(table, key)}`;
}

/**
 * The row of a table at `address` (as rowAddress writes it), or undefined: its key values are
 * read back from `field=value,…` in key order and looked up in the table's index.
 */
export function rowIndexAt(table: DesiredRoutingTable, address: string): number | undefined {
  const prefix = `${table.table.address}/`;
  if (!address.startsWith(prefix)) return undefined;
  let rest = address.slice(prefix.length);
  const values: string[] = [];
  for (const [j, field] of table.key.entries()) {
    const head = `${j === 0 ? '' : ','}${field}=`;
    if (!rest.startsWith(head)) return undefined;
    rest = rest.slice(head.length);
    const next = table.key[j + 1];
    const end = next === undefined ? rest.length : rest.indexOf(`,${next}=`);
    if (end < 0) return undefined;
    values.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  return table.index.get(values.join(KEY_SEPARATOR));
}

/** The address suffix of a row's index key: `number=+3221234567` (`field=value,…` in key order). */
function keySuffix(table: DesiredRoutingTable, indexKey: string): string {
  const values = table.key.length === 1 ? [indexKey] : indexKey.split(KEY_SEPARATOR);
  return table.key.map((field, i) => `${field}=${values[i] ?? ''}`).join(',');
}

/** The index key of an address suffix, or undefined when it does not name the key fields. */
export function indexKeyOf(table: DesiredRoutingTable, suffix: string): string | undefined {
  const values: string[] = [];
  let rest = suffix;
  for (let i = 0; i < table.key.length; i++) {
    const prefix = `${table.key[i]!}=`;
    if (!rest.startsWith(prefix)) return undefined;
    rest = rest.slice(prefix.length);
    const next = table.key[i + 1];
    if (next === undefined) {
      values.push(rest);
      break;
    }
    const at = rest.indexOf(`,${next}=`);
    if (at < 0) return undefined;
    values.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  return values.join(KEY_SEPARATOR);
}

/** Appends rows to a table, checking keys, duplicates and type hints. */
export class RowAppender {
  private readonly columnIndex = new Map<string, number>();
  /** Set after the first repeated key: rows are then looked up before they are added. */
  private careful = false;

  constructor(
    readonly table: DesiredRoutingTable,
    private readonly reporter: Reporter,
  ) {
    table.columns.forEach((c, i) => this.columnIndex.set(c, i));
  }

  column(field: string): number {
    let i = this.columnIndex.get(field);
    if (i === undefined) {
      i = this.table.columns.length;
      this.table.columns.push(field);
      this.columnIndex.set(field, i);
    }
    return i;
  }

  /**
   * Adds one row; `source` is [file index, line, column], `inline` the record's document path,
   * `sensitive` the fields whose value came from `${VAR}`.
   */
  add(
    row: RowValue[],
    file: string,
    line: number,
    column: number,
    place: Place,
    inline?: (string | number)[],
    sensitive: readonly string[] = [],
  ): void {
    const key = rowKey(this.table, row, (f) => this.column(f));
    if (key === undefined) {
      const missing = this.table.key.filter((f) => {
        const v = row[this.column(f)];
        return v === undefined || v === null || v === '';
      });
      this.reporter.error(
        Codes.rowKeyMissing,
        `row has no value for key field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
        place,
      );
      return;
    }
    const index = this.table.index;
    if (!this.careful) {
      // One map operation per row instead of a lookup before each insert.
      const size = index.size;
      index.set(key, this.table.rows.length);
      if (index.size > size) return this.append(row, file, line, column, inline, sensitive);
      // A key declared twice, which is rare: the index just lost the first row's number. It is
      // rebuilt from the rows kept so far, and from now on each row is looked up before it is added.
      this.careful = true;
      index.clear();
      this.table.rows.forEach((kept, i) => index.set(rowKey(this.table, kept, (f) => this.column(f)) as string, i));
    }
    const existing = index.get(key);
    if (existing !== undefined) {
      this.reporter.error(
        Codes.duplicateRow,
        `row ${keySuffix(this.table, key)} is declared twice; first at ${this.describe(existing)}`,
        place,
      );
      return;
    }
    index.set(key, this.table.rows.length);
    this.append(row, file, line, column, inline, sensitive);
  }

  /** Keeps a row whose key the index holds already. */
  private append(
    row: RowValue[],
    file: string,
    line: number,
    column: number,
    inline: (string | number)[] | undefined,
    sensitive: readonly string[],
  ): void {
    let fileIndex = this.table.sourceFiles.indexOf(file);
    if (fileIndex < 0) fileIndex = this.table.sourceFiles.push(file) - 1;
    if (sensitive.length > 0) this.table.sensitiveCells.set(this.table.rows.length, sensitive);
    this.table.rows.push(row);
    this.table.rowSources.push(fileIndex, line, column);
    this.table.inlinePaths.push(inline);
  }

  private describe(row: number): string {
    const inline = this.table.inlinePaths[row];
    const file = this.table.sourceFiles[this.table.rowSources[row * 3]!]!;
    if (inline) {
      const pos = this.reporter.resolve({ file, doc: Number(this.table.rowSources[row * 3 + 2]), path: inline });
      return `${pos.file}:${pos.line}:${pos.column}`;
    }
    return `${file}:${this.table.rowSources[row * 3 + 1]!}`;
  }
}

/** Inline `records` of a RoutingTable document. */
function addInlineRecords(ctx: DocContext, appender: RowAppender, records: Json[]): void {
  records.forEach((record, i) => {
    const path = ['spec', 'records', i];
    const sensitive = sensitiveFields(ctx, path, record);
    const row: RowValue[] = [];
    let ok = true;
    for (const [field, value] of Object.entries(record)) {
      const hint = appender.table.fieldTypes[field];
      if (
        (hint === 'integer' || hint === 'number') &&
        typeof value === 'number' &&
        Number.isInteger(value) &&
        !Number.isSafeInteger(value)
      ) {
        // The YAML parser already rounded it: say so rather than store another number.
        const message =
          `"${field}": an integer beyond 2^53 (9007199254740991) has no exact number (this one reads as ${String(value)}), ` +
          'and JSON carries numbers as doubles: a numeric column of the engine cannot hold it, so keep its values below ' +
          "2^53; if the engine's column is text, quote the value and declare the field string in spec.fields";
        ctx.out.reporter.error(Codes.rowType, message, { file: ctx.file, doc: ctx.doc, path: [...path, field] });
        ok = false;
      } else if (hint && value !== null && !fitsColumnType(value, hint)) {
        // A value from `${VAR}` is not quoted: a message is output, which shows no secret (even a short one).
        const shown = sensitive.includes(field) ? 'its value from the environment' : JSON.stringify(value);
        ctx.out.reporter.error(
          Codes.rowType,
          `"${field}" must be ${hint === 'integer' ? 'an integer' : `a ${hint}`} (spec.fields), not ${shown}`,
          { file: ctx.file, doc: ctx.doc, path: [...path, field] },
        );
        ok = false;
      }
      row[appender.column(field)] = value as JsonScalar;
    }
    // line 0 marks an inline row; the column slot keeps the document index.
    if (ok) appender.add(row, ctx.file, 0, ctx.doc, { file: ctx.file, doc: ctx.doc, path }, path, sensitive);
  });
}

/** Rows of a `recordsFrom` CSV file: header = field names, cells typed by the hints. */
async function addCsvRecords(text: string, file: string, appender: RowAppender, reporter: Reporter): Promise<void> {
  let header: string[] = [];
  let columns: number[] = [];
  let width = 0;
  let types: (FieldType | undefined)[] = [];
  const onHeader = (h: string[]): boolean => {
    header = h;
    let ok = true;
    h.forEach((name, i) => {
      const first = h.indexOf(name);
      // Two columns of one name: every row would keep the second cell and drop the first, unsaid.
      if (first < i) {
        reporter.error(Codes.csv, `header "${name}" is given twice (columns ${first + 1} and ${i + 1})`, {
          file,
          line: 1,
          column: cellColumn(h, i),
        });
        ok = false;
        return;
      }
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
      reporter.error(Codes.csv, `header "${name}" is not a valid field name`, {
        file,
        line: 1,
        column: cellColumn(h, i),
      });
      ok = false;
    });
    for (const k of appender.table.key) {
      if (h.includes(k)) continue;
      reporter.error(Codes.rowKeyMissing, `the header has no key field "${k}" (spec.key)`, {
        file,
        line: 1,
        column: 1,
      });
      ok = false;
    }
    columns = h.map((name) => appender.column(name));
    width = Math.max(0, ...columns.map((c) => c + 1));
    types = h.map((name) => appender.table.fieldTypes[name]);
    return ok;
  };
  const onRow = (cells: string[], line: number): void => {
    // Sized once: an array grown by index assignment kept ~150 bytes of spare room, 150 MB
    // over a million rows. The same length and holes as before: every cell is set (a bad one drops the row).
    const row = new Array<RowValue>(width);
    for (let i = 0; i < cells.length; i++) {
      const converted = convert(cells[i]!, types[i]);
      if (converted === INVALID || converted === INEXACT) {
        const type = types[i] === 'integer' ? 'an integer' : `a ${String(types[i])}`;
        const why =
          converted === INEXACT ? INEXACT_MESSAGE : `must be ${type} (spec.fields), not ${JSON.stringify(cells[i])}`;
        reporter.error(Codes.rowType, `"${header[i]!}" ${why.replace('{value}', cells[i]!)}`, {
          file,
          line,
          column: cellColumn(cells, i),
        });
        return;
      }
      row[columns[i]!] = converted;
    }
    appender.add(row, file, line, 1, { file, line, column: 1 });
  };
  await readCsv(text, file, reporter, onHeader, onRow);
}

const INVALID = Symbol('invalid');
/** An integer that no double holds exactly (beyond 2^53): stored, it would silently change. */
const INEXACT = Symbol('inexact');
const INEXACT_MESSAGE =
  '{value} is beyond 2^53 (9007199254740991), which no number holds exactly (JSON carries numbers as doubles): a ' +
  "numeric column of the engine cannot hold it, so keep its values below 2^53; if the engine's column is text, " +
  'declare the field string in spec.fields';

/**
 * A CSV cell with its declared type, parsed as the diff parses a cell of a column the live
 * values type (core/cell-cast.ts, docs/routing.md): an empty cell is null but in a string
 * column, where it stays ""; a column no type declares keeps its text for the diff.
 */
function convert(cell: string, type: FieldType | undefined): RowValue | typeof INVALID | typeof INEXACT {
  if ((type === 'integer' || type === 'number') && isUnsafeIntegerText(cell)) return INEXACT;
  const value = castCell(type, cell);
  return value === BAD ? INVALID : (value as RowValue);
}
