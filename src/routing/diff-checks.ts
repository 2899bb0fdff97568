/**
 * Checks of the row diff beyond matching rows: text columns whose type nothing says (a
 * guess the plan refuses), and created keys that a live key equals once trimmed and
 * case-folded (a likely second copy the plan warns about).
 */
import { foldIdentity } from '../core/values.js';
import { liveTypeOf } from './cast.js';
import type { ColumnarRows, RowDiff, RowDiffProblem } from './diff.js';
import { label, SEP } from './row-key.js';
import type { RoutingFieldType, RoutingRecord } from './types.js';

/**
 * Columns whose type nothing says (not declared, no live value): column index → the first
 * text row giving it a value (-1 until one does).
 */
export function untypedTextColumns(
  table: ColumnarRows,
  live: readonly RoutingRecord[],
  declared: Readonly<Record<string, RoutingFieldType>>,
): Map<number, number> {
  const out = new Map<number, number>();
  if (!table.isText) return out;
  table.columns.forEach((field, c) => {
    if (declared[field] === undefined && liveTypeOf(live, field) === undefined) out.set(c, -1);
  });
  return out;
}

export function noteGuesses(guessed: Map<number, number>, cells: readonly unknown[], row: number): void {
  for (const [column, first] of guessed) if (first < 0 && cells[column] !== undefined) guessed.set(column, row);
}

/** Created keys that a live key equals once trimmed and case-folded; the diff's creates are in manifest order. */
export function findLookalikes(
  out: RowDiff,
  liveIndex: ReadonlyMap<string, number>,
  live: readonly RoutingRecord[],
  key: readonly string[],
): void {
  const folded = new Map<string, number>();
  for (const [k, index] of liveIndex) folded.set(foldKey(k), index);
  for (const create of out.creates) {
    const k = key.map((field) => String(create.values[field])).join(SEP);
    const index = folded.get(foldKey(k));
    if (index === undefined) continue;
    const row = live[index] as RoutingRecord;
    const lookalike = { key: create.key, liveKey: label(row, key), liveId: row.id };
    out.lookalikes.push(create.source === undefined ? lookalike : { ...lookalike, source: create.source });
  }
}

function foldKey(k: string): string {
  return k.includes(SEP) ? k.split(SEP).map(foldIdentity).join(SEP) : foldIdentity(k);
}

/** One problem naming every text column of `table` that a row gave a value without a type. */
export function untypedProblem(
  guessed: ReadonlyMap<number, number>,
  table: ColumnarRows,
  problems: RowDiffProblem[],
): void {
  const untyped = [...guessed].filter(([, row]) => row >= 0);
  if (untyped.length === 0) return;
  const names = untyped.map(([column]) => table.columns[column] as string);
  const quoted = names.map((n) => `"${n}"`).join(', ');
  const message =
    `${names.length === 1 ? 'column' : 'columns'} ${quoted} ${names.length === 1 ? 'has' : 'have'} no declared ` +
    'type and no live row shows one (the table is empty, or the column holds no value); CSV cells are text, and ' +
    'text sent to a boolean or integer column fails on every row or is stored as text. Declare the types in ' +
    `spec.fields (string, integer, number or boolean), e.g. fields: { ${names.map((n) => `${n}: …`).join(', ')} }`;
  const first = Math.min(...untyped.map(([, row]) => row));
  const source = table.sourceOf?.(first);
  problems.push({ code: 'SB_ROUTING_UNTYPED', message, ...(source === undefined ? {} : { source }) });
}
