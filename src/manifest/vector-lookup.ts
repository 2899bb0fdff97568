/**
 * Looking test vectors up in a routing table's rows (docs/assurance.md "Routing tests"):
 * a vector becomes the index keys to probe, in order (one for an exact key; for a longest
 * prefix, one per prefix of the number, longest first), so that the declared rows answer it
 * through the table's own key index and live rows in one pass over the table: never a scan
 * per vector.
 */
import { SENSITIVE } from '../core/secrets.js';
import { KEY_SEPARATOR } from './build-routing.js';
import type { LookupMode, RoutingVector } from './assurance-types.js';
import type { DesiredRoutingTable, JsonScalar } from './types.js';

/** The row that answers a vector: its values by field, and its key as a row address ends (`number=+32…`). */
export interface Answer {
  values: Readonly<Record<string, JsonScalar>>;
  key: string;
  /** Fields whose values a text about this answer shows as (sensitive): see {@link sensitiveColumns}. */
  hidden?: readonly string[];
}

const sensitiveByTable = new WeakMap<DesiredRoutingTable, readonly string[]>();

/**
 * The fields, other than the key's, that a declared row of `table` takes from `${VAR}`: in
 * every answer from the table, declared or live (a live row holds the same secret once
 * applied), a message shows them as (sensitive), and a vector's expected value of one too.
 * Key values are not hidden: a row's address spells them wherever it is named.
 */
export function sensitiveColumns(table: DesiredRoutingTable): readonly string[] {
  let found = sensitiveByTable.get(table);
  if (found === undefined) {
    const fields = new Set<string>();
    for (const row of table.sensitiveCells.values()) for (const field of row) fields.add(field);
    found = [...fields].filter((f) => !table.key.includes(f)).sort();
    sensitiveByTable.set(table, found);
  }
  return found;
}

/** The value of a lookup as a key cell: as `rowKey` spells it (empty and null are no value). */
function cell(value: JsonScalar | undefined): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

/**
 * The index keys that may answer a vector over a table keyed by `key`, in the order they
 * answer, or why the vector cannot be looked up there. Exact: the lookup names exactly the
 * key's fields. Longest prefix over `column` (a key field): the lookup names the other key
 * fields, and one more field (or `column` itself) holding the number whose prefixes are tried.
 */
