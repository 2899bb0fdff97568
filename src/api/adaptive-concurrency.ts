/**
 * `--concurrency auto`: how many requests may be in flight, learnt from the answers
 * (docs/connecting.md "Concurrency"). Pure logic: no timer, no I/O; the clock is injected.
 * The limiter (./limiter.ts) asks it before each attempt and tells it how each one ended.
 *
 * - Rounds: a round ends when as many attempts as the limit allows (at least 4), all started
 *   under the current limit, have been answered. Its median answer time is compared with the
 *   baseline (the lowest round median seen, drifting up by a tenth of the gap per slower
 *   round, so that a slower kind of request is learnt, not fought).
 * - Growth, only when the round used every slot (else the limit is not what holds the run
 *   back) and its median stayed within 1.5 × the baseline: doubling per round at first;
 *   after the first decrease, one more slot per round; after a 429 or 503, one more slot per
 *   second at most (a quota does not show in answer times, so it is approached slowly).
 * - Shrinking: ×0.5 on a 429 or 503 (or an attempt that timed out), ×0.9 after two rounds in
 *   a row whose median exceeds twice the baseline (one alone is more often a pause of this
 *   process than the server); once per limit, so that the answers of requests sent under
 *   the old limit do not shrink it again. Never below 1, never above the ceiling (32).
 * - `Retry-After` on a 429 or 503 pauses every new attempt until then, unless it lies beyond
 *   the retry budget (that request then fails at once, ./retry.ts).
 */

import { DEFAULT_RETRY } from './retry.js';

/** What one attempt said about the server's load. */
export type LoadSignal =
  /** An answer (any status but 429 and 503): its time is a latency sample. */
  | { kind: 'answer'; latencyMs: number }
  /** 429, 503, or no answer within the timeout. */
  | { kind: 'overload'; retryAfterMs?: number | undefined }
  /** Says nothing about load (a refused connection, a reset, a cancelled request). */
  | { kind: 'none' };

/** The limits of `--concurrency auto` (documented in docs/connecting.md). */
export const AUTO_CONCURRENCY = {
  /** Where it starts: the fixed default of earlier versions. */
  initial: 8,
  /** Never more requests in flight than this. */
  ceiling: 32,
  floor: 1,
  /** Round medians within this many baselines count as flat (growth allowed). */
  flatRatio: 1.5,
  /** Round medians beyond this many baselines shrink the limit. */
  slowRatio: 2,
  overloadFactor: 0.5,
  slowFactor: 0.9,
  /** Once overloaded, growth is at most one slot per this many ms. */
  pacedGrowthMs: 1000,
  /** The longest Retry-After that pauses the other requests: the retry budget's (./retry.ts). */
  maxPauseMs: DEFAULT_RETRY.maxElapsedMs,
  minRoundSamples: 4,
  /** Share of the gap to a slower round median the baseline moves up by, per round. */
  baselineDrift: 0.1,
} as const;

export type AutoConcurrencySettings = { -readonly [K in keyof typeof AUTO_CONCURRENCY]: number };

/** What happened so far: for `--stats` and the benchmark. */
export interface ConcurrencyReport {
  mode: 'auto';
  limit: number;
  highest: number;
  lowest: number;
  increases: number;
  overloadDecreases: number;
  latencyDecreases: number;
  /** Time new attempts spent held back by Retry-After (ms). */
  pausedMs: number;
}

type Phase = 'start' | 'additive' | 'paced';

export class AdaptiveConcurrency {
  private readonly settings: AutoConcurrencySettings;
  private value: number;
  private phase: Phase = 'start';
  /** Bumped by every change of the limit: answers to older attempts do not count for the new one. */
  private epoch = 0;
  private samples: number[] = [];
  private saturated = false;
  private baseline: number | undefined;
  /** Slow rounds in a row: one alone is a pause of this process (a GC, a long plan step), not the server. */
  private slowRounds = 0;
  private lastChangeAt: number;
  private pausedUntil = 0;
  private readonly tally: ConcurrencyReport;

