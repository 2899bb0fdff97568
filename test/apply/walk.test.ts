import { describe, expect, it } from 'vitest';
import { walkGraph, type Outcome, type WalkNode } from '../../src/apply/walk.js';
import { SwitchboardError } from '../../src/core/errors.js';

const node = (key: string, needs: string[] = []): WalkNode => ({ key, provides: [key], needs });

/** Runs the graph, recording start/end order; nodes named in `failing` fail. */
async function run(
  nodes: WalkNode[],
  failing: string[] = [],
  options: { concurrency?: number; failFast?: boolean } = {},
) {
  const events: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const outcomes = await walkGraph(
    nodes,
    async (n) => {
      events.push(`start ${n.key}`);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      events.push(`end ${n.key}`);
      const outcome: Outcome = failing.includes(n.key)
        ? { status: 'failed', message: `${n.key} broke` }
        : { status: 'applied' };
      return new Map([[n.key, outcome]]);
    },
    { concurrency: options.concurrency ?? 8, failFast: options.failFast ?? false },
  );
  return { events, outcomes, maxInFlight };
}

describe('walkGraph', () => {
  it('starts a node only after everything it needs has ended', async () => {
    const { events } = await run([node('child', ['parent']), node('grandchild', ['child']), node('parent')]);
    expect(events.indexOf('start child')).toBeGreaterThan(events.indexOf('end parent'));
    expect(events.indexOf('start grandchild')).toBeGreaterThan(events.indexOf('end child'));
  });

  it('runs independent branches at once, within the concurrency limit', async () => {
    const nodes = Array.from({ length: 10 }, (_, i) => node(`n${i}`));
    expect((await run(nodes, [], { concurrency: 3 })).maxInFlight).toBe(3);
    expect((await run(nodes, [], { concurrency: 20 })).maxInFlight).toBe(10);
  });

  it('skips the dependents of a failure (transitively) and lets the other branches finish', async () => {
    const { outcomes } = await run(
      [
        node('tenant/a'),
        node('tenant/a/subscription/s', ['tenant/a']),
        node('tenant/a/subscription/s/address/x', ['tenant/a/subscription/s']),
        node('tenant/b'),
        node('tenant/b/subscription/s', ['tenant/b']),
      ],
      ['tenant/a'],
    );
    expect(outcomes.get('tenant/a')).toEqual({ status: 'failed', message: 'tenant/a broke' });
    expect(outcomes.get('tenant/a/subscription/s')).toEqual({ status: 'skipped', reason: 'tenant/a failed' });
    expect(outcomes.get('tenant/a/subscription/s/address/x')).toEqual({
      status: 'skipped',
      reason: 'tenant/a/subscription/s was skipped',
    });
    expect(outcomes.get('tenant/b')?.status).toBe('applied');
    expect(outcomes.get('tenant/b/subscription/s')?.status).toBe('applied');
  });

  it('--fail-fast: starts nothing after the first failure; what was running finishes', async () => {
    const nodes = [node('a'), node('b'), node('c'), node('d')];
    const { outcomes, events } = await run(nodes, ['a'], { concurrency: 1, failFast: true });
    expect(outcomes.get('a')?.status).toBe('failed');
    for (const key of ['b', 'c', 'd'])
      expect(outcomes.get(key)).toEqual({
        status: 'skipped',
        reason: 'not started: --fail-fast after an earlier failure',
      });
    expect(events).toEqual(['start a', 'end a']);
  });

  it('without --fail-fast, a failure stops nothing that does not depend on it', async () => {
    const { outcomes } = await run([node('a'), node('b'), node('c')], ['a'], { concurrency: 1 });
    expect([...outcomes.values()].map((o) => o.status)).toEqual(['failed', 'applied', 'applied']);
  });

  it('a node that throws fails what it provides; a need nobody provides is not waited for', async () => {
    const outcomes = await walkGraph(
      [node('x', ['not-in-this-run']), node('y', ['x'])],
      async () => {
        throw new Error('boom');
      },
      { concurrency: 2, failFast: false },
    );
    expect(outcomes.get('x')).toEqual({ status: 'failed', message: 'boom' });
    expect(outcomes.get('y')?.status).toBe('skipped');
  });

  it('a bulk node settles each address it provides on its own', async () => {
    const bulk: WalkNode = { key: 'bulk', provides: ['a1', 'a2'], needs: [] };
    const outcomes = await walkGraph(
      [bulk, node('after-a1', ['a1']), node('after-a2', ['a2'])],
      async (n) =>
        n.key === 'bulk'
          ? new Map<string, Outcome>([
              ['a1', { status: 'applied' }],
              ['a2', { status: 'failed', message: 'item error' }],
            ])
          : new Map(),
      { concurrency: 2, failFast: false },
    );
    expect(outcomes.get('after-a1')?.status).toBe('applied');
    expect(outcomes.get('after-a2')).toEqual({ status: 'skipped', reason: 'a2 failed' });
  });

  it('an aborted run starts nothing more', async () => {
    const controller = new AbortController();
    const outcomes = await walkGraph(
      [node('a'), node('b', ['a'])],
      async (n) => {
        controller.abort();
        return new Map([[n.key, { status: 'applied' } as Outcome]]);
      },
      { concurrency: 1, failFast: false, signal: controller.signal },
    );
    expect(outcomes.get('a')?.status).toBe('applied');
    expect(outcomes.get('b')).toEqual({ status: 'skipped', reason: 'not started: the run was interrupted' });
  });

  it('a run aborted because its journal cannot be written says so for what it did not start', async () => {
    const controller = new AbortController();
    const outcomes = await walkGraph(
      [node('a'), node('b', ['a'])],
      async (n) => {
        controller.abort(new SwitchboardError('SB_JOURNAL', 'cannot write the journal j.jsonl: ENOSPC'));
        return new Map([[n.key, { status: 'applied' } as Outcome]]);
      },
      { concurrency: 1, failFast: false, signal: controller.signal },
    );
    expect(outcomes.get('b')).toEqual({ status: 'skipped', reason: 'not started: the journal cannot be written' });
  });

  it('an onSettle that throws stops starting nodes and rejects the walk once the running ones end', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const started: string[] = [];
      const ended: string[] = [];
      const walk = walkGraph(
        [node('a'), node('b'), node('c', ['a']), node('d')],
        async (n) => {
          started.push(n.key);
          await new Promise((r) => setTimeout(r, n.key === 'b' ? 20 : 1));
          ended.push(n.key);
          return new Map([[n.key, { status: 'applied' } as Outcome]]);
        },
        {
          concurrency: 2,
          failFast: false,
          onSettle: (address) => {
            if (address === 'a') throw new Error('progress broke');
          },
        },
      );
      await expect(walk).rejects.toThrow('progress broke');
      expect(started).toEqual(['a', 'b']);
      expect(ended).toEqual(['a', 'b']); // b, running when a settled, finished first
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('an ordering-only `after` waits for the other node to end but is not skipped by its failure', async () => {
    const links: WalkNode = { key: 'links', provides: ['links'], needs: [], after: ['address-1', 'address-7'] };
    const { outcomes, events } = await run([links, node('address-1'), node('address-7')], ['address-7']);
    expect(events.indexOf('start links')).toBeGreaterThan(events.indexOf('end address-7'));
    expect(outcomes.get('links')?.status).toBe('applied');
  });
});
