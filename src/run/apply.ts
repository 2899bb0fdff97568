import { randomBytes } from 'node:crypto';
import { slotsOf, type ConcurrencySetting } from '../api/index.js';
import { defaultJournalPath, Journal, withSources, type RunRecord } from '../apply/journal.js';
import { ApplyLock } from '../apply/lock.js';
import { Progress, progressInterval } from '../apply/progress.js';
import { RecordKeeper } from '../apply/record.js';
import type { ApplyResult } from '../apply/types.js';
import { SwitchboardError } from '../core/errors.js';
import type { Change } from '../plan/types.js';
import type { PlanRun } from './plan.js';
import { runRecord, type ProvenanceOptions } from './provenance.js';
import { reviewFromEnv } from './review.js';
import { windowsRecord } from './assurance.js';
import { routingClientFor, verifyIntoJournal, type Verification } from './verify.js';

export interface ApplyRunOptions {
  concurrency: ConcurrencySetting;
  failFast: boolean;
  stateDir: string;
  /** `--journal FILE`; default `<state-dir>/journal-<timestamp>.jsonl`. */
  journal?: string;
  /** Names this run in the journal and its bulk jobs; generated when absent. */
  runId?: string;
  /** Where the progress line goes (redrawn on a terminal, logged every `progressMs` otherwise). */
  progressOut: NodeJS.WritableStream & { isTTY?: boolean };
  progressMs?: number;
  /** Aborting stops starting new changes (Ctrl-C); those in flight finish. */
  signal?: AbortSignal;
  /** Where the plan came from and what the run record says about the manifests (provenance.ts). */
  provenance?: ProvenanceOptions;
  /** `--emergency-change TICKET`: recorded in the run record (the plan was made with it: windows warn, not refuse). */
  emergencyChange?: string;
  /** `--verify`: the RoutingTest vectors are searched live once the changes are applied, and journalled. */
  verify?: boolean;
}

export interface ApplyRunResult {
  result: ApplyResult;
  journal: string;
  /** The journal's run record: who applied which plan from where. */
  record: RunRecord;
  /** The progress line as it stood at the end. */
  finalProgress: string;
  /** `--verify`: what the live search of the vectors found. */
  verification?: Verification;
}

/**
 * Applies the given changes of a plan made in this process, provider after provider in
 * plan order (each sending the requests its plan built), with one journal, the last-applied
 * record and one progress line for all. After a failure with `failFast`, the next
 * providers' changes are skipped. Used by `apply`, `demo` and tests.
 */
