import { writeSync } from 'node:fs';
import { sharedAbortController } from '../core/abort.js';
import { setRunInterrupt } from '../core/pacer.js';
import { ExitCode, SwitchboardError, type ExitCodeValue } from '../core/errors.js';

/** The signals a run stops on: Ctrl-C, and what CI runners, Kubernetes and `docker stop` send. */
export type StopSignal = 'SIGINT' | 'SIGTERM';
const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/** The shell's convention for a process ended by a signal: 128 + its number. */
function exitCodeOf(signal: StopSignal): ExitCodeValue {
  return signal === 'SIGINT' ? ExitCode.interrupted : ExitCode.terminated;
}

/** What a run is doing when a signal comes, which decides what stopping means. */
export type RunPhase = 'plan' | 'confirm' | 'apply' | 'export' | 'verify';

/**
 * SIGINT and SIGTERM as an AbortSignal for one command. The first signal aborts `signal`:
 * while planning, the reads under way are cancelled and the command ends (exit 130 or
 * 143, see {@link interruptedError}); while applying, no change is started and those in
 * flight finish (the summary is printed, exit 1). A second signal ends the process at
 * once with 130 or 143; `process.on('exit')` handlers still run (the apply lock is
 * released by one, see withApplyLock).
 */
export interface Interrupt {
  readonly signal: AbortSignal;
  /** The first signal received, once there was one. */
  readonly received: StopSignal | undefined;
  /** What stopping means from now on (the message of the first signal says it). */
  phase: RunPhase;
  /** Removes the handlers (the process then ends on a signal as usual). */
  dispose(): void;
}

/**
 * Installs the handlers; `say` hears what is happening (for stderr). `lastWords`, when a second
 * signal quits at once, gives what stdout still gets first (a `--format json` document), written
 * synchronously: the process ends right after.
 */
export function watchInterrupts(
  say: (line: string) => void,
  options: { lastWords?: (signal: StopSignal, message: string) => string } = {},
): Interrupt {
  const controller = sharedAbortController();
  let received: StopSignal | undefined;
  const interrupt: Interrupt = {
    signal: controller.signal,
    get received() {
      return received;
    },
    phase: 'plan',
    dispose: () => {
      for (const s of STOP_SIGNALS) process.off(s, handlers[s]);
      setRunInterrupt(undefined);
    },
  };
  const on = (signal: StopSignal) => () => {
    if (received !== undefined) {
      const message = `Interrupted again (${signal}): quitting now; what was in flight may or may not have been applied.`;
      say(message);
      const last = options.lastWords?.(signal, message);
      try {
        if (last) writeSync(1, last);
      } catch {
        // stdout closed by its reader: nothing more to say there.
      }
      process.exit(exitCodeOf(signal));
    }
    received = signal;
    if (interrupt.phase === 'apply') {
      say(
        `Interrupted (${signal}): finishing the requests in flight, then the summary (${signal} again to quit at once)…`,
      );
    } else if (interrupt.phase === 'plan') {
      say(`Interrupted (${signal}): stopping the plan…`);
    } else if (interrupt.phase === 'export') {
      say(`Interrupted (${signal}): stopping the export; the files being written are finished first…`);
    } else if (interrupt.phase === 'verify') {
      say(`Interrupted (${signal}): stopping the verification…`);
    }
    controller.abort(interruptedError(signal, interrupt.phase));
  };
  const handlers = { SIGINT: on('SIGINT'), SIGTERM: on('SIGTERM') };
  for (const s of STOP_SIGNALS) process.on(s, handlers[s]);
  // Long CPU steps (manifest load, policies) look at it between slices (src/core/pacer.ts).
  setRunInterrupt(controller.signal);
  return interrupt;
}

/** The error a command ends with when a signal stopped it before anything was applied. */
export function interruptedError(signal: StopSignal, phase: RunPhase): SwitchboardError {
  if (phase === 'export') {
    return new SwitchboardError(
      'SB_INTERRUPTED',
      `Interrupted (${signal}) while exporting: every file written is complete; run the same command again to finish the export.`,
      { exitCode: exitCodeOf(signal) },
    );
  }
  if (phase === 'verify') {
    return new SwitchboardError(
      'SB_INTERRUPTED',
      `Interrupted (${signal}) while verifying: nothing was changed; the vectors not searched neither passed nor failed (run the same command again to search them).`,
      { exitCode: exitCodeOf(signal) },
    );
  }
  const when = phase === 'confirm' ? 'before applying' : 'while planning';
  return new SwitchboardError('SB_INTERRUPTED', `Interrupted (${signal}) ${when}: nothing was changed.`, {
    exitCode: exitCodeOf(signal),
  });
}

/** The interrupt's error when it fired, else `error` as it is: a cancelled read is not the command's failure. */
export function asInterrupted(error: unknown, signal: AbortSignal | undefined): unknown {
  if (!signal?.aborted) return error;
  return signal.reason instanceof SwitchboardError
    ? signal.reason
    : new SwitchboardError('SB_INTERRUPTED', 'Interrupted while planning: nothing was changed.');
}
