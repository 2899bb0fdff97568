/**
 * The live searches of `verify` and `apply --verify` (docs/assurance.md "Routing tests"): whether a
 * tested table can be shown to exist, and the engine's answer to one vector, each with its own
 * search (Document 3 §4.1 filters and ordering).
 */
import { liveRow, type Answer, type JsonScalar, type RoutingTestSet, type RoutingVector } from '../manifest/index.js';
import { basePath, type RoutingClient, type RoutingTableRef } from '../routing/index.js';
import type { Filter } from '../routing/query.js';

/**
 * Whether the table a test searches can be shown to exist: undefined when a one-row list of it
 * answers a list object (even an empty one); otherwise why no vector of it can pass. Document 3 §4.2 answers a list 404 "when
 * data not found" and a search 404 "when no record matches", and a table that does not exist
 * answers 404 too: a vector's empty answer alone cannot tell a missing table (a typo in `table:`)
 * from a missing row, and an `expect: absent` vector would pass against any table name. A table
 * whose list answers 404 (it does not exist, or holds no row) is not shown to exist: its vectors
 * do not pass (docs/design-decisions.md "Assurance").
 */
export async function tableNotShown(client: RoutingClient, test: RoutingTestSet): Promise<string | undefined> {
  const ref = test.ref as RoutingTableRef;
  // A list object, even an empty one, is an answer only a table that exists gives.
  if ((await client.listPage(ref, { resultsPerPage: 1 })) !== null) return undefined;
  return (
    `GET ${basePath(ref)} (a list of its rows) answered 404: ${test.table} does not exist or holds no row, ` +
    'and no vector passes against a table not shown to exist (check the table: of the RoutingTest)'
  );
}

/**
 * The engine's answer to one vector. Exact: every lookup field `==` its value (two rows
 * asked for, to tell an ambiguous answer). Longest prefix: the other fields `==`, the prefix
 * column `in` every prefix of the number, ordered by the prefix column descending (of the
 * prefixes of one number, the longest sorts last as text and as a number) and two rows asked
 * for: the first answers, and a second with the same prefix makes the answer ambiguous (the
 * lookup is no key of the table). No match is a 404 (Document 3 §4.2) or an empty list.
 */
export async function searchVector(
  client: RoutingClient,
  test: RoutingTestSet,
  vector: RoutingVector,
  key: readonly string[] | undefined,
  types: Readonly<Record<string, string>>,
  hidden: readonly string[] = [],
): Promise<Answer | undefined> {
  const ref = test.ref as RoutingTableRef;
  const typed = (field: string, value: JsonScalar): unknown => {
    const type = types[field];
    if (typeof value !== 'string') return value;
    if (type === 'integer' || type === 'number') return Number(value);
    if (type === 'boolean') return value === 'true';
    return value;
  };
  const keyFields = key ?? Object.keys(vector.lookup);
  const mode = test.mode;
  if (mode.type === 'exact') {
    const filters: Filter[] = Object.entries(vector.lookup).map(([name, v]) => ({
      name,
      op: '==',
      val: typed(name, v),
    }));
    const page = await client.listPage(ref, { q: { filters }, resultsPerPage: 2 });
    const rows = page?.objects ?? [];
    if (rows.length > 1)
      throw new Error(`${page?.num_results ?? rows.length} rows answer: the lookup is no key of the table`);
    return rows[0] ? liveRow(keyFields, rows[0], hidden) : undefined;
  }
  const dialled = dialledField(vector, mode.column, key);
  const number = String(vector.lookup[dialled] ?? '');
  const prefixes = Array.from({ length: number.length }, (_, i) => number.slice(0, number.length - i));
  const filters: Filter[] = Object.entries(vector.lookup)
    .filter(([name]) => name !== dialled)
    .map(([name, v]) => ({ name, op: '==', val: typed(name, v) }));
  filters.push({ name: mode.column, op: 'in', val: prefixes.map((p) => typed(mode.column, p)) });
  const order_by = [{ field: mode.column, direction: 'desc' as const }];
  const page = await client.listPage(ref, { q: { filters, order_by }, resultsPerPage: 2 });
  const rows = page?.objects ?? [];
  const prefixOf = (row: Readonly<Record<string, unknown>>) => String(row[mode.column] ?? '');
  // The longest of the page whatever its order; the search's order puts it first.
  const best = rows.reduce<Record<string, unknown> | undefined>(
    (found, row) => (found === undefined || prefixOf(row).length > prefixOf(found).length ? row : found),
    undefined,
  );
  if (best === undefined) return undefined;
  const ties = rows.filter((row) => prefixOf(row) === prefixOf(best)).length;
  if (ties > 1)
    throw new Error(
      `several rows answer with ${mode.column}=${prefixOf(best)}: the lookup is no key of the table (name its other key fields)`,
    );
  return liveRow(key ?? [mode.column], best, hidden);
}

/** The lookup field holding the number a longest-prefix vector looks up: the column itself, or the one field that is no key field. */
function dialledField(vector: RoutingVector, column: string, key: readonly string[] | undefined): string {
  if (column in vector.lookup) return column;
  const others = Object.keys(vector.lookup).filter((f) => !(key ?? []).includes(f));
  if (others.length !== 1)
    throw new Error(
      `match: longest-prefix(${column}) looks up one number; the lookup names ${others.join(', ') || 'none'}${key ? '' : ' (the table is not declared: name the number alone, or under ' + column + ')'}`,
    );
  return others[0] as string;
}
