/**
 * `switchboard verify [PATH…]` below the command line, and the verification of an apply
 * that had nothing to change: the RoutingTest vectors searched live, in a journal of their
 * own (a run of no changes), so that `audit` shows them.
 */
import { defaultJournalPath, Journal, type RunRecord } from '../apply/journal.js';
import { DiagnosticsError, SwitchboardError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { VERSION } from '../core/package.js';
import { loadManifests, type DesiredRoutingTable, type RoutingTestSet } from '../manifest/index.js';
import { newRunId } from './apply.js';
import { connectOptionsOf, openSession, type ConnectOptions, type Session } from './session.js';
import { routingClientFor, verifyIntoJournal, type Verification } from './verify.js';

export interface VerifyRunOptions {
  env?: string;
  config?: string;
  sim?: boolean;
  seed?: string;
  concurrency: ConnectOptions['concurrency'];
  stateDir: string;
  /** `--journal FILE`; default `<state-dir>/journal-<timestamp>.jsonl`. */
  journal?: string;
  signal?: AbortSignal;
}

export interface VerifyRunResult {
  verification: Verification;
  tests: readonly RoutingTestSet[];
  journal: string;
}

/** What a verification needs of what was loaded and connected. */
export interface VerifyInput {
  session: Pick<Session, 'routing'>;
  tests: readonly RoutingTestSet[];
  tables: readonly DesiredRoutingTable[];
  manifests: { digest: string; files: number };
  stateDir: string;
  journal?: string;
  signal?: AbortSignal;
}

/**
 * Loads the manifests (a vector the declared rows fail stops it there, as `plan`), connects
 * the routing engine only, searches every vector and journals the outcome.
 */
export async function verifyRun(paths: string[], options: VerifyRunOptions, logger: Logger): Promise<VerifyRunResult> {
  const loaded = await loadManifests(paths.length > 0 ? paths : ['.']);
  if (!loaded.ok) throw new DiagnosticsError(loaded.diagnostics);
  if (loaded.routingTests.length === 0)
    throw new SwitchboardError('SB_VERIFY_NOTHING', 'the manifests hold no RoutingTest document: nothing to verify');
  const session = await openSession(connectOptionsOf(options, logger), { platform: false, routing: true });
  try {
    return await verifySession({
      session,
      tests: loaded.routingTests,
      tables: loaded.set.routingTables,
      manifests: { digest: loaded.digest, files: loaded.files.length },
      stateDir: options.stateDir,
      ...(options.journal ? { journal: options.journal } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    await session.close();
  }
}

/** Searches the vectors on a connected engine, in a journal run of its own. */
export async function verifySession(input: VerifyInput): Promise<VerifyRunResult> {
  const client = routingClientFor(input.session.routing, 'verifying');
  const journal = await Journal.open(input.journal ?? defaultJournalPath(input.stateDir));
  const runId = newRunId();
  const { username, kind } = client.http.login;
  const record: Partial<RunRecord> = {
    routingActor: { ...(username ? { username } : {}), login: kind },
    manifests: input.manifests,
    tool: { name: 'switchboard', version: VERSION },
  };
  try {
    journal.append({ type: 'run', event: 'start', runId, changes: 0, ...record });
    const verification = await verifyIntoJournal(client, journal, input);
    const summary = {
      verified: verification.passed,
      verifyFailed: verification.failures.length,
      ...(verification.notSearched > 0 ? { verifyNotSearched: verification.notSearched } : {}),
    };
    journal.append({ type: 'run', event: 'end', runId, summary });
    return { verification, tests: input.tests, journal: journal.path };
  } finally {
    await journal.close();
  }
}
