import { sharedAbortController } from '../core/abort.js';
import { RoutingApiError } from './errors.js';

/** Requests in a row that end without any answer (a POST is tried once) before the engine counts as gone. */
const UNREACHABLE_AFTER_REQUESTS = 3;

/**
 * Whether the routing engine is still there. When it is gone (a request spent its retries
 * without one answer: connection refused, reset or timed out every time; or
 * {@link UNREACHABLE_AFTER_REQUESTS} requests in a row got no answer at all), nothing more
 * is sent to it in this run: every waiting and later request fails at once with
 * `SB_ROUTING_UNREACHABLE`, instead of each going through its own retries (700 deletes
 * against a dead engine took 554 s that way). A cancelled run (`cancel`) stops the same way.
 * Any answer, even an error status, shows the engine is there.
 */
export class Reachability {
  private readonly stop = sharedAbortController();
  private cause: { code: 'SB_ROUTING_UNREACHABLE' | 'SB_ROUTING_ABORTED'; reason: string } | undefined;
  private silentRequests = 0;

  constructor(private readonly origin: string) {}

  /** Aborted once the engine is gone or the run is cancelled: in-flight attempts and backoff waits end. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** True once nothing more is sent (gone or cancelled). */
  get stopped(): boolean {
    return this.cause !== undefined;
  }

  /**
   * Why nothing more is sent to the engine in this run: it stopped answering, or it was given
   * up on ({@link giveUp}); undefined while requests may go (or when the run was only cancelled).
   */
  get unreachable(): string | undefined {
    return this.cause?.code === 'SB_ROUTING_UNREACHABLE' ? this.cause.reason : undefined;
  }

  /** The error a request to `method path` fails with once stopped; undefined while requests may go. */
  refusal(method: string, path: string): RoutingApiError | undefined {
    if (!this.cause) return undefined;
    return new RoutingApiError(this.cause.code, {
      method,
      path,
      status: 0,
      serverMessage: this.cause.reason,
      retryable: false,
    });
  }

  answered(): void {
    this.silentRequests = 0;
  }

  /** A request ended with no answer to any of its `attempts`. */
  silent(error: RoutingApiError, attempts: number): void {
    this.silentRequests++;
    if (attempts > 1 || this.silentRequests >= UNREACHABLE_AFTER_REQUESTS) {
      const tries = attempts > 1 ? `${attempts} attempts` : `${this.silentRequests} requests in a row`;
      this.halt(
        'SB_ROUTING_UNREACHABLE',
        `the routing engine at ${this.origin} is unreachable (${tries} without an answer; last: ${error.method} ` +
          `${error.path}: ${error.serverMessage}): nothing more is sent to it in this run; the next apply ` +
          'finishes what is left',
      );
    }
  }

  /**
   * An answer showed that the engine does not behave as Document 3 says (a PATCH modified rows
   * it did not name): writing on would do more of the same, so nothing more is sent to it, as
   * when it is gone, and `reason` is what every row left is reported with.
   */
  giveUp(reason: string): void {
    this.halt('SB_ROUTING_UNREACHABLE', reason);
  }

  /** The run was interrupted: requests in flight are cancelled, none is started. */
  cancel(why: string): void {
    this.halt('SB_ROUTING_ABORTED', `cancelled: ${why}`);
  }

  private halt(code: 'SB_ROUTING_UNREACHABLE' | 'SB_ROUTING_ABORTED', reason: string): void {
    if (this.cause) return;
    this.cause = { code, reason };
    this.stop.abort(new Error(reason));
  }
}
