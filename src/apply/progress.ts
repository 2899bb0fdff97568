import { SwitchboardError } from '../core/errors.js';
import type { Outcome } from './walk.js';
import { safeText } from '../core/safe-text.js';

/** Without a terminal, a progress line this often (ms). */
const PROGRESS_LOG_INTERVAL_MS = 5_000;
/** The environment variable that changes it (a CI log that wants fewer lines, or more). */
const PROGRESS_INTERVAL_VARIABLE = 'SWITCHBOARD_PROGRESS_INTERVAL_MS';

/** How often a progress line is logged without a terminal: `SWITCHBOARD_PROGRESS_INTERVAL_MS`, else 5 s. */
export function progressInterval(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const text = env[PROGRESS_INTERVAL_VARIABLE];
  if (text === undefined || text === '') return PROGRESS_LOG_INTERVAL_MS;
  const ms = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (ms >= 10 && ms <= 3_600_000) return ms;
  throw new SwitchboardError(
    'SB_CONFIG',
    `${PROGRESS_INTERVAL_VARIABLE}=${text}: expected a whole number of milliseconds from 10 to 3600000`,
  );
}
/** On a terminal, the line is redrawn at most this often (ms). */
const REDRAW_MS = 100;

/**
 * Progress of a run on stderr: on a terminal one line redrawn in place (done/total,
 * failures, rate, ETA); otherwise a plain line every few seconds, for CI logs.
 */
export class Progress {
  private done = 0;
  private failed = 0;
  private readonly begin = performance.now();
  private timer: NodeJS.Timeout | undefined;
  private lastDraw = 0;

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WritableStream & { isTTY?: boolean },
    private readonly intervalMs = PROGRESS_LOG_INTERVAL_MS,
  ) {}

  start(): void {
    if (this.total === 0) return;
    if (!this.out.isTTY) {
      this.timer = setInterval(() => this.out.write(`${this.line()}\n`), this.intervalMs);
      this.timer.unref();
    }
  }

  settle(outcome: Outcome): void {
    this.done++;
    if (outcome.status === 'failed') this.failed++;
    if (!this.out.isTTY) return;
    const now = performance.now();
    if (now - this.lastDraw < REDRAW_MS && this.done < this.total) return;
    this.lastDraw = now;
    this.out.write(`\r\x1b[2K${this.line()}`);
  }

  /** A line that must not wait for the summary (stderr): on a terminal, above the redrawn line. */
  note(text: string): void {
    const note = safeText(text);
    if (!this.out.isTTY) return void this.out.write(`Note: ${note}\n`);
    this.out.write(`\r\x1b[2KNote: ${note}\n${this.line()}`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.out.isTTY && this.total > 0) this.out.write(`\r\x1b[2K${this.line()}\n`);
  }

  /** `apply: 120/2000 changes, 1 failed, 85.3/s, ETA 22 s` */
  line(): string {
    const seconds = (performance.now() - this.begin) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    const eta = rate > 0 ? Math.ceil((this.total - this.done) / rate) : undefined;
    return `apply: ${this.done}/${this.total} changes, ${this.failed} failed, ${rate.toFixed(1)}/s${eta === undefined ? '' : `, ETA ${eta} s`}`;
  }
}
