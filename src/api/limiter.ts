/**
 * The client-wide limit on requests in flight (`--concurrency N` or `--concurrency auto`),
 * shared by the platform API client and the routing-engine client. A slot is held for one
 * attempt: never during a retry's backoff or a token refresh.
 */
import {
  AdaptiveConcurrency,
  AUTO_CONCURRENCY,
  type AutoConcurrencySettings,
  type ConcurrencyReport,
  type LoadSignal,
} from './adaptive-concurrency.js';

/** `--concurrency`: a fixed number of requests in flight, or `auto` (./adaptive-concurrency.ts). */
export type ConcurrencySetting = number | 'auto';

/** How one attempt ended, as the limiter's judge sees it. */
export type AttemptOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Reads an attempt's outcome as a load signal (its `latencyMs` is measured by the limiter). */
export type LoadJudge<T> = (outcome: AttemptOutcome<T>) => LoadSignal | 'answer';

/** The most requests a setting ever lets run at once: pools and outer loops are sized from it. */
export function slotsOf(setting: ConcurrencySetting): number {
  return setting === 'auto' ? AUTO_CONCURRENCY.ceiling : Math.max(1, setting);
}

export class RequestLimiter {
  private readonly adaptive: AdaptiveConcurrency | undefined;
  private readonly fixed: number;
  private running = 0;
  private readonly queue: Array<() => void> = [];
  private wakeTimer: NodeJS.Timeout | undefined;

  constructor(
    setting: ConcurrencySetting,
    private readonly now: () => number = () => performance.now(),
    auto: Partial<AutoConcurrencySettings> = {},
  ) {
    this.adaptive = setting === 'auto' ? new AdaptiveConcurrency(now, auto) : undefined;
    this.fixed = slotsOf(setting);
  }

  /** The most attempts this limiter ever lets run at once. */
  get slots(): number {
    return this.adaptive?.ceiling ?? this.fixed;
  }

  /** What `auto` did (undefined for a fixed number). */
  report(): ConcurrencyReport | undefined {
    return this.adaptive?.report();
  }

  /**
   * Runs one attempt in a slot. `judge` reads its outcome as a load signal (`'answer'`: an
   * answer whose time counts); with a fixed number it is never called. A `retry` waits at the
   * head of the queue: behind every fresh request, a request's retries would wait for all of
   * them, and a server that stopped answering would take (queued requests × attempts ×
   * timeout ÷ slots) to be noticed instead of one request's budget.
   */
  async run<T>(attempt: () => Promise<T>, judge: LoadJudge<T>, retry = false): Promise<T> {
    if (this.canStart()) this.running++;
    else {
      // drain() counts the attempt as running when it wakes it.
      const turn = new Promise<void>((resolve) => (retry ? this.queue.unshift(resolve) : this.queue.push(resolve)));
      this.drain();
      await turn;
    }
    const ticket = this.adaptive?.started(this.running, this.queue.length) ?? 0;
    const begin = this.now();
    let outcome: AttemptOutcome<T>;
    try {
      outcome = { ok: true, value: await attempt() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (this.adaptive) {
      const signal = judge(outcome);
      this.adaptive.finished(ticket, signal === 'answer' ? { kind: 'answer', latencyMs: this.now() - begin } : signal);
    }
    this.running--;
    this.drain();
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  private limit(): number {
    return this.adaptive?.limit ?? this.fixed;
  }

  private canStart(): boolean {
    return this.queue.length === 0 && this.running < this.limit() && (this.adaptive?.pauseLeft() ?? 0) === 0;
  }

  /** Starts queued attempts while slots are free; under a Retry-After pause, wakes up when it ends. */
  private drain(): void {
    const pause = this.adaptive?.pauseLeft() ?? 0;
    if (pause > 0) {
      if (this.queue.length > 0 && this.wakeTimer === undefined) {
        const since = this.now();
        this.wakeTimer = setTimeout(() => {
          this.wakeTimer = undefined;
          this.adaptive?.notePaused(this.now() - since);
          this.drain();
        }, Math.ceil(pause));
      }
      return;
    }
    while (this.queue.length > 0 && this.running < this.limit()) {
      this.running++;
      this.queue.shift()?.();
    }
  }
}
