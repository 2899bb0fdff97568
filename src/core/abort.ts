import { setMaxListeners } from 'node:events';

/**
 * An AbortController whose signal many waiters may listen to at once: every request in
 * flight and every retry wait of a run listens to the same signal (up to 32 of each with
 * `--concurrency auto`), which is by design, not the leak Node warns about at 11 listeners.
 * The warning would land on stderr, which CI logs and tests read.
 */
export function sharedAbortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
