import { randomBytes } from 'node:crypto';
import type { PlanRun } from '../cli/plan-pipeline.js';
import { SwitchboardError } from '../core/errors.js';
import { ROUTING_ROW } from '../plan/routing-plan.js';
import type { Change } from '../plan/types.js';
import { createReferenceData } from '../state/refs.js';
import { applyChanges } from './executor.js';
import { defaultJournalPath, Journal } from './journal.js';
import { PROGRESS_LOG_INTERVAL_MS, Progress } from './progress.js';
import { RecordKeeper } from './record.js';
import { applyRouting } from './routing.js';
import type { ApplyResult } from './types.js';

export interface RunApplyOptions {
  concurrency: number;
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
}

export interface RunApplyResult {
  result: ApplyResult;
  journal: string;
  /** The progress line as it stood at the end. */
  finalProgress: string;
}

/**
 * Applies the given changes of a plan made in this process: platform objects through the
 * executor, then routing rows through the routing engine's executor, with one journal, the
 * last-applied record and one progress line for both. Used by `apply` and `demo`.
 */
export async function runApply(run: PlanRun, changes: readonly Change[], options: RunApplyOptions): Promise<RunApplyResult> {
  const platformChanges = changes.filter((c) => c.kind !== ROUTING_ROW);
  const routingChanges = changes.filter((c) => c.kind === ROUTING_ROW);
  const target = { baseUrl: run.plan.target.baseUrl, instance: run.plan.target.instance };
  const runId = options.runId ?? `${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
  const journal = await Journal.open(options.journal ?? defaultJournalPath(options.stateDir));
  const record = new RecordKeeper(run.lastAppliedFile, target, run.lastApplied);
  const progress = new Progress(changes.length, options.progressOut, options.progressMs ?? PROGRESS_LOG_INTERVAL_MS);
  record.start();
  progress.start();
  await journal.append({ type: 'run', event: 'start', runId, target, changes: changes.length });
  try {
    let result: ApplyResult = { results: [], applied: 0, failed: 0, skipped: 0, requests: 0, elapsedMs: 0 };
    if (platformChanges.length > 0) {
      const { client } = run.session;
      if (!client) throw new SwitchboardError('SB_APPLY_NO_PLATFORM', 'the plan changes platform objects but no platform API is connected');
      result = await applyChanges({
        changes: platformChanges,
        desired: run.desired,
        live: run.live,
        lastApplied: run.lastApplied,
        client,
        ctx: run.ctx ?? { P: client.paths.P, refs: createReferenceData(client, client.paths.P) },
        options: { concurrency: options.concurrency, failFast: options.failFast, runId },
        record,
        journal,
        ...(options.signal ? { signal: options.signal } : {}),
        onSettle: (_address, outcome) => progress.settle(outcome),
      });
    }
    if (routingChanges.length > 0) result = await withRouting(result, run, routingChanges, options, journal, progress);
    await journal.append({ type: 'run', event: 'end', runId, summary: { applied: result.applied, failed: result.failed, skipped: result.skipped, requests: result.requests } });
    return { result, journal: journal.path, finalProgress: progress.line() };
  } finally {
    progress.stop();
    await record.close();
    await journal.close();
  }
}

/** Routing rows go after the platform's objects (they do not depend on each other). */
async function withRouting(result: ApplyResult, run: PlanRun, changes: Change[], options: RunApplyOptions, journal: Journal, progress: Progress): Promise<ApplyResult> {
  const { routing } = run.session;
  if (!routing || !run.routing) throw new SwitchboardError('SB_APPLY_NO_ROUTING', 'the plan changes routing-engine rows but no routing engine is connected');
  const begin = performance.now();
  const skipAll = (options.failFast && result.failed > 0) || options.signal?.aborted === true;
  const out = skipAll
    ? { applied: 0, failed: 0, skipped: changes.length, failures: [] }
    : await applyRouting(run.routing.tables, changes, routing, { failFast: options.failFast, journal });
  // The routing executor reports per table, not per row: settle its rows in one go.
  for (let i = 0; i < out.applied; i++) progress.settle({ status: 'applied' });
  for (const f of out.failures) progress.settle(f.outcome);
  return {
    results: [...result.results, ...out.failures],
    applied: result.applied + out.applied,
    failed: result.failed + out.failed,
    skipped: result.skipped + out.skipped,
    requests: result.requests,
    elapsedMs: result.elapsedMs + (performance.now() - begin),
  };
}
