/**
 * Checks of the row diff beyond matching rows: text columns whose type nothing says (a
 * guess the plan refuses), and created keys that a live key equals once folded
 * (`foldIdentity`: a likely second copy the plan warns about).
 */
import { fitsColumnType, foldIdentity } from '../core/values.js';
import { liveTypeOf } from './cast.js';
import type { ColumnarRows, RowDiff, RowDiffOptions, RowDiffProblem, RowLookalike } from './diff.js';
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

/**
 * Created keys that a live key equals once folded (`foldIdentity`; `deleted`: whether that
 * live row is pruned by the same diff), and created keys that equal each other so (and no
 * live key); the diff's creates are in manifest order.
 */
export function findLookalikes(
  out: RowDiff,
  liveIndex: ReadonlyMap<string, number>,
  live: readonly RoutingRecord[],
  key: readonly string[],
  deleted: (index: number) => boolean,
): void {
  const spelled = new Map<string, { key: string; source?: string }[]>();
  // Only the live keys that folding changes are folded into a map of their own: a key of
  // printable ASCII without spaces or capitals is its own folded form, and is found in
  // `liveIndex` itself. Folding all 1,000,000 keys of a table into a second map took 0.4 s.
  // The live index lists rows in ascending position, and the last live key of a folded
  // form has always been the one reported: the greater index of the two lookups.
  const folded = new Map<string, number>();
  for (const [k, index] of liveIndex) if (!ALREADY_FOLDED.test(k)) folded.set(foldKey(k), index);
  for (const create of out.creates) {
    const k = foldKey(key.map((field) => String(create.values[field])).join(SEP));
    const changed = folded.get(k);
    const same = ALREADY_FOLDED.test(k) ? liveIndex.get(k) : undefined;
    const index = same === undefined || (changed !== undefined && changed > same) ? changed : same;
    const at = create.source === undefined ? {} : { source: create.source };
    if (index === undefined) {
      const group = spelled.get(k);
      if (group) group.push({ key: create.key, ...at });
      else spelled.set(k, [{ key: create.key, ...at }]);
      continue;
    }
    const row = live[index] as RoutingRecord;
    const lookalike: RowLookalike = { key: create.key, liveKey: label(row, key), liveId: row.id, ...at };
    if (deleted(index)) lookalike.liveDeleted = true;
    out.lookalikes.push(lookalike);
  }
  for (const group of spelled.values()) if (group.length > 1) out.spelledAlike.push(group);
}

/**
 * Printable ASCII but space and capitals, and the key separator: what `foldKey` leaves as it
 * is (no such character is invisible or changed by NFKC).
 */
const ALREADY_FOLDED = /^[\x1f!-@[-~]*$/;

function foldKey(k: string): string {
  return k.includes(SEP) ? k.split(SEP).map(foldIdentity).join(SEP) : foldIdentity(k);
}

/** The word for what a live value is. */
function kindOfValue(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integers' : 'numbers';
  if (typeof value === 'boolean') return 'booleans';
  return typeof value === 'string' ? 'text' : typeof value;
}

/**
 * A column `spec.fields` declares with a type that no live value has (`string` declared,
 * integers live): the declaration contradicts what the engine holds (Document 3 publishes no
 * schema: its live values are what there is to go by). Values declared so would be sent in
 * the declared type, which an engine that checks types refuses (Document 3 §4.2: 500 for
 * text in an integer column) and one that converts stores in its own. A problem per such
 * column; one fitting value is enough to find none (a scan stops there).
 */
export function typeContradictions(
  table: ColumnarRows,
  live: readonly RoutingRecord[],
  declared: Readonly<Record<string, RoutingFieldType>>,
  problems: RowDiffProblem[],
): void {
  for (const field of table.columns) {
    const type = declared[field];
    if (type === undefined) continue;
    let first: RoutingRecord | undefined;
    let values = 0;
    let fitting = false;
    for (const row of live) {
      const v = row[field];
      if (v === null || v === undefined) continue;
      if (fitsColumnType(v, type)) {
        fitting = true;
        break;
      }
      first ??= row;
      values++;
    }
    if (fitting || !first) continue;
    const held = kindOfValue(first[field]);
    const instead =
      held === 'integers' ? 'integer' : held === 'numbers' ? 'number' : held === 'booleans' ? 'boolean' : 'string';
    problems.push({
      code: 'SB_ROUTING_TYPE_MISMATCH',
      message:
        `spec.fields declares "${field}" ${type}, but the engine holds ${held} in it (all ${values} live value(s), ` +
        `e.g. row id ${first.id}: ${JSON.stringify(first[field])}): values would be sent as ${type}, which an engine ` +
        'that checks types refuses and one that converts stores as it holds them. Declare it ' +
        `${instead} (what the engine holds), or leave it out of spec.fields: the live values then type it`,
    });
  }
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

/** A column's type: declared, else its live values'. */
export function columnType(
  field: string,
  live: readonly RoutingRecord[],
  options: RowDiffOptions,
): RoutingFieldType | undefined {
  return options.fieldTypes?.[field] ?? liveTypeOf(live, field);
}

/**
 * A YAML number in a text key column: its text as written is gone (`007` and `7.0` read as
 * 7), so the row it names is not known, and a guess would match, update or prune another row.
 */
export function numberForTextKey(field: string, value: unknown): string {
  return (
    `key field "${field}" is text, but YAML read this value as the number ${String(value)}: what was written ` +
    '(`007`, `1.0`, `1e3`) is not known, so neither is the row. Quote it'
  );
}