export async function applyRun(
  run: PlanRun,
  changes: readonly Change[],
  options: ApplyRunOptions,
): Promise<ApplyRunResult> {
  const target = { baseUrl: run.plan.target.baseUrl, instance: run.plan.target.instance };
  // The journal's target names the routing engine when this run reads it (and may change its rows).
  const engine = run.providers.some((p) => p.name === 'routing') ? run.plan.target.routingEngine : undefined;
  const journalTarget = engine === undefined ? target : { ...target, routingEngine: engine };
  const runId = options.runId ?? newRunId();
  const known = new Set(run.providers.map((p) => p.name));
  const orphan = changes.find((c) => !known.has(c.provider));
  if (orphan) {
    const why = `the plan changes ${orphan.address} through the ${orphan.provider} provider, which this run did not plan with`;
    throw new SwitchboardError('SB_APPLY_NO_PROVIDER', why);
  }
  const provenance = await runRecord(run, options.provenance);
  const { review, notes: reviewNotes } = reviewFromEnv(options.provenance?.env ?? process.env);
  // The plan's change set (a saved plan's is the fresh plan's: apply --plan refuses any difference).
  const changeSet = run.plan.changeSet?.digest;
  const runInfo = withSources({
    ...provenance,
    plan: { ...provenance.plan, ...(changeSet ? { changeSetDigest: changeSet } : {}) },
    ...(review ? { review } : {}),
    ...windowsRecord(run.clock, run.windows, options.emergencyChange),
  });
  // Each change line of the journal then says what the change set: its fields before → after.
  const journal = await Journal.open(options.journal ?? defaultJournalPath(options.stateDir), { changes });
  const record = new RecordKeeper(run.lastAppliedFile, target, run.lastApplied);
  record.migrate(run.parts.flatMap((p) => p.declaredObjects ?? []));
  const progress = new Progress(changes.length, options.progressOut, options.progressMs ?? progressInterval());
  record.start();
  progress.start();
  // A journal that cannot be written stops the run as Ctrl-C does: nothing more is started,
  // the requests in flight finish, and the summary says what was applied and why it stopped.
  const stop = options.signal ? AbortSignal.any([options.signal, journal.failed]) : journal.failed;
  let done: ApplyRunResult | undefined;
  try {
    // The start line must be on record before anything is sent: when it cannot be written, nothing is.
    journal.append({ type: 'run', event: 'start', runId, target: journalTarget, changes: changes.length, ...runInfo });
    const result: ApplyResult = { results: [], applied: 0, failed: 0, skipped: 0, requests: 0, elapsedMs: 0 };
    if (reviewNotes.length > 0) result.notes = [...reviewNotes];
    for (const provider of run.providers) {
      const mine = changes.filter((c) => c.provider === provider.name);
      if (mine.length === 0) continue;
      if (options.failFast && result.failed > 0) {
        // Never started: each change is journalled and listed as skipped, as the ones a provider skips are.
        const reason = 'not started: --fail-fast after an earlier failure';
        result.skipped += mine.length;
        for (const change of mine) result.results.push({ change, outcome: { status: 'skipped', reason } });
        journal.appendAll(
          mine.map((c) => ({
            type: 'change' as const,
            address: c.address,
            action: c.action,
            outcome: 'skipped' as const,
            message: reason,
            ...(c.source ? { source: c.source } : {}),
          })),
        );
        continue;
      }
      const out = await provider.apply(mine, {
        concurrency: slotsOf(options.concurrency),
        failFast: options.failFast,
        runId,
        journal,
        record,
        signal: stop,
        onSettle: (outcome) => progress.settle(outcome),
        onNote: (note) => progress.note(note),
      });
      result.results.push(...out.results);
      if (out.unsent) (result.unsent ??= []).push(...out.unsent);
      if (out.unknown) result.unknown = (result.unknown ?? 0) + out.unknown;
      if (out.unknownGroups) (result.unknownGroups ??= []).push(...out.unknownGroups);
      if (out.notes) (result.notes ??= []).push(...out.notes);
      result.applied += out.applied;
      result.failed += out.failed;
      result.skipped += out.skipped;
      result.requests += out.requests;
      result.elapsedMs += out.elapsedMs;
    }
    const { applied, failed, skipped, requests } = result;
    const unknown = result.unknown ?? 0;
    const verification = options.verify ? await verifyAfter(run, journal, options.signal) : undefined;
    const verified: Record<string, number> = verification
      ? { verified: verification.passed, verifyFailed: verification.failures.length }
      : {};
    journal.append({
      type: 'run',
      event: 'end',
      runId,
      summary: { applied, failed, skipped, requests, ...(unknown > 0 ? { unknown } : {}), ...verified },
    });
    done = {
      result,
      journal: journal.path,
      record: runInfo,
      finalProgress: progress.line(),
      ...(verification ? { verification } : {}),
    };
  } finally {
    progress.stop();
    await record.close();
    // The journal's own failure is the run's result (below), not an exception that would lose what was applied.
    await journal.close().catch((error: unknown) => {
      if (!journal.error) throw error;
    });
  }
  const failure = journal.error;
  if (failure) (done.result.errors ??= []).push({ code: failure.code, message: failure.message });
  return done;
}

/** The vectors searched live after an apply (the progress line is done), written to its journal. */
async function verifyAfter(run: PlanRun, journal: Journal, signal: AbortSignal | undefined): Promise<Verification> {
  return verifyIntoJournal(routingClientFor(run.session.routing, '--verify'), journal, {
    tests: run.routingTests,
    tables: run.routingTables,
    ...(signal ? { signal } : {}),
  });
}

/** `20261122T100000Z-a1b2c3`: when the run started, and a few random bytes. */
export function newRunId(): string {
  return `${new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
}

/**
 * Runs `work` holding the state folder's apply lock, taken before planning: a run that
 * planned while another applied would apply a stale plan. `onNote` hears about a lock taken
 * over from a run that is gone. The lock is released when `work` ends, whatever the way,
 * and when the process exits meanwhile.
 */
export async function withApplyLock<T>(
  stateDir: string,
  onNote: (note: string) => void,
  work: () => Promise<T>,
): Promise<T> {
  const { lock, tookOver } = await ApplyLock.acquire(stateDir);
  if (tookOver) onNote(tookOver);
  // A process that ends at once (a second Ctrl-C or SIGTERM) still leaves no lock behind.
  const releaseOnExit = () => lock.releaseSync();
  process.once('exit', releaseOnExit);
  try {
    return await work();
  } finally {
    process.off('exit', releaseOnExit);
    await lock.release();
  }
}
