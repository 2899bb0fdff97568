/**
 * The simulator's clock. Token lifetimes, 2FA codes, timestamps and event times all read
 * it, so `POST /_sim/clock {"advanceSeconds": N}` moves every deadline at once without a
 * test having to wait. It runs with the wall clock plus an offset that only grows.
 */
export class SimClock {
  private offsetMs = 0;

  constructor(offsetMs = 0) {
    this.offsetMs = offsetMs;
  }

  /** Milliseconds since the epoch, as the simulated platform sees it. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(seconds: number): void {
    this.offsetMs += Math.round(seconds * 1000);
  }

  get offset(): number {
    return this.offsetMs;
  }

  set offset(ms: number) {
    this.offsetMs = ms;
  }

  /** ISO 8601 without timezone (Document 1 §1.11), e.g. `2026-11-22T10:00:00`. */
  isoNow(): string {
    return formatTimestamp(this.now());
  }
}

function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** `YYYY-MM-DD HH:MM:SS`, the price-validity format of Document 1 §1.11. */
export function formatPriceDate(ms: number): string {
  return formatTimestamp(ms).replace('T', ' ');
}
