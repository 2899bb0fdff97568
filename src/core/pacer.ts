/**
 * Long CPU steps (loading a million CSV rows, checking policies over them) hand the event
 * loop a turn about every {@link CPU_SLICE_MS}: a SIGTERM or a Ctrl-C is only seen by its
 * handler in such a turn, and a step that never yields would finish, print its result and
 * exit with it as if no signal had come. After each turn the step stops with the run's
 * interrupt (`SB_INTERRUPTED`, exit 130 or 143) when one came.
 *
 * Signals are the process's, so is the interrupt the steps stop on: the run layer's
 * `watchInterrupts` sets it for the command's lifetime ({@link setRunInterrupt}).
 */

/** CPU time a step runs between two turns of the event loop. */
const CPU_SLICE_MS = 50;
/** Loop iterations between two looks at the clock (a look costs about as much as 100 of them). */
const CHECK_EVERY = 512;

let interrupt: AbortSignal | undefined;

/** The signal long steps stop on (undefined: none; they still yield). */
export function setRunInterrupt(signal: AbortSignal | undefined): void {
  interrupt = signal;
}

/** Throws the interrupt's reason once it fired. */
function throwIfInterrupted(): void {
  interrupt?.throwIfAborted();
}

/** One long step's pace: `if (pacer.due()) await pacer.pause();` in its loop. */
export class Pacer {
  private countdown = CHECK_EVERY;
  private sliceEnd = performance.now() + CPU_SLICE_MS;

  /** Cheap: true once the step has run for a slice since its last pause (`steps`: the work done since the last call). */
  due(steps = 1): boolean {
    this.countdown -= steps;
    if (this.countdown > 0) return false;
    this.countdown = CHECK_EVERY;
    return performance.now() >= this.sliceEnd;
  }

  /** A turn of the event loop (a signal's handler runs in it), then the interrupt's error if one came. */
  async pause(): Promise<void> {
    await yieldToEventLoop();
    this.sliceEnd = performance.now() + CPU_SLICE_MS;
  }
}

/** A turn of the event loop, then the interrupt's error if one came (also where a step ends). */
export async function yieldToEventLoop(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  throwIfInterrupted();
}
