/**
 * The demo's apply: the executor, journal, last-applied record and routing executor of
 * `src/apply/`, driven against a plan made in this process (the `apply` command plans in
 * its own session, while the demo keeps one embedded simulator for all of its steps).
 */
import { applyChanges } from '../apply/executor.js';
import { defaultJournalPath, Journal } from '../apply/journal.js';
import { Progress } from '../apply/progress.js';
import { RecordKeeper } from '../apply/record.js';
import { applyRouting } from '../apply/routing.js';
import type { ApplyResult } from '../apply/types.js';
import type { PlanRun } from '../cli/plan-pipeline.js';
import { SwitchboardError } from '../core/errors.js';
import { ROUTING_ROW } from '../plan/routing-plan.js';
import { createReferenceData } from '../state/refs.js';

export interface DemoApplyOptions {
  concurrency: number;
  stateDir: string;
  /** Where the progress line goes (redrawn on a terminal, logged every `progressMs` otherwise). */
  progressOut: NodeJS.WritableStream & { isTTY?: boolean };
  progressMs: number;
}

export interface DemoApplyResult {
  result: ApplyResult;
  journal: string;
  /** The progress line as it stood at the end. */
  finalProgress: string;
}

/** Applies every change of `run.plan`: platform objects first, then routing rows. */
export async function applyWholePlan(run: PlanRun, options: DemoApplyOptions): Promise<DemoApplyResult> {
  const { client, routing } = run.session;
  const changes = run.plan.changes;
  const platformChanges = changes.filter((c) => c.kind !== ROUTING_ROW);
  const routingChanges = changes.filter((c) => c.kind === ROUTING_ROW);
  const target = { baseUrl: run.plan.target.baseUrl, instance: run.plan.target.instance };
  const runId = `demo-${Date.now().toString(36)}`;
  const journal = await Journal.open(defaultJournalPath(options.stateDir));
  const record = new RecordKeeper(run.lastAppliedFile, target, run.lastApplied);
  const progress = new Progress(changes.length, options.progressOut, options.progressMs);
  record.start();
  progress.start();
  await journal.append({ type: 'run', event: 'start', runId, target, changes: changes.length });
  try {
    let result: ApplyResult = { results: [], applied: 0, failed: 0, skipped: 0, requests: 0, elapsedMs: 0 };
    if (platformChanges.length > 0) {
      if (!client) throw new SwitchboardError('SB_DEMO', 'the plan changes platform objects but no platform API is connected');
      result = await applyChanges({
        changes: platformChanges,
        desired: run.desired,
        live: run.live,
        lastApplied: run.lastApplied,
        client,
        ctx: run.ctx ?? { P: client.paths.P, refs: createReferenceData(client, client.paths.P) },
        options: { concurrency: options.concurrency, failFast: false, runId },
        record,
        journal,
        onSettle: (_address, outcome) => progress.settle(outcome),
      });
    }
    if (routingChanges.length > 0) {
      if (!routing || !run.routing) throw new SwitchboardError('SB_DEMO', 'the plan changes routing-engine rows but no routing engine is connected');
      const begin = performance.now();
      const out = await applyRouting(run.routing.tables, routingChanges, routing, { failFast: false, journal });
      // The routing executor reports per table, not per row: settle its rows in one go.
      for (let i = 0; i < out.applied; i++) progress.settle({ status: 'applied' });
      for (const f of out.failures) progress.settle(f.outcome);
      result = {
        results: [...result.results, ...out.failures],
        applied: result.applied + out.applied,
        failed: result.failed + out.failed,
        skipped: result.skipped + out.skipped,
        requests: result.requests,
        elapsedMs: result.elapsedMs + (performance.now() - begin),
      };
    }
    await journal.append({ type: 'run', event: 'end', runId, summary: { applied: result.applied, failed: result.failed, skipped: result.skipped, requests: result.requests } });
    return { result, journal: journal.path, finalProgress: progress.line() };
  } finally {
    progress.stop();
    await record.close();
    await journal.close();
  }
}
