/**
 * `switchboard apply [PATH…]` and `switchboard apply --plan FILE`: plans (or re-checks a
 * saved plan against a fresh one), asks for confirmation, applies, and prints a summary.
 * Exit 0 when everything was applied, 1 when anything failed (or no --yes without a
 * terminal), 3 when a safety rail refuses (plan errors, stale saved plan).
 */
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { applyChanges } from '../../apply/executor.js';
import { defaultJournalPath, Journal } from '../../apply/journal.js';
import { Progress } from '../../apply/progress.js';
import { RecordKeeper } from '../../apply/record.js';
import { applyRouting } from '../../apply/routing.js';
import { checkSavedPlan } from '../../apply/saved-plan.js';
import { renderSummary } from '../../apply/summary.js';
import type { ApplyResult } from '../../apply/types.js';
import { ExitCode, SwitchboardError } from '../../core/errors.js';
import { readPlanFile } from '../../plan/plan-file.js';
import type { RoutingClient } from '../../routing/index.js';
import { renderText } from '../../plan/render-text.js';
import { ROUTING_ROW } from '../../plan/routing-plan.js';
import type { Change, Plan } from '../../plan/types.js';
import { createReferenceData } from '../../state/refs.js';
import { addPlanOptions } from '../options.js';
import { planPipeline, type PlanCommandOptions, type PlanRun } from '../plan-pipeline.js';
import type { CliContext, CommandRegistrar } from '../program.js';

interface ApplyOptions extends PlanCommandOptions {
  yes: boolean;
  plan?: string;
  failFast: boolean;
  journal?: string;
  color: boolean;
}

export const registerApply: CommandRegistrar = (program: Command, context) => {
  addPlanOptions(program.command('apply').description('Plan, confirm, and apply the changes').argument('[paths...]', 'manifest files or folders', []))
    .option('--yes', 'apply without asking for confirmation (required without a terminal)', false)
    .option('--plan <file>', 'apply this saved plan exactly, after checking it is not stale')
    .option('--fail-fast', 'stop starting changes after the first failure', false)
    .option('--journal <file>', 'where to append the journal of requests (default: <state-dir>/journal-<timestamp>.jsonl)')
    .option('--no-color', 'no colours, even on a terminal')
    .action(async (paths: string[], options: ApplyOptions) => {
      const ctx = context();
      const saved = options.plan ? await readPlanFile(options.plan) : undefined;
      const run = await planPipeline(paths, options, ctx.logger);
      try {
        ctx.exitCode = await applyCommand(run, saved, options, ctx);
      } finally {
        await run.session.close();
      }
    });
};

async function applyCommand(run: PlanRun, saved: Plan | undefined, options: ApplyOptions, ctx: CliContext): Promise<number> {
  const color = options.color && process.stdout.isTTY === true && !process.env['NO_COLOR'];
  const shown = saved ?? run.plan;
  ctx.stdout.write(renderText(run.plan.errors.length > 0 ? run.plan : shown, { color }));
  if (run.plan.errors.length > 0) {
    ctx.stdout.write('\nApply refused: the plan has errors (above). Nothing was changed.\n');
    return ExitCode.refused;
  }
  const changes = saved && options.plan ? checkSavedPlan(saved, run.plan, options.plan) : run.plan.changes;
  if (changes.length === 0) return ExitCode.ok;
  if (!(await confirmed(options, ctx))) {
    ctx.stdout.write('Apply cancelled. Nothing was changed.\n');
    return ExitCode.error;
  }
  const result = await execute(run, changes, options);
  ctx.stdout.write(renderSummary(result.result, result.journal));
  // Skipped changes (after a failure, --fail-fast, Ctrl-C) leave a partial apply: exit 1 too.
  return result.result.failed + result.result.skipped > 0 ? ExitCode.error : ExitCode.ok;
}

/** `--yes`, or "yes" typed on a terminal; without a terminal `--yes` is required. */
async function confirmed(options: ApplyOptions, ctx: CliContext): Promise<boolean> {
  if (options.yes) return true;
  if (!process.stdin.isTTY) {
    throw new SwitchboardError('SB_APPLY_CONFIRM', 'apply needs --yes when it cannot ask (stdin is not a terminal, e.g. in CI): review the plan above, then run it again with --yes');
  }
  const rl = createInterface({ input: process.stdin, output: ctx.stdout });
  try {
    const answer = await rl.question('\nApply these changes? Only "yes" is accepted: ');
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}

async function execute(run: PlanRun, changes: Change[], options: ApplyOptions): Promise<{ result: ApplyResult; journal: string }> {
  const { client, routing } = run.session;
  const platformChanges = changes.filter((c) => c.kind !== ROUTING_ROW);
  const routingChanges = changes.filter((c) => c.kind === ROUTING_ROW);
  const target = { baseUrl: run.plan.target.baseUrl, instance: run.plan.target.instance };
  const runId = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
  const journal = await Journal.open(options.journal ?? defaultJournalPath(options.stateDir));
  const record = new RecordKeeper(run.lastAppliedFile, target, run.lastApplied);
  const progress = new Progress(changes.length, process.stderr);
  const interrupt = new AbortController();
  const onSigint = () => {
    if (interrupt.signal.aborted) process.exit(130);
    process.stderr.write('\nInterrupted: finishing the requests in flight (Ctrl-C again to quit at once)…\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  record.start();
  progress.start();
  await journal.append({ type: 'run', event: 'start', runId, target, changes: changes.length });
  try {
    let result: ApplyResult = { results: [], applied: 0, failed: 0, skipped: 0, requests: 0, elapsedMs: 0 };
    if (platformChanges.length > 0) {
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
        signal: interrupt.signal,
        onSettle: (_address, outcome) => progress.settle(outcome),
      });
    }
    if (routingChanges.length > 0) result = await withRouting(result, run, routingChanges, routing, options, journal);
    await journal.append({ type: 'run', event: 'end', runId, summary: { applied: result.applied, failed: result.failed, skipped: result.skipped, requests: result.requests } });
    return { result, journal: journal.path };
  } finally {
    process.off('SIGINT', onSigint);
    progress.stop();
    await record.close();
    await journal.close();
  }
}

/** Routing rows go after the platform's objects (they do not depend on each other). */
async function withRouting(result: ApplyResult, run: PlanRun, changes: Change[], routing: RoutingClient | undefined, options: ApplyOptions, journal: Journal): Promise<ApplyResult> {
  if (!routing || !run.routing) throw new SwitchboardError('SB_APPLY_NO_ROUTING', 'the plan changes routing-engine rows but no routing engine is connected');
  const begin = performance.now();
  const skipAll = options.failFast && result.failed > 0;
  const out = skipAll
    ? { applied: 0, failed: 0, skipped: changes.length, failures: [] }
    : await applyRouting(run.routing.tables, changes, routing, { failFast: options.failFast, journal });
  return {
    results: [...result.results, ...out.failures],
    applied: result.applied + out.applied,
    failed: result.failed + out.failed,
    skipped: result.skipped + out.skipped,
    requests: result.requests,
    elapsedMs: result.elapsedMs + (performance.now() - begin),
  };
}
