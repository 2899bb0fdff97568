import { progressInterval } from '../apply/progress.js';
import type { ReadMeter } from '../core/read-meter.js';

/** On a terminal, the line is redrawn this often (ms). */
const REDRAW_MS = 200;

/**
 * The progress of a long read (`plan`, the planning of `apply`, `export`) on stderr, from
 * what the clients counted: on a terminal one line redrawn in place and cleared at the
 * end (stdout then gets the plan); otherwise a plain line every few seconds for CI logs
 * (`SWITCHBOARD_PROGRESS_INTERVAL_MS`, 5 s by default), none for a read shorter than that.
 */
export class ReadProgress {
  private readonly begin = performance.now();
  private timer: NodeJS.Timeout | undefined;
  private drawn = false;

  constructor(
    private readonly verb: string,
    private readonly meter: ReadMeter,
    private readonly out: NodeJS.WritableStream & { isTTY?: boolean },
    private readonly intervalMs = progressInterval(),
    /** What the run adds to the line (`; 1200 of 50053 files written`). */
    private readonly detail?: () => string,
  ) {}

  start(): this {
    const tty = this.out.isTTY === true;
    this.timer = setInterval(() => this.show(tty), tty ? REDRAW_MS : this.intervalMs);
    this.timer.unref();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.drawn) this.out.write('\r\x1b[2K');
  }

  /** `plan: read 12040 objects in 131 pages, 802.6/s, 15 s` */
  line(): string {
    const seconds = (performance.now() - this.begin) / 1000;
    const rate = seconds > 0 ? this.meter.objects / seconds : 0;
    const pages = `${this.meter.pages} page${this.meter.pages === 1 ? '' : 's'}`;
    const detail = this.detail?.() ?? '';
    return `${this.verb}: read ${this.meter.objects} objects in ${pages}, ${rate.toFixed(1)}/s, ${Math.round(seconds)} s${detail}`;
  }

  private show(tty: boolean): void {
    if (!tty) return void this.out.write(`${this.line()}\n`);
    this.drawn = true;
    this.out.write(`\r\x1b[2K${this.line()}`);
  }
}
