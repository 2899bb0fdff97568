import type { Change } from '../plan/types.js';
import { runBulk, failure } from './bulk.js';
import { IdRegistry } from './ids.js';
import { runChange, type ChangeEnv } from './run-change.js';
import { Sender } from './sender.js';
import type { ApplyInput, ApplyResult, ChangeResult } from './types.js';
import { buildUnits, oldObjectKey, type Unit } from './units.js';
import { walkGraph, type Outcome } from './walk.js';

/**
 * `apply`'s engine for the kind table's objects: runs the plan's changes as a graph (each
 * when what it depends on has succeeded, independent branches at once, up to
 * `concurrency`), sending the requests the planner built, and says what became of each.
 * Generic over the kind table; every request goes through the journal.
 */
export async function applyChanges(input: ApplyInput): Promise<ApplyResult> {
  const begin = performance.now();
  const sender = new Sender(input.client, input.journal);
  const ids = new IdRegistry(input.desired, input.live);
  const env: ChangeEnv = {
    sender,
    ctx: input.ctx,
    ids,
    requests: input.requests,
    desired: new Map(input.desired.map((d) => [d.address, d])),
    ...(input.record ? { record: input.record } : {}),
  };
  const units = buildUnits(
    input.changes,
    (address) => env.desired.get(address)?.parentAddress,
    input.options.bulkThreshold,
  );
  const byAddress = new Map(input.changes.map((c) => [c.address, c]));
  // A create-before-delete replace settles when its old object's delete does: its outcome
  // (SB_APPLY_OLD_KEPT when that failed) is known then, and its journal line says that one.
  const twoSteps = new Map(units.filter((u) => u.type === 'change' && u.step === 'delete-old').map((u) => [u.key, u]));
  const settled = new Map<string, Outcome>();
  const report = (change: Change) => {
    const outcome = outcomeOf(change, settled);
    sender.journalChange(changeEntry(change, outcome));
    input.onSettle?.(change.address, outcome);
  };
  const outcomes = await walkGraph(units, (unit) => runUnit(unit, env, input), {
    concurrency: input.options.concurrency,
    failFast: input.options.failFast,
    ...(input.signal ? { signal: input.signal } : {}),
    onSettle: (address, outcome) => {
      settled.set(address, outcome);
      const old = twoSteps.get(address);
      if (old && old.type === 'change') return report(old.change);
      const change = byAddress.get(address);
      // The new object's step of a two-step replace is reported with the old one's, once that settles.
      if (change && !twoSteps.has(oldObjectKey(address))) report(change);
    },
  });
  await sender.flushed();
  const results = input.changes.map((change) => ({ change, outcome: outcomeOf(change, outcomes) }));
  const unknown = results.filter((r) => r.outcome.status === 'failed' && r.outcome.unknown).length;
  return {
    results,
    applied: count(results, 'applied'),
    failed: count(results, 'failed'),
    skipped: count(results, 'skipped'),
    ...(unknown > 0 ? { unknown } : {}),
    requests: sender.count,
    elapsedMs: performance.now() - begin,
  };
}

async function runUnit(unit: Unit, env: ChangeEnv, input: ApplyInput): Promise<ReadonlyMap<string, Outcome>> {
  if (unit.type === 'bulk') {
    return runBulk(unit.route, unit.changes, env, {
      runId: input.options.runId,
      ...(input.options.jobPollMs === undefined ? {} : { pollMs: input.options.jobPollMs }),
      ...(input.options.jobTimeoutMs === undefined ? {} : { timeoutMs: input.options.jobTimeoutMs }),
    });
  }
  try {
    await runChange(unit.change, unit.step, env);
    return new Map([[unit.provides[0] ?? unit.key, { status: 'applied' }]]);
  } catch (error) {
    return new Map([[unit.provides[0] ?? unit.key, failure(error)]]);
  }
}

/** A create-before-delete replace is applied when both its steps are. */
function outcomeOf(change: Change, outcomes: ReadonlyMap<string, Outcome>): Outcome {
  const main = outcomes.get(change.address) ?? { status: 'skipped', reason: 'not reached' };
  const old = outcomes.get(oldObjectKey(change.address));
  if (main.status !== 'applied' || !old || old.status === 'applied') return main;
  const why = old.status === 'failed' ? old.message : old.reason;
  return {
    status: 'failed',
    code: 'SB_APPLY_OLD_KEPT',
    message: `the new object was created, but the old one (id ${change.id ?? '?'}) was kept: ${why}`,
  };
}

/**
 * A change's journal line. Only a failed or skipped change names its manifest position:
 * that is where someone has to look, and a position costs a parse of its document (0.5 s
 * for 4,000 applied changes, on the apply's critical path).
 */
function changeEntry(change: Change, outcome: Outcome) {
  if (outcome.status === 'applied')
    return { type: 'change' as const, address: change.address, action: change.action, outcome: outcome.status };
  const source = change.source;
  return {
    type: 'change' as const,
    address: change.address,
    action: change.action,
    outcome: outcome.status === 'failed' && outcome.unknown ? ('unknown' as const) : outcome.status,
    message: outcome.status === 'failed' ? outcome.message : outcome.reason,
    ...(source ? { source } : {}),
  };
}

function count(results: readonly ChangeResult[], status: Outcome['status']): number {
  return results.filter((r) => r.outcome.status === status).length;
}
