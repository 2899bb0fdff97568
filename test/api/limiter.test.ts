/**
 * The client-wide limit on requests in flight (src/api/limiter.ts): a fixed number, or
 * `auto` with its pauses for Retry-After. Fake timers: nothing here waits for real.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestLimiter, slotsOf } from '../../src/api/limiter.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** An attempt that ends when told to, recording when it started. */
function gate() {
  const started: number[] = [];
  const open: Array<() => void> = [];
  const attempt = (id: number) => () =>
    new Promise<number>((resolve) => {
      started.push(id);
      open.push(() => resolve(id));
    });
  return { started, open, attempt };
}

describe('RequestLimiter', () => {
  it('a fixed number: never more attempts running, the waiting ones started in arrival order', async () => {
    const limiter = new RequestLimiter(2, () => Date.now());
    const { started, open, attempt } = gate();
    const results = [1, 2, 3, 4, 5].map((id) => limiter.run(attempt(id), () => 'answer'));
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([1, 2]);
    open.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([1, 2, 3]);
    while (open.length > 0) {
      open.shift()?.();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(await Promise.all(results)).toEqual([1, 2, 3, 4, 5]);
    expect(limiter.slots).toBe(2);
    expect(limiter.report()).toBeUndefined();
  });

  it('a retry waits at the head of the queue, so a request behind many fresh ones still spends its budget in time', async () => {
    const limiter = new RequestLimiter(1, () => Date.now());
    const { started, open, attempt } = gate();
    const results = [1, 2, 3].map((id) => limiter.run(attempt(id), () => 'answer'));
    await vi.advanceTimersByTimeAsync(0);
    const retried = limiter.run(attempt(10), () => 'answer', true);
    open.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([1, 10]);
    while (open.length > 0) {
      open.shift()?.();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(await Promise.all([...results, retried])).toEqual([1, 2, 3, 10]);
    expect(started).toEqual([1, 10, 2, 3]);
  });

  it('auto: a Retry-After holds every new attempt until it has passed; the refused one is not retried by the limiter', async () => {
    const limiter = new RequestLimiter('auto', () => Date.now());
    await limiter.run(
      async () => 429,
      () => ({ kind: 'overload', retryAfterMs: 1000 }),
    );
    const { started, open, attempt } = gate();
    const next = limiter.run(attempt(1), () => 'answer');
    await vi.advanceTimersByTimeAsync(999);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([1]);
    open.shift()?.();
    expect(await next).toBe(1);
    expect(limiter.report()).toMatchObject({ limit: 4, overloadDecreases: 1, pausedMs: 1000 });
  });

  it('auto: grows while answers stay clean and flat, never running more than 32 at once', async () => {
    const limiter = new RequestLimiter('auto', () => Date.now());
    let running = 0;
    let peak = 0;
    const attempt = async (): Promise<void> => {
      peak = Math.max(peak, ++running);
      await new Promise((resolve) => setTimeout(resolve, 10));
      running--;
    };
    const all = Promise.all(Array.from({ length: 2000 }, () => limiter.run(attempt, () => 'answer')));
    await vi.advanceTimersByTimeAsync(0);
    expect(running).toBe(8);
    await vi.advanceTimersByTimeAsync(10_000);
    await all;
    expect(peak).toBe(32);
    expect(limiter.report()).toMatchObject({ limit: 32, highest: 32 });
    expect(slotsOf('auto')).toBe(32);
    expect(limiter.slots).toBe(32);
  });

  it('hands an attempt’s error back to its caller after telling the judge', async () => {
    const limiter = new RequestLimiter('auto', () => Date.now());
    const judged: unknown[] = [];
    const failing = limiter.run(
      () => Promise.reject(new Error('no route to host')),
      (outcome) => {
        judged.push(outcome);
        return { kind: 'none' };
      },
    );
    await expect(failing).rejects.toThrow('no route to host');
    expect(judged).toEqual([{ ok: false, error: new Error('no route to host') }]);
    expect(limiter.report()?.limit).toBe(8);
  });
});
