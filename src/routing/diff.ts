import { StringIndex } from '../core/string-index.js';
import { BAD, casterTable, isUnsafeInteger, isUnsafeIntegerText, liveTypeOf, sameValue, type Caster } from './cast.js';
import {
  columnType,
  findLookalikes,
  noteGuesses,
  numberForTextKey,
  typeContradictions,
  untypedProblem,
  untypedTextColumns,
} from './diff-checks.js';
import { label, SEP } from './row-key.js';

import type { RoutingFieldType, RoutingRecord } from './types.js';

/**
 * The row-level diff of a RoutingTable: desired rows (manifest `records` and CSV lines)
 * against live rows, matched by the manifest's `key` fields. Pure and allocation-light:
 * a noop row costs a key string and a few comparisons, nothing else.
 */

/** A desired row as an object; `source` says where it came from (`routes.csv:12`). */
export interface DesiredRow {
  values: Record<string, unknown>;
  source?: string;
}

/**
 * Desired rows in columnar form (what the manifest loader keeps for big tables): one
 * array per row aligned with `columns`; `undefined` in a cell = field not given.
 */
export interface ColumnarRows {
  columns: readonly string[];
  rows: readonly (readonly unknown[])[];
  sourceOf?: (row: number) => string | undefined;
  /**
   * Whether a row's cells are text whose type the file does not say (a CSV line), as
   * opposed to typed values (a YAML record). Absent: every row is typed.
   */
  isText?: (row: number) => boolean;
  /** The fields of a row whose value is sensitive (from `${VAR}`): carried into its create or update. */
  sensitiveOf?: (row: number) => readonly string[] | undefined;
}

export interface RowDiffOptions {
  /** Fields that identify a row (`spec.key`). */
  key: readonly string[];
  /** Declared types (`spec.fields`); other fields take the live value's type. */
  fieldTypes?: Readonly<Record<string, RoutingFieldType>>;
  /** Delete live rows that no desired row matches. */
  prune: boolean;
  /**
   * A text cell (a CSV line) in a column that `fieldTypes` does not declare and no live
   * value types would be a guess, and is a problem ({@link RowDiffProblem} `SB_ROUTING_UNTYPED`),
   * whether the manifest has `spec.fields` or not.
   */
  refuseUntypedText?: boolean;
}

export interface RowCreate {
  /** `number=+3221234567` (the address suffix, docs/plans.md). */
  key: string;
  /** Typed values to send. */
  values: Record<string, unknown>;
  source?: string;
  /** The declared row's sensitive fields ({@link ColumnarRows.sensitiveOf}), when it has any. */
  sensitive?: readonly string[];
}

export interface RowUpdate {
  id: number;
  key: string;
  /** Live values of the changed fields. */
  before: Record<string, unknown>;
  source?: string;
  /** The declared row's sensitive fields ({@link ColumnarRows.sensitiveOf}), when it has any. */
  sensitive?: readonly string[];
}

/** Rows that need the very same change, so one collection PATCH serves them all. */
export interface UpdateGroup {
  changes: Record<string, unknown>;
  rows: RowUpdate[];
}

export interface RowDelete {
  id: number;
  key: string;
  row: RoutingRecord;
}

export interface RowDiffProblem {
  code:
    | 'SB_ROUTING_DUPLICATE_KEY'
    | 'SB_ROUTING_MISSING_KEY'
    | 'SB_ROUTING_BAD_VALUE'
    | 'SB_ROUTING_LIVE_DUPLICATE_KEY'
    | 'SB_ROUTING_UNTYPED'
    | 'SB_ROUTING_TYPE_MISMATCH';
  message: string;
  source?: string;
}

export interface RowDiff {
  creates: RowCreate[];
  updateGroups: UpdateGroup[];
  deletes: RowDelete[];
  /** Desired rows that already match. */
  noops: number;
  /** Live rows no desired row matches, kept because prune is off. */
  unmanaged: number;
  /**
   * The live row each update was compared with, by id: what the plan binds the update to (its
   * digest), without a second pass over a million live rows to find it.
   */
  updatedLive: Map<number, RoutingRecord>;
  /** Rows left out of the diff, with why; the planner reports them as errors. */
  problems: RowDiffProblem[];
  /** Created rows whose key equals a live row's once trimmed and case-folded (a likely second copy). */
  lookalikes: RowLookalike[];
  /**
   * Created rows whose keys equal each other once trimmed and case-folded, and no live row's
   * (`xyz`, `XYZ`, `xyz ` all declared): each group, in manifest order.
   */
  spelledAlike: { key: string; source?: string }[][];
}

