import pLimit from 'p-limit';
import { SwitchboardError } from '../core/errors.js';

/**
 * One node of the apply graph. A node completes the addresses it `provides` (one change,
 * or several for a bulk request) and runs only when every address it `needs` succeeded.
 * Needs that no node provides are taken as satisfied (they are not part of this run).
 */
export interface WalkNode {
  key: string;
  provides: readonly string[];
  needs: readonly string[];
  /** Ordering only: waits until these have ended, whatever their outcome. */
  after?: readonly string[];
}

/** What became of one address. */
export type Outcome =
  | { status: 'applied' }
  /** `unknown`: its request was sent and no answer came; it may have been applied (the next plan shows). */
  | { status: 'failed'; message: string; code?: string; unknown?: true }
  | { status: 'skipped'; reason: string };

export interface WalkOptions {
  /** Nodes running at once (each runs its requests one after the other). */
  concurrency: number;
  /** Stop starting nodes after the first failure. */
  failFast: boolean;
  /** Called once per address when its outcome is known (progress, journal). */
  onSettle?: (address: string, outcome: Outcome) => void;
  /**
   * When aborted (Ctrl-C, a journal that cannot be written), nodes not yet started are
   * skipped, with {@link notStartedReason}; running ones finish.
   */
  signal?: AbortSignal;
}

/** Why a change was not started once the run's signal was aborted: the journal's failure, or an interrupt. */
export function notStartedReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  return reason instanceof SwitchboardError && reason.code === 'SB_JOURNAL'
    ? 'not started: the journal cannot be written'
    : 'not started: the run was interrupted';
}

/** Runs one node; returns an outcome per provided address (missing ones count as applied). */
export type RunNode<N extends WalkNode> = (node: N) => Promise<ReadonlyMap<string, Outcome>>;

/**
 * Walks the graph like Terraform's walker: a node starts as soon as everything it needs
 * has succeeded, in the nodes' list order among those ready, under a concurrency limit.
 * A failure skips the nodes that need it (transitively); independent branches go on,
 * unless `failFast`, which stops starting new nodes. A node that throws fails the addresses
 * it provides. An `onSettle` that throws stops starting nodes too; once the nodes running
 * have ended, the walk rejects with its error (never an unhandled rejection).
 */
export async function walkGraph<N extends WalkNode>(
  nodes: readonly N[],
  run: RunNode<N>,
  options: WalkOptions,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const provided = new Set(nodes.flatMap((n) => n.provides));
  const waiting = new Map<N, Set<string>>();
  const dependents = new Map<string, N[]>();
  const soft = new Map<N, Set<string>>();
  for (const node of nodes) {
    const open = new Set(
      [...node.needs, ...(node.after ?? [])].filter(
        (address) => provided.has(address) && !node.provides.includes(address),
      ),
    );
    waiting.set(node, open);
    soft.set(node, new Set((node.after ?? []).filter((address) => !node.needs.includes(address))));
    for (const address of open) dependents.set(address, [...(dependents.get(address) ?? []), node]);
  }
  const limit = pLimit(Math.max(1, options.concurrency));
  let stopped = false;
  // The first error of `onSettle` (or of a node's task): it stops the walk, and is thrown once the running nodes end.
  let broken = false;
  let brokenBy: unknown;
  const breakWith = (error: unknown): void => {
    if (!broken) brokenBy = error;
    broken = true;
  };
  // Counted, not raced: racing thousands of promises on every completion is quadratic.
  let running = 0;
  let finished: () => void = () => undefined;
  const allDone = new Promise<void>((resolve) => (finished = resolve));

  const settle = (address: string, outcome: Outcome): void => {
    if (outcomes.has(address)) return;
    outcomes.set(address, outcome);
    try {
      options.onSettle?.(address, outcome);
    } catch (error) {
      breakWith(error);
    }
    for (const dependent of dependents.get(address) ?? []) {
      const open = waiting.get(dependent);
      if (!open) continue;
      if (outcome.status !== 'applied' && !soft.get(dependent)?.has(address)) {
        skip(dependent, outcome.status === 'failed' ? `${address} failed` : `${address} was skipped`);
        continue;
      }
      open.delete(address);
      if (open.size === 0) start(dependent);
    }
  };

  const skip = (node: N, reason: string): void => {
    waiting.delete(node);
    for (const address of node.provides) settle(address, { status: 'skipped', reason });
  };

  const start = (node: N): void => {
    waiting.delete(node);
    const task = limit(async () => {
      if (stopped || broken || options.signal?.aborted) {
        const reason = stopped
          ? 'not started: --fail-fast after an earlier failure'
          : broken
            ? 'not started: an earlier outcome could not be recorded'
            : notStartedReason(options.signal);
        for (const address of node.provides) settle(address, { status: 'skipped', reason });
        return;
      }
      let results: ReadonlyMap<string, Outcome>;
      try {
        results = await run(node);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        results = new Map(node.provides.map((a) => [a, { status: 'failed', message } as Outcome]));
      }
      for (const address of node.provides) {
        const outcome = results.get(address) ?? { status: 'applied' };
        if (outcome.status === 'failed' && options.failFast) stopped = true;
        settle(address, outcome);
      }
    });
    running++;
    // The task is settled here, rejected or not: no rejection is left unhandled.
    void task.catch(breakWith).finally(() => {
      if (--running === 0) finished();
    });
  };

  for (const node of nodes) if (waiting.get(node)?.size === 0) start(node);
  if (running > 0) await allDone;
  // Whatever still waits sits on a cycle: nothing can start it.
  for (const node of [...waiting.keys()]) skip(node, 'dependency cycle');
  if (broken) throw brokenBy;
  return outcomes;
}
