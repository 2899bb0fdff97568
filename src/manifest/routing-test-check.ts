import { Codes } from './codes.js';
import type { DesiredSet } from './desired-set.js';
import { vectorLabel, type ChangeWindow, type RoutingTestSet } from './assurance-types.js';
import type { Reporter } from './reporter.js';
import { didYouMean } from './suggest.js';
import type { SourcePosition } from './types.js';
import { declaredAnswer, declaredRow, probeKeys, sensitiveColumns, verdict } from './vector-lookup.js';

/**
 * Every vector of the RoutingTest documents against the declared rows of its table, once
 * every document and CSV file is read (`validate` and `plan` stop here, before anything is
 * sent): a vector the rows answer otherwise than it expects is an error at the vector,
 * naming the row that answered and where it is declared. A table no manifest declares can
 * only be checked live (`verify`): said once, as a warning. Each vector costs its probes in
 * the table's key index.
 */
export function checkRoutingTests(tests: readonly RoutingTestSet[], set: DesiredSet, reporter: Reporter): void {
  const seen = new Map<string, string>();
  for (const test of tests) {
    const at = positionOf(test.source);
    const first = seen.get(test.name);
    if (first !== undefined) {
      reporter.error(
        Codes.duplicate,
        `RoutingTest ${test.name} is also declared at ${first}; names are unique in the set`,
        at,
      );
      continue;
    }
    seen.set(test.name, test.source);
    const table = set.routingTables.find((t) => t.table.address === test.table);
    if (!table) {
      reporter.warning(
        Codes.routingTest,
        `no manifest declares the routing table ${test.table}: the ${test.vectors.length} vectors of ${test.name} are checked against the live engine only (switchboard verify, apply --verify)`,
        at,
      );
      continue;
    }
    if (test.mode.type === 'longest-prefix' && !table.key.includes(test.mode.column)) {
      reporter.error(
        Codes.routingTest,
        `match: longest-prefix(${test.mode.column}) needs ${test.mode.column} among the key fields of ${test.table} (${table.key.join(', ')}): a prefix table is keyed by its prefix`,
        at,
      );
      continue;
    }
    for (const vector of test.vectors) {
      const probes = probeKeys(table.key, test.mode, vector.lookup);
      const label = `vector ${vectorLabel(vector)} of ${test.name}`;
      // A field no row declares would pass here unchecked (the rows give it no value to compare).
      const unknown = Object.keys(vector.expect ?? {}).filter((field) => !table.columns.includes(field));
      if (unknown.length > 0) {
        const fields = unknown.map((f) => `"${f}"${didYouMean(f, table.columns)}`).join(', ');
        reporter.error(
          Codes.routingTest,
          `${label}: expects ${fields}, which no declared row of ${test.table} has; its columns are ${table.columns.join(', ')}`,
          positionOf(vector.source),
        );
        continue;
      }
      if (typeof probes === 'string') {
        reporter.error(Codes.routingTest, `${label}: ${probes}`, positionOf(vector.source));
        continue;
      }
      const index = declaredAnswer(table, probes);
      const answer = index === undefined ? undefined : declaredRow(table, index);
      const wrong = verdict(vector, answer, true, sensitiveColumns(table));
      if (wrong === undefined) continue;
      const where = index === undefined ? undefined : set.sourceOf(set.row(table, index));
      const declared = where ? ` (declared at ${where.file}:${where.line}:${where.column})` : '';
      reporter.error(Codes.routingTest, `${label}: ${wrong}${answer ? declared : ''}`, positionOf(vector.source));
    }
  }
}

/** ChangeWindow names are unique in the set: a refusal names one window. The first of a name is kept. */
export function uniqueWindows(windows: readonly ChangeWindow[], reporter: Reporter): ChangeWindow[] {
  const seen = new Map<string, ChangeWindow>();
  for (const window of windows) {
    const first = seen.get(window.name);
    if (first)
      reporter.error(
        Codes.duplicate,
        `ChangeWindow ${window.name} is also declared at ${first.source}; names are unique in the set`,
        positionOf(window.source),
      );
    else seen.set(window.name, window);
  }
  return [...seen.values()];
}

/** `file:line:col` back into a position (a file name may hold `:`). */
function positionOf(source: string): SourcePosition {
  const m = /^(.*):(\d+):(\d+)$/.exec(source);
  return m ? { file: m[1] as string, line: Number(m[2]), column: Number(m[3]) } : { file: source, line: 1, column: 1 };
}
