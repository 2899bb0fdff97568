/**
 * `--concurrency auto`'s controller (src/api/adaptive-concurrency.ts), driven by a fake
 * clock and invented answers: no server, no timer.
 */
import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency, AUTO_CONCURRENCY, type LoadSignal } from '../../src/api/adaptive-concurrency.js';

function controller(settings: ConstructorParameters<typeof AdaptiveConcurrency>[1] = {}) {
  const clock = { now: 0 };
  const auto = new AdaptiveConcurrency(() => clock.now, settings);
  /**
   * One round: as many attempts as the limit allows, all answered after `latencyMs`. With
   * `busy`, every slot is taken (and one more waits); without, one attempt at a time.
   */
  const round = (latencyMs: number, busy = true): void => {
    const limit = auto.limit;
    const size = Math.max(AUTO_CONCURRENCY.minRoundSamples, limit);
    if (busy) {
      const tickets = Array.from({ length: size }, (_, i) =>
        auto.started(Math.min(i + 1, limit), i + 1 >= limit ? 1 : 0),
      );
      clock.now += latencyMs;
      for (const ticket of tickets) auto.finished(ticket, { kind: 'answer', latencyMs });
    } else {
      for (let i = 0; i < size; i++) {
        const ticket = auto.started(1, 0);
        clock.now += latencyMs;
        auto.finished(ticket, { kind: 'answer', latencyMs });
      }
    }
  };
  /** One attempt started now and answered with `signal`. */
  const one = (signal: LoadSignal): void => auto.finished(auto.started(1, 0), signal);
  return { auto, clock, round, one };
}

describe('--concurrency auto: growing', () => {
  it('starts at 8 and doubles per busy round while answer times stay flat, up to the ceiling of 32 and no further', () => {
    const { auto, round } = controller();
    expect(auto.limit).toBe(8);
    round(10);
    expect(auto.limit).toBe(16);
    round(10);
    expect(auto.limit).toBe(32);
    for (let i = 0; i < 20; i++) round(10);
    expect(auto.limit).toBe(32);
    expect(auto.report()).toMatchObject({ limit: 32, highest: 32, lowest: 8, increases: 2 });
  });

  it('does not grow when the run does not use every slot (the limit is not what holds it back)', () => {
    const { auto, round } = controller();
    for (let i = 0; i < 10; i++) round(10, false);
    expect(auto.limit).toBe(8);
  });

  it('holds while answer times are between 1.5 and 2 times the baseline, until the baseline has moved up to them', () => {
    const { auto, round } = controller();
    round(10);
    expect(auto.limit).toBe(16);
    round(17);
    expect(auto.limit).toBe(16);
    round(17);
    expect(auto.limit).toBe(16);
    for (let i = 0; i < 5; i++) round(17);
    expect(auto.limit).toBe(32);
  });
});

describe('--concurrency auto: 429 and 503', () => {
  it('halves the limit once for all the refusals of requests sent under the same limit', () => {
    const { auto, round } = controller();
    round(10);
    expect(auto.limit).toBe(16);
    const tickets = Array.from({ length: 16 }, (_, i) => auto.started(i + 1, 0));
    for (const ticket of tickets) auto.finished(ticket, { kind: 'overload', retryAfterMs: 1000 });
    expect(auto.limit).toBe(8);
    expect(auto.report().overloadDecreases).toBe(1);
  });

  it('halves again on a refusal of a request sent under the halved limit, down to 1 and never below', () => {
    const { auto, one } = controller();
    one({ kind: 'overload' });
    expect(auto.limit).toBe(4);
    for (let i = 0; i < 10; i++) one({ kind: 'overload' });
    expect(auto.limit).toBe(1);
    expect(auto.report().lowest).toBe(1);
  });

  it('pauses new attempts for the Retry-After, and not for one beyond the retry budget (that request fails at once)', () => {
    const { auto, clock, one } = controller();
    one({ kind: 'overload', retryAfterMs: 1000 });
    expect(auto.pauseLeft()).toBe(1000);
    clock.now += 400;
    expect(auto.pauseLeft()).toBe(600);
    clock.now += 600;
    expect(auto.pauseLeft()).toBe(0);
    one({ kind: 'overload', retryAfterMs: 86_400_000 });
    expect(auto.pauseLeft()).toBe(0);
    one({ kind: 'overload' });
    expect(auto.pauseLeft()).toBe(0);
  });

  it('after a refusal, grows by one slot per second at most, even when every round is clean and busy', () => {
    const { auto, clock, round, one } = controller();
    round(10);
    round(10);
    expect(auto.limit).toBe(32);
    one({ kind: 'overload', retryAfterMs: 1000 });
    expect(auto.limit).toBe(16);
    for (let i = 0; i < 50; i++) round(10); // 0.5 s of clean rounds
    expect(auto.limit).toBe(16);
    clock.now += 500;
    round(10);
    expect(auto.limit).toBe(17);
    round(10);
    expect(auto.limit).toBe(17);
    for (let s = 0; s < 5; s++) {
      clock.now += 1000;
      round(10);
    }
    expect(auto.limit).toBe(22);
  });

  it('does not count answers to requests sent before the last change', () => {
    const { auto, round } = controller();
    const old = Array.from({ length: 8 }, (_, i) => auto.started(i + 1, 1));
    round(10);
    expect(auto.limit).toBe(16);
    for (const ticket of old) auto.finished(ticket, { kind: 'answer', latencyMs: 500 });
    for (const ticket of old) auto.finished(ticket, { kind: 'overload' });
    expect(auto.limit).toBe(16);
  });
});

describe('--concurrency auto: answer times', () => {
  it('shrinks by 10 % after two rounds in a row slower than twice the baseline, then grows one slot per round', () => {
    const { auto, round } = controller();
    round(10);
    round(10);
    expect(auto.limit).toBe(32);
    round(25);
    expect(auto.limit).toBe(32); // one slow round: a pause of this process, not the server
    round(25);
    expect(auto.limit).toBe(28);
    expect(auto.report().latencyDecreases).toBe(1);
    round(10);
    expect(auto.limit).toBe(29);
    round(10);
    expect(auto.limit).toBe(30);
  });

  it('learns a slower kind of request instead of shrinking to nothing', () => {
    const { auto, round } = controller();
    round(10);
    round(10);
    for (let i = 0; i < 100; i++) round(40);
    expect(auto.limit).toBeGreaterThanOrEqual(16);
  });

  it('keeps shrinking while answers stay slow for the same kind of request (a server falling behind)', () => {
    const { auto, round } = controller();
    round(10);
    round(10);
    let latency = 25;
    for (let i = 0; i < 12; i++) round((latency *= 1.3));
    expect(auto.limit).toBeLessThan(24);
  });

  it('a timeout is an overload; a refused connection says nothing', () => {
    const { auto, one } = controller();
    one({ kind: 'none' });
    expect(auto.limit).toBe(8);
    one({ kind: 'overload' });
    expect(auto.limit).toBe(4);
  });
});
