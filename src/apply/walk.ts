import pLimit from 'p-limit';

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
  /** When aborted (Ctrl-C), nodes not yet started are skipped; running ones finish. */
  signal?: AbortSignal;
}

/** Runs one node; returns an outcome per provided address (missing ones count as applied). */
export type RunNode<N extends WalkNode> = (node: N) => Promise<ReadonlyMap<string, Outcome>>;

/**
 * Walks the graph like Terraform's walker: a node starts as soon as everything it needs
 * has succeeded, in the nodes' list order among those ready, under a concurrency limit.
 * A failure skips the nodes that need it (transitively); independent branches go on,
 * unless `failFast`, which stops starting new nodes. Never rejects: a node that throws
 * fails the addresses it provides.
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
  // Counted, not raced: racing thousands of promises on every completion is quadratic.
  let running = 0;
  let finished: () => void = () => undefined;
  const allDone = new Promise<void>((resolve) => (finished = resolve));

  const settle = (address: string, outcome: Outcome): void => {
    if (outcomes.has(address)) return;
    outcomes.set(address, outcome);
    options.onSettle?.(address, outcome);
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
      if (stopped || options.signal?.aborted) {
        const reason = stopped
          ? 'not started: --fail-fast after an earlier failure'
          : 'not started: the run was interrupted';
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
    void task.finally(() => {
      if (--running === 0) finished();
    });
  };

  for (const node of nodes) if (waiting.get(node)?.size === 0) start(node);
  if (running > 0) await allDone;
  // Whatever still waits sits on a cycle: nothing can start it.
  for (const node of [...waiting.keys()]) skip(node, 'dependency cycle');
  return outcomes;
}
