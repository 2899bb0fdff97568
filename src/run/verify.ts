/**
 * Live verification of the RoutingTest vectors (docs/assurance.md "Routing tests"):
 * each vector asked of the routing engine with its own search (Document 3 §4.1 filters), one
 * request per vector after one per tested table (that it exists), at most the client's
 * concurrency at once. `apply --verify` runs it
 * after the apply, `switchboard verify` on its own; failures are written to the journal.
 */
import pLimit from 'p-limit';
import type { Journal } from '../apply/journal.js';
import { SwitchboardError } from '../core/errors.js';
import { routingTestKind } from '../kinds/routing-test.js';
import {
  sensitiveColumns,
  verdict,
  vectorLabel,
  type DesiredRoutingTable,
  type RoutingTestSet,
} from '../manifest/index.js';
import type { RoutingClient } from '../routing/index.js';
import { searchVector, tableNotShown } from './verify-search.js';

/** One vector that did not pass: it failed, or its search could not be made (not one a stopped run left unsearched). */
export interface VectorFailure {
  test: string;
  table: string;
  vector: string;
  outcome: 'failed' | 'error';
  message: string;
  source: string;
}

/** What verifying the vectors found. */
export interface Verification {
  tests: number;
  vectors: number;
  passed: number;
  failures: VectorFailure[];
  /** Vectors a stopped run (Ctrl-C, SIGTERM) did not search: neither passed nor failed. */
  notSearched: number;
  /** Requests sent: one per tested table (that it exists), one per vector searched. */
  requests: number;
}

/**
 * Asks the engine every vector of `tests`. Once `signal` is aborted the searches in flight are
 * cancelled and no other starts: those vectors are counted in `notSearched`, as neither passed
 * nor failed. The declared tables give the lookup values their types (an integer column is
 * searched with a number).
 */
async function verifyVectors(
  client: RoutingClient,
  tests: readonly RoutingTestSet[],
  options: { tables?: readonly DesiredRoutingTable[]; signal?: AbortSignal } = {},
): Promise<{ verification: Verification; unsearched: ReadonlySet<string> }> {
  const limit = pLimit(client.concurrency);
  const out: Verification = { tests: tests.length, vectors: 0, passed: 0, failures: [], notSearched: 0, requests: 0 };
  const unsearched = new Set<string>(); // the sources of the vectors not searched
  const signal = options.signal;
  // Searches are reads: a stopped run waits for none of them (as a plan's reads).
  const cancel = () => client.cancel('the run was interrupted');
  if (signal?.aborted) cancel();
  else signal?.addEventListener('abort', cancel, { once: true });
  // One list per tested table first: a vector cannot pass against a table not shown to exist.
  const probes = new Map<string, Promise<string | undefined>>();
  const probeOf = (test: RoutingTestSet) => {
    let probe = probes.get(test.table);
    if (!probe) {
      out.requests += 1;
      probe = limit(() => tableNotShown(client, test));
      probes.set(test.table, probe);
    }
    return probe;
  };
  const jobs = tests.flatMap((test) => {
    const table = options.tables?.find((t) => t.table.address === test.table);
    const types = table?.fieldTypes ?? {};
    const hidden = table ? sensitiveColumns(table) : [];
    const probe = probeOf(test);
    return test.vectors.map(async (vector) => {
      out.vectors += 1;
      const base = { test: test.name, table: test.table, vector: vectorLabel(vector), source: vector.source };
      let missing: string | undefined;
      try {
        missing = await probe;
      } catch (error) {
        missing = signal?.aborted ? undefined : error instanceof Error ? error.message : String(error);
      }
      if (missing !== undefined && !signal?.aborted) {
        out.failures.push({ ...base, outcome: 'error', message: missing });
        return;
      }
      return limit(async () => {
        if (signal?.aborted) {
          out.notSearched += 1;
          unsearched.add(vector.source);
          return;
        }
        try {
          out.requests += 1;
          const answer = await searchVector(client, test, vector, table?.key, types, hidden);
          const wrong = verdict(vector, answer, false, hidden);
          if (wrong === undefined) out.passed += 1;
          else out.failures.push({ ...base, outcome: 'failed', message: wrong });
        } catch (error) {
          // A search the signal cancelled says nothing of the vector.
          if (signal?.aborted) {
            out.notSearched += 1;
            unsearched.add(vector.source);
            return;
          }
          const message = error instanceof Error ? error.message : String(error);
          out.failures.push({ ...base, outcome: 'error', message });
        }
      });
    });
  });
  try {
    await Promise.all(jobs);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
  // Concurrent searches finish in any order: listed as the manifests list them.
  const order = new Map(tests.flatMap((t) => t.vectors.map((v, i) => [v.source, i] as const)));
  out.failures.sort((a, b) =>
    a.test < b.test ? -1 : a.test > b.test ? 1 : (order.get(a.source) ?? 0) - (order.get(b.source) ?? 0),
  );
  return { verification: out, unsearched };
}

/** What a live verification needs: the vectors, the declared tables (for types), a signal that stops it. */
export interface VectorsToVerify {
  tests: readonly RoutingTestSet[];
  tables: readonly DesiredRoutingTable[];
  signal?: AbortSignal;
}

/** The routing client of a run that verifies, or SB_CONFIG saying that `what` (the option or the command) needs one. */
export function routingClientFor(client: RoutingClient | undefined, what: string): RoutingClient {
  if (client) return client;
  throw new SwitchboardError('SB_CONFIG', `${what} searches the routing engine, and this run has no connection to one`);
}

/** Searches every vector live ({@link verifyVectors}) and writes the outcome into `journal` ({@link journalVerification}). */
export async function verifyIntoJournal(
  client: RoutingClient,
  journal: Journal,
  input: VectorsToVerify,
): Promise<Verification> {
  const { verification, unsearched } = await verifyVectors(client, input.tests, {
    tables: input.tables,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  journalVerification(journal, input.tests, verification, unsearched);
  return verification;
}

/**
 * The verification in the journal: one line per test (its vectors passed, or how many
 * failed) and one per vector that did not pass, with what it expected and what answered.
 * A test a stopped run did not search whole and that has no failure gets no line: it was
 * not verified, and the journal attests nothing of it (the run's end line counts them).
 */
function journalVerification(
  journal: Journal,
  tests: readonly RoutingTestSet[],
  v: Verification,
  unsearched: ReadonlySet<string>,
): void {
  const failed = new Map<string, VectorFailure[]>();
  for (const f of v.failures) failed.set(f.test, [...(failed.get(f.test) ?? []), f]);
  journal.appendAll(
    tests.flatMap((test) => {
      const bad = failed.get(test.name) ?? [];
      const left = test.vectors.filter((vector) => unsearched.has(vector.source)).length;
      if (left > 0 && bad.length === 0) return [];
      const address = routingTestKind.address(test.name);
      const passed = test.vectors.length - bad.length - left;
      const notSearched = left > 0 ? `; ${left} not searched: the run was interrupted` : '';
      const summary = {
        type: 'verify' as const,
        address,
        outcome: bad.length === 0 ? ('passed' as const) : ('failed' as const),
        message: `${passed} of ${test.vectors.length} vectors passed against ${test.table}${notSearched}`,
        source: test.source,
      };
      return [
        summary,
        ...bad.map((f) => ({
          type: 'verify' as const,
          address: `${address}/${f.vector}`,
          outcome: f.outcome,
          message: f.message,
          source: f.source,
        })),
      ];
    }),
  );
}
