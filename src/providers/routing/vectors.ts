import {
  answerText,
  declaredRow,
  liveIndex,
  liveRow,
  probeKeys,
  vectorLabel,
  type Answer,
  type DesiredRoutingTable,
  type RoutingTestSet,
} from '../../manifest/index.js';
import type { VectorChange } from '../../plan/types.js';
import type { LiveTable } from './plan.js';

/** Vector changes a plan lists; the rest are counted. */
const MAX_VECTOR_CHANGES = 200;

/**
 * The vectors whose answer a plan changes (docs/assurance.md): each vector of a table the
 * plan read, answered by the live rows now and by the rows the apply leaves: the declared
 * ones (over the live values of the fields they leave out), and, in a table that does not
 * prune, the undeclared live rows too. One pass over each table's live rows for all its vectors.
 */
export function vectorChanges(
  tests: readonly RoutingTestSet[],
  live: readonly LiveTable[],
  prune: (table: DesiredRoutingTable) => boolean,
): { changed: VectorChange[]; count: number } {
  const changed: VectorChange[] = [];
  let count = 0;
  for (const test of tests) {
    const read = live.find((t) => t.table.table.address === test.table);
    if (!read) continue;
    const table = read.table;
    const probes = test.vectors.map((v) => probeKeys(table.key, test.mode, v.lookup));
    const lists = probes.map((p) => (typeof p === 'string' ? [] : p));
    const found = liveIndex(table.key, read.rows, lists);
    const prunes = prune(table);
    test.vectors.forEach((vector, i) => {
      const list = lists[i] as string[];
      const before = answerOf(list, (p) => liveAnswer(table.key, found.get(p)));
      const after = answerOf(list, (p) => {
        const declared = table.index.get(p);
        const kept = found.get(p);
        if (declared !== undefined) return merged(table, declared, kept);
        return prunes ? undefined : liveAnswer(table.key, kept);
      });
      const was = answerText(vector, test.mode, before);
      const will = answerText(vector, test.mode, after);
      if (was === will) return;
      count += 1;
      if (changed.length < MAX_VECTOR_CHANGES)
        changed.push({
          test: test.name,
          table: test.table,
          vector: vectorLabel(vector),
          before: was,
          after: will,
          source: vector.source,
        });
    });
  }
  return { changed, count };
}

function answerOf(probes: readonly string[], rowAt: (probe: string) => Answer | undefined): Answer | undefined {
  for (const p of probes) {
    const answer = rowAt(p);
    if (answer) return answer;
  }
  return undefined;
}

function liveAnswer(key: readonly string[], row: Readonly<Record<string, unknown>> | undefined): Answer | undefined {
  return row ? liveRow(key, row) : undefined;
}

/** A declared row as the apply leaves it: its declared values over the live row's. */
function merged(
  table: DesiredRoutingTable,
  index: number,
  live: Readonly<Record<string, unknown>> | undefined,
): Answer {
  return declaredRow(table, index, live ? liveRow(table.key, live).values : undefined);
}