  constructor(
    private readonly now: () => number,
    settings: Partial<AutoConcurrencySettings> = {},
  ) {
    this.settings = { ...AUTO_CONCURRENCY, ...settings };
    this.value = Math.min(this.settings.initial, this.settings.ceiling);
    this.lastChangeAt = now();
    const limit = this.limit;
    this.tally = {
      mode: 'auto',
      limit,
      highest: limit,
      lowest: limit,
      increases: 0,
      overloadDecreases: 0,
      latencyDecreases: 0,
      pausedMs: 0,
    };
  }

  /** Attempts allowed in flight now. */
  get limit(): number {
    return Math.max(this.settings.floor, Math.floor(this.value));
  }

  /** The most it will ever allow (connection pools are sized from it). */
  get ceiling(): number {
    return this.settings.ceiling;
  }

  /** Milliseconds new attempts must still wait (a Retry-After in force), 0 when none. */
  pauseLeft(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  /**
   * An attempt starts, with `inFlight` attempts running (itself included) and `waiting`
   * queued behind it. Returns the ticket to hand back to {@link finished}.
   */
  started(inFlight: number, waiting: number): number {
    if (inFlight >= this.limit || waiting > 0) this.saturated = true;
    return this.epoch;
  }

  finished(ticket: number, signal: LoadSignal): void {
    if (signal.kind === 'overload') this.overloaded(ticket, signal.retryAfterMs);
    else if (signal.kind === 'answer' && ticket === this.epoch) {
      this.samples.push(signal.latencyMs);
      if (this.samples.length >= Math.max(this.settings.minRoundSamples, this.limit)) this.endRound();
    }
  }

  report(): ConcurrencyReport {
    return { ...this.tally, limit: this.limit };
  }

  /** Records time spent paused by the limiter (it knows when attempts really waited). */
  notePaused(ms: number): void {
    this.tally.pausedMs += ms;
  }

  private overloaded(ticket: number, retryAfterMs: number | undefined): void {
    // Beyond the retry budget the refused request fails at once (./retry.ts): nobody waits for it.
    if (retryAfterMs !== undefined && retryAfterMs > 0 && retryAfterMs <= this.settings.maxPauseMs)
      this.pausedUntil = Math.max(this.pausedUntil, this.now() + retryAfterMs);
    if (ticket !== this.epoch) return;
    this.phase = 'paced';
    this.tally.overloadDecreases++;
    this.change(this.value * this.settings.overloadFactor);
  }

  private endRound(): void {
    const median = medianOf(this.samples);
    const saturated = this.saturated;
    this.samples = [];
    this.saturated = false;
    const baseline = this.baseline ?? median;
    this.baseline = median <= baseline ? median : baseline + (median - baseline) * this.settings.baselineDrift;
    this.slowRounds = median > baseline * this.settings.slowRatio ? this.slowRounds + 1 : 0;
    if (this.slowRounds >= 2) {
      if (this.phase === 'start') this.phase = 'additive';
      this.tally.latencyDecreases++;
      this.change(this.value * this.settings.slowFactor);
      return;
    }
    if (!saturated || median > baseline * this.settings.flatRatio || this.value >= this.settings.ceiling) return;
    if (this.slowRounds > 0) return;
    if (this.phase === 'paced' && this.now() - this.lastChangeAt < this.settings.pacedGrowthMs) return;
    this.tally.increases++;
    this.change(this.phase === 'start' ? this.value * 2 : this.value + 1);
  }

  private change(value: number): void {
    this.value = Math.min(this.settings.ceiling, Math.max(this.settings.floor, value));
    this.epoch++;
    this.samples = [];
    this.saturated = false;
    this.slowRounds = 0;
    this.lastChangeAt = this.now();
    const limit = this.limit;
    this.tally.highest = Math.max(this.tally.highest, limit);
    this.tally.lowest = Math.min(this.tally.lowest, limit);
  }
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