/** A row to be created next to a live row whose key differs only by what `foldIdentity` disregards. */
export interface RowLookalike {
  key: string;
  source?: string;
  liveKey: string;
  liveId: number;
  /** The live row is deleted by the same plan (prune): the row changes spelling, the table holds one. */
  liveDeleted?: true;
}

/** Computes creates, grouped updates, deletes and noops. */
export function diffRows(
  desired: readonly DesiredRow[] | ColumnarRows,
  live: readonly RoutingRecord[],
  options: RowDiffOptions,
): RowDiff {
  const table = Array.isArray(desired) ? columnar(desired as readonly DesiredRow[]) : (desired as ColumnarRows);
  const casterOf = casterTable(live, options.fieldTypes ?? {});
  const casters = table.columns.map((c) => casterOf(c));
  const keyCols = options.key.map((k) => table.columns.indexOf(k));
  const out: RowDiff = {
    creates: [],
    updateGroups: [],
    deletes: [],
    noops: 0,
    unmanaged: 0,
    updatedLive: new Map(),
    problems: [],
    lookalikes: [],
    spelledAlike: [],
  };
  const guessed = options.refuseUntypedText
    ? untypedTextColumns(table, live, options.fieldTypes ?? {})
    : new Map<number, number>();
  typeContradictions(table, live, options.fieldTypes ?? {}, out.problems);
  const liveIndex = indexLive(live, options.key, out.problems);
  const groups = new Map<string, UpdateGroup>();
  // Matched live rows are flagged by position: a byte each, not a Set entry.
  const matched = new Uint8Array(live.length);
  const created = new Set<string>();
  const ctx: RowContext = { table, casters, options, out, groups, live, liveTypes: new Map() };
  const textKeys = keyCols.filter((c) => c >= 0 && columnType(table.columns[c] as string, live, options) === 'string');
  for (let i = 0; i < table.rows.length; i++) {
    const cells = table.rows[i] as readonly unknown[];
    if (guessed.size > 0 && table.isText?.(i) === true) noteGuesses(guessed, cells, i);
    const untold = textKeys.length > 0 ? textKeys.find((c) => typeof cells[c] === 'number') : undefined;
    if (untold !== undefined) {
      problem(ctx, i, 'SB_ROUTING_BAD_VALUE', numberForTextKey(table.columns[untold] as string, cells[untold]));
      continue;
    }
    const k = desiredKey(cells, keyCols, casters);
    if (k === null || k === BAD) {
      const message =
        k === null
          ? `row has no value for key field(s) ${options.key.join(', ')}`
          : 'a key field does not fit its type';
      problem(ctx, i, k === null ? 'SB_ROUTING_MISSING_KEY' : 'SB_ROUTING_BAD_VALUE', message);
      continue;
    }
    const index = liveIndex.get(k);
    if (index === undefined ? created.has(k) : matched[index] === 1) {
      problem(
        ctx,
        i,
        'SB_ROUTING_DUPLICATE_KEY',
        `key ${label(typeCells(ctx, i) ?? {}, options.key)} is declared more than once`,
      );
      continue;
    }
    if (index === undefined) {
      created.add(k);
      addCreate(ctx, i);
    } else {
      matched[index] = 1;
      compareRow(ctx, i, live[index] as RoutingRecord);
    }
  }
  out.updateGroups = [...groups.values()];
  untypedProblem(guessed, table, out.problems);
  if (out.creates.length > 0)
    findLookalikes(out, liveIndex, live, options.key, (index) => options.prune && matched[index] !== 1);
  for (const index of liveIndex.values()) {
    if (matched[index] === 1) continue;
    const row = live[index] as RoutingRecord;
    if (options.prune) out.deletes.push({ id: row.id, key: label(row, options.key), row });
    else out.unmanaged++;
  }
  return out;
}

interface RowContext {
  table: ColumnarRows;
  casters: Caster[];
  options: RowDiffOptions;
  out: RowDiff;
  groups: Map<string, UpdateGroup>;
  live: readonly RoutingRecord[];
  /** Each column's live type, found once: a table of bad cells would otherwise scan the live rows per cell. */
  liveTypes: Map<string, RoutingFieldType | undefined>;
}

