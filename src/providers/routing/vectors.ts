import {
  answerText,
  declaredRow,
  liveIndex,
  liveRow,
  probeKeys,
  sameAnswer,
  sensitiveColumns,
  vectorLabel,
  type Answer,
  type DesiredRoutingTable,
  type RoutingTestSet,
  verdict,
} from '../../manifest/index.js';
import { routingTestKind } from '../../kinds/routing-test.js';
import type { PlanMessage, VectorChange, VectorFailing } from '../../plan/types.js';
import type { LiveTable } from './plan.js';

/** Vector changes (and vectors that will fail) a plan lists; the rest are counted. */
const MAX_VECTOR_CHANGES = 200;

/** Failing vectors a warning names; the rest are counted (the plan's routingTests lists more). */
const NAMED_IN_WARNING = 3;

/** What the plan says of the vectors of the tables it read. */
export interface VectorOutlook {
  /** Vectors whose answer the plan changes (the first listed) and how many. */
  changed: VectorChange[];
  count: number;
  /** Vectors the rows the apply leaves will answer otherwise than expected (the first listed) and how many. */
  failing: VectorFailing[];
  failingCount: number;
  /** One warning per RoutingTest with vectors that will fail (`SB_ROUTING_TEST_WILL_FAIL`). */
  warnings: PlanMessage[];
}

/**
 * The vectors whose answer a plan changes (docs/assurance.md): each vector of a table the
 * plan read, answered by the live rows now and by the rows the apply leaves: the declared
 * ones (over the live values of the fields they leave out), and, in a table that does not
 * prune, the undeclared live rows too. One pass over each table's live rows for all its vectors.
 * The answer after the apply is checked against the vector's expectation too: the declared
 * rows pass every vector (the loader checked them), but a live row the apply keeps (a longer
 * prefix nobody declared) or a live value of a field the rows leave out can fail one, and
 * `apply --verify` would then fail after the changes are sent. A field neither the declared nor
 * the live row gives is not judged (the engine's default is not known before the apply).
 */
export function vectorChanges(
  tests: readonly RoutingTestSet[],
  live: readonly LiveTable[],
  prune: (table: DesiredRoutingTable) => boolean,
): VectorOutlook {
  const out: VectorOutlook = { changed: [], count: 0, failing: [], failingCount: 0, warnings: [] };
  for (const test of tests) {
    const read = live.find((t) => t.table.table.address === test.table);
    if (!read) continue;
    const table = read.table;
    const probes = test.vectors.map((v) => probeKeys(table.key, test.mode, v.lookup));
    const lists = probes.map((p) => (typeof p === 'string' ? [] : p));
    const found = liveIndex(table.key, read.rows, lists);
    const prunes = prune(table);
    const hidden = sensitiveColumns(table);
    const failed: VectorFailing[] = [];
    test.vectors.forEach((vector, i) => {
      const list = lists[i] as string[];
      const before = answerOf(list, (p) => liveAnswer(table.key, found.get(p), hidden));
      const after = answerOf(list, (p) => {
        const declared = table.index.get(p);
        const kept = found.get(p);
        if (declared !== undefined) return merged(table, declared, kept);
        return prunes ? undefined : liveAnswer(table.key, kept, hidden);
      });
      const wrong = verdict(vector, after, true, hidden);
      if (wrong !== undefined) {
        failed.push({
          test: test.name,
          table: test.table,
          vector: vectorLabel(vector),
          message: wrong,
          source: vector.source,
        });
      }
      if (sameAnswer(vector, test.mode, before, after)) return;
      const was = answerText(vector, test.mode, before);
      const will = answerText(vector, test.mode, after);
      out.count += 1;
      if (out.changed.length < MAX_VECTOR_CHANGES)
        out.changed.push({
          test: test.name,
          table: test.table,
          vector: vectorLabel(vector),
          before: was,
          after: will,
          source: vector.source,
        });
    });
    if (failed.length > 0) {
      out.failingCount += failed.length;
      out.failing.push(...failed.slice(0, Math.max(0, MAX_VECTOR_CHANGES - out.failing.length)));
      out.warnings.push(willFail(test, failed));
    }
  }
  return out;
}

/** `2 of 3 vectors of carriers-behaviour will fail once this plan is applied: +32…: expects …; …`. */
function willFail(test: RoutingTestSet, failed: readonly VectorFailing[]): PlanMessage {
  const named = failed.slice(0, NAMED_IN_WARNING).map((f) => `${f.vector} (${f.source}): ${f.message}`);
  const more = failed.length > NAMED_IN_WARNING ? `; and ${failed.length - NAMED_IN_WARNING} more` : '';
  return {
    code: 'SB_ROUTING_TEST_WILL_FAIL',
    message:
      `${failed.length} of ${test.vectors.length} vectors of ${test.name} will fail once this plan is applied ` +
      `(apply --verify would exit 1): the rows the apply leaves in ${test.table} answer otherwise. ` +
      `${named.join('; ')}${more}. Declare or prune the row that answers, or correct the vector`,
    address: routingTestKind.address(test.name),
    source: test.source,
  };
}

function answerOf(probes: readonly string[], rowAt: (probe: string) => Answer | undefined): Answer | undefined {
  for (const p of probes) {
    const answer = rowAt(p);
    if (answer) return answer;
  }
  return undefined;
}

function liveAnswer(
  key: readonly string[],
  row: Readonly<Record<string, unknown>> | undefined,
  hidden: readonly string[],
): Answer | undefined {
  return row ? liveRow(key, row, hidden) : undefined;
}

/** A declared row as the apply leaves it: its declared values over the live row's. */
function merged(
  table: DesiredRoutingTable,
  index: number,
  live: Readonly<Record<string, unknown>> | undefined,
): Answer {
  return declaredRow(table, index, live ? liveRow(table.key, live).values : undefined);
}