export function probeKeys(
  key: readonly string[],
  mode: LookupMode,
  lookup: RoutingVector['lookup'],
): string[] | string {
  const names = Object.keys(lookup);
  if (mode.type === 'exact') {
    const same = names.length === key.length && key.every((f) => names.includes(f));
    if (!same)
      return `the lookup names ${names.join(', ') || 'nothing'}; match: exact looks a row up by the table's whole key (${key.join(', ')})`;
    const values = key.map((f) => cell(lookup[f]));
    if (values.some((v) => v === undefined)) return `the lookup gives no value for ${key.join(', ')}`;
    return [values.join(KEY_SEPARATOR)];
  }
  const others = key.filter((f) => f !== mode.column);
  const missing = others.filter((f) => cell(lookup[f]) === undefined);
  if (missing.length > 0)
    return `the lookup gives no value for the key field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
  const dialled = names.filter((n) => !others.includes(n));
  if (dialled.length !== 1)
    return `match: longest-prefix(${mode.column}) looks up one number (besides the other key fields ${others.join(', ') || 'none'}); the lookup names ${dialled.join(', ') || 'none'}`;
  const number = cell(lookup[dialled[0] as string]);
  if (number === undefined) return `the lookup gives no number for ${dialled[0] as string}`;
  const probes: string[] = [];
  for (let length = number.length; length > 0; length--) {
    const prefix = number.slice(0, length);
    probes.push(key.map((f) => (f === mode.column ? prefix : (cell(lookup[f]) as string))).join(KEY_SEPARATOR));
  }
  return probes;
}

/** The first of `probes` the declared rows hold: the index of the row that answers, or undefined. */
export function declaredAnswer(table: DesiredRoutingTable, probes: readonly string[]): number | undefined {
  for (const probe of probes) {
    const row = table.index.get(probe);
    if (row !== undefined) return row;
  }
  return undefined;
}

/**
 * A declared row as an answer; over `base` (a live row's values), what the apply leaves: the
 * declared values over the others.
 */
export function declaredRow(
  table: DesiredRoutingTable,
  index: number,
  base?: Readonly<Record<string, JsonScalar>>,
): Answer {
  const row = table.rows[index] ?? [];
  const values: Record<string, JsonScalar> = { ...base };
  table.columns.forEach((c, i) => {
    const v = row[i];
    if (v !== undefined) values[c] = v;
  });
  return withHidden({ values, key: keyText(table.key, values) }, sensitiveColumns(table));
}

function withHidden(answer: Answer, hidden: readonly string[]): Answer {
  return hidden.length > 0 ? { ...answer, hidden } : answer;
}

/**
 * The live rows any of the vectors' probes name, in one pass over the rows: the probes of
 * every vector in one set, each row's key looked up in it, so a million-row table costs one
 * lookup per row and keeps only the rows that answer something. By index key.
 */
export function liveIndex(
  key: readonly string[],
  rows: readonly Readonly<Record<string, unknown>>[],
  probes: readonly (readonly string[])[],
): Map<string, Readonly<Record<string, unknown>>> {
  const wanted = new Set<string>();
  for (const list of probes) for (const p of list) wanted.add(p);
  const found = new Map<string, Readonly<Record<string, unknown>>>();
  const single = key.length === 1 ? (key[0] as string) : undefined;
  for (const row of rows) {
    let k: string | undefined;
    if (single !== undefined) {
      const v = row[single];
      k = v === null || v === undefined || v === '' ? undefined : String(v);
    } else {
      const parts: string[] = [];
      for (const f of key) {
        const v = row[f];
        if (v === null || v === undefined || v === '') break;
        parts.push(String(v));
      }
      k = parts.length === key.length ? parts.join(KEY_SEPARATOR) : undefined;
    }
    if (k !== undefined && wanted.has(k) && !found.has(k)) found.set(k, row);
  }
  return found;
}

/** The live rows that answer each vector (see liveIndex). */
export function liveAnswers(
  key: readonly string[],
  rows: readonly Readonly<Record<string, unknown>>[],
  probes: readonly (readonly string[])[],
): (Answer | undefined)[] {
  const found = liveIndex(key, rows, probes);
  return probes.map((list) => {
    for (const p of list) {
      const row = found.get(p);
      if (row) return liveRow(key, row);
    }
    return undefined;
  });
}

/**
 * A live record as an answer (its `id` left out: the engine's, not the table's); `hidden`:
 * the table's {@link sensitiveColumns}.
 */
export function liveRow(
  key: readonly string[],
  row: Readonly<Record<string, unknown>>,
  hidden: readonly string[] = [],
): Answer {
  const values: Record<string, JsonScalar> = {};
  for (const [field, value] of Object.entries(row)) {
    if (field === 'id') continue;
    values[field] = value === undefined ? null : (value as JsonScalar);
  }
  return withHidden({ values, key: keyText(key, values) }, hidden);
}

function keyText(key: readonly string[], values: Readonly<Record<string, JsonScalar>>): string {
  return key.map((f) => `${f}=${String(values[f] ?? '')}`).join(',');
}

/** Whether two values are the same to a vector: as text, null and absent alike. */
function same(a: JsonScalar | undefined, b: JsonScalar | undefined): boolean {
  if (a === null || a === undefined) return b === null || b === undefined;
  if (b === null || b === undefined) return false;
  return String(a) === String(b);
}

/**
 * What a vector expected that its answer does not hold; undefined when the answer passes.
 * `declared`: the answer is a declared row, whose fields left out are unmanaged (their live
 * values stay): those are not judged. `hidden`: the table's {@link sensitiveColumns}, whose
 * values, expected or answered, the text shows as (sensitive).
 */
export function verdict(
  vector: Pick<RoutingVector, 'expect'>,
  answer: Answer | undefined,
  declared = false,
  hidden: readonly string[] = answer?.hidden ?? [],
): string | undefined {
  const expect = vector.expect;
  if (expect === null) return answer ? `expects no row; the row ${answer.key} answered` : undefined;
  const wanted = fieldsText(expect, hidden);
  if (!answer) return `expects ${wanted}; no row answered`;
  const wrong = Object.keys(expect).filter(
    (f) => !(declared && !(f in answer.values)) && !same(expect[f], answer.values[f]),
  );
  if (wrong.length === 0) return undefined;
  const got = Object.fromEntries(wrong.map((f) => [f, answer.values[f] ?? null]));
  return `expects ${wanted}; the row ${answer.key} answered ${fieldsText(got, hidden)}`;
}

/** `route trunk-7`, `route trunk-7, priority 10`; a hidden field's value `(sensitive)`. */
function fieldsText(values: Readonly<Record<string, JsonScalar | undefined>>, hidden: readonly string[]): string {
  return Object.entries(values)
    .map(([f, v]) => `${f} ${hidden.includes(f) ? SENSITIVE : v === null || v === undefined ? 'null' : String(v)}`)
    .join(', ');
}

/**
 * An answer as the plan lists a vector whose answer changes: the values the vector looks at
 * (its expected fields; the answering row's key when it expects none), `no row` without one,
 * and the prefix that answered for a longest-prefix lookup (`trunk-7 via prefix=+3221`). A
 * hidden field's value shows as (sensitive): whether the answer changed is {@link sameAnswer}.
 */
export function answerText(
  vector: Pick<RoutingVector, 'expect'>,
  mode: LookupMode,
  answer: Answer | undefined,
  reveal = false,
): string {
  if (!answer) return 'no row';
  const fields = vector.expect === null ? [] : Object.keys(vector.expect);
  if (fields.length === 0) return answer.key;
  const shown = (f: string) => (!reveal && answer.hidden?.includes(f) ? SENSITIVE : (answer.values[f] ?? null));
  const values = fields.map(shown);
  const text = fields.length === 1 ? String(values[0]) : fields.map((f, i) => `${f}=${String(values[i])}`).join(', ');
  return mode.type === 'longest-prefix' ? `${text} via ${answer.key}` : text;
}

/** Whether a vector's answer is the same before and after, its hidden values compared too. */
export function sameAnswer(
  vector: Pick<RoutingVector, 'expect'>,
  mode: LookupMode,
  before: Answer | undefined,
  after: Answer | undefined,
): boolean {
  return answerText(vector, mode, before, true) === answerText(vector, mode, after, true);
}