/**
 * Live rows by key. One map operation per row instead of a lookup before each insert; a key
 * seen twice, which is rare, sends the whole index to
 * {@link indexLiveCarefully}, which keeps the first row of each key and names the others.
 */
function indexLive(live: readonly RoutingRecord[], key: readonly string[], problems: RowDiffProblem[]): StringIndex {
  const index = new StringIndex(live.length);
  for (let i = 0; i < live.length; i++) {
    const k = liveKey(live[i] as RoutingRecord, key);
    if (k === '') continue;
    const size = index.size;
    index.set(k, i);
    if (index.size === size) return indexLiveCarefully(live, key, problems);
  }
  return index;
}

function indexLiveCarefully(
  live: readonly RoutingRecord[],
  key: readonly string[],
  problems: RowDiffProblem[],
): StringIndex {
  const index = new StringIndex(live.length);
  for (let i = 0; i < live.length; i++) {
    const row = live[i] as RoutingRecord;
    const k = liveKey(row, key);
    if (k === '') continue;
    const other = index.get(k);
    if (other === undefined) index.set(k, i);
    else
      problems.push({
        code: 'SB_ROUTING_LIVE_DUPLICATE_KEY',
        message: `live rows ${live[other]?.id} and ${row.id} share the key ${label(row, key)}; the key does not identify one row`,
      });
  }
  return index;
}

/** A live row's map key: its key fields joined; empty when one is missing or empty. */
function liveKey(row: RoutingRecord, key: readonly string[]): string {
  let k = '';
  for (let j = 0; j < key.length; j++) {
    const v = row[key[j] as string];
    // As a manifest's row, whose key field cannot be empty (desiredKey): a live row with one
    // empty could never be declared, so it is never matched, nor pruned.
    if (v === null || v === undefined || v === '') return '';
    k = j === 0 ? String(v) : `${k}${SEP}${String(v)}`;
  }
  return k;
}

/** The map key of a desired row: typed key cells joined; null when one is missing. */
function desiredKey(
  cells: readonly unknown[],
  keyCols: readonly number[],
  casters: readonly Caster[],
): string | null | typeof BAD {
  let out = '';
  for (let j = 0; j < keyCols.length; j++) {
    const col = keyCols[j] as number;
    if (col < 0) return null;
    const v = (casters[col] as Caster)(cells[col]);
    if (v === BAD) return BAD;
    if (v === null || v === undefined || v === '') return null;
    out = j === 0 ? String(v) : `${out}${SEP}${String(v)}`;
  }
  return out;
}

/** Compares one desired row with its live row, casting cells on the fly (no allocation for a noop). */
function compareRow(ctx: RowContext, i: number, current: RoutingRecord): void {
  const cells = ctx.table.rows[i] as readonly unknown[];
  const { columns } = ctx.table;
  let groupKey = '';
  let changed: number[] | null = null;
  for (let c = 0; c < columns.length; c++) {
    if (cells[c] === undefined) continue;
    const want = (ctx.casters[c] as Caster)(cells[c]);
    if (want === BAD) return problem(ctx, i, 'SB_ROUTING_BAD_VALUE', badValue(ctx, i, columns[c] as string, cells[c]));
    const have = current[columns[c] as string];
    if (want === have || (want === null && (have === null || have === undefined)) || sameValue(want, have)) continue;
    (changed ??= []).push(c);
    groupKey += `${columns[c]}${SEP}${JSON.stringify(want)}${SEP}`;
  }
  if (!changed) {
    ctx.out.noops++;
    return;
  }
  let group = ctx.groups.get(groupKey);
  if (!group) {
    const changes: Record<string, unknown> = {};
    for (const c of changed) changes[columns[c] as string] = (ctx.casters[c] as Caster)(cells[c]);
    ctx.groups.set(groupKey, (group = { changes, rows: [] }));
  }
  const before: Record<string, unknown> = {};
  for (const c of changed) before[columns[c] as string] = current[columns[c] as string] ?? null;
  ctx.out.updatedLive.set(current.id, current);
  const update = withSource({ id: current.id, key: label(current, ctx.options.key), before }, ctx.table.sourceOf?.(i));
  group.rows.push(withSensitive(update, ctx, i));
}

function addCreate(ctx: RowContext, i: number): void {
  const typed = typeCells(ctx, i);
  if (!typed) return;
  const create = withSource({ key: label(typed, ctx.options.key), values: typed }, ctx.table.sourceOf?.(i));
  ctx.out.creates.push(withSensitive(create, ctx, i));
}

/** A row's create or update with the row's sensitive fields, when it has any (most rows have none: no property). */
function withSensitive<T extends object>(value: T, ctx: RowContext, i: number): T & { sensitive?: readonly string[] } {
  const sensitive = ctx.table.sensitiveOf?.(i);
  return sensitive === undefined || sensitive.length === 0 ? value : { ...value, sensitive };
}

/** The row as a typed record; null (and a problem) when a cell does not fit its type. */
function typeCells(ctx: RowContext, i: number): Record<string, unknown> | null {
  const cells = ctx.table.rows[i] as readonly unknown[];
  const typed: Record<string, unknown> = {};
  for (let c = 0; c < ctx.table.columns.length; c++) {
    if (cells[c] === undefined) continue;
    const value = (ctx.casters[c] as Caster)(cells[c]);
    if (value === BAD) {
      problem(ctx, i, 'SB_ROUTING_BAD_VALUE', badValue(ctx, i, ctx.table.columns[c] as string, cells[c]));
      return null;
    }
    typed[ctx.table.columns[c] as string] = value;
  }
  return typed;
}

/** Object rows to the columnar form (one array per row; the cost is paid once, linearly). */
function columnar(rows: readonly DesiredRow[]): ColumnarRows {
  const index = new Map<string, number>();
  const columns: string[] = [];
  const out: unknown[][] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const values = (rows[i] as DesiredRow).values;
    const cells: unknown[] = [];
    for (const field in values) {
      let c = index.get(field);
      if (c === undefined) {
        index.set(field, (c = columns.length));
        columns.push(field);
      }
      cells[c] = values[field];
    }
    out[i] = cells;
  }
  return { columns, rows: out, sourceOf: (i) => rows[i]?.source };
}

function problem(ctx: RowContext, i: number, code: RowDiffProblem['code'], message: string): void {
  ctx.out.problems.push(withSource({ code, message }, ctx.table.sourceOf?.(i)));
}

/**
 * Why a cell does not fit. An integer beyond 2^53 has no exact double, and JSON carries
 * numbers as doubles (switchboard's and most engines' parsers): in a numeric column it
 * cannot be written or compared exactly, whatever spec.fields says. Only a text column of
 * the engine keeps it, and the advice depends on what the column holds. A sensitive value
 * (of row `i`, from `${VAR}`) is not quoted: the message is output.
 */
function badValue(ctx: RowContext, i: number, field: string, value: unknown): string {
  const at = `field "${field}": `;
  const secret = ctx.table.sensitiveOf?.(i)?.includes(field) === true;
  if (isUnsafeInteger(value) || (typeof value === 'string' && isUnsafeIntegerText(value))) {
    if (!ctx.liveTypes.has(field)) ctx.liveTypes.set(field, liveTypeOf(ctx.live, field));
    const held = ctx.liveTypes.get(field);
    const numeric = held === 'integer' || held === 'number';
    const shown = secret
      ? 'its value from the environment'
      : typeof value === 'number'
        ? `${String(value)} (as YAML read it: a number)`
        : String(value).trim();
    if (numeric)
      return (
        `${at}${shown} is beyond 2^53, and the engine holds numbers in this column: JSON carries numbers as ` +
        'doubles, so it would be written and read back inexactly, and every plan would differ. Keep the values ' +
        'of a numeric column below 2^53, or keep such values in a text column of the engine (declared string)'
      );
    return (
      `${at}${shown} is beyond 2^53, which no number holds exactly (JSON carries numbers as doubles). If the ` +
      "engine's column is text, write the value in quotes and declare the field string in spec.fields; a " +
      'numeric column cannot hold it exactly'
    );
  }
  return `${at}${secret ? 'its value from the environment' : JSON.stringify(value)} is not a valid value for its type`;
}

function withSource<T extends object>(value: T, source: string | undefined): T & { source?: string } {
  return source === undefined ? value : { ...value, source };
}
