import { isConnectFailure } from '../core/never-sent.js';
import { SwitchboardError } from '../core/errors.js';

/**
 * Stable codes: `SB_ROUTING_HTTP` (the engine answered an error status),
 * `SB_ROUTING_NETWORK` (connection, TLS or timeout), `SB_ROUTING_RESPONSE` (a success
 * status with a body the client cannot use), `SB_ROUTING_LIST_CHANGED` (a table kept
 * changing while it was read), `SB_ROUTING_UNREACHABLE` (not sent: the engine stopped
 * answering earlier in the run, or an answer made the run give up on it), `SB_ROUTING_ABORTED`
 * (not sent or cancelled: the run was interrupted).
 */
export type RoutingErrorCode =
  | 'SB_ROUTING_HTTP'
  | 'SB_ROUTING_NETWORK'
  | 'SB_ROUTING_RESPONSE'
  | 'SB_ROUTING_LIST_CHANGED'
  | 'SB_ROUTING_UNREACHABLE'
  | 'SB_ROUTING_ABORTED';

/**
 * A failed routing-engine call, with what a caller needs to report or retry it. The
 * message names the HTTP call and the engine's own message; it never holds credentials.
 */
export class RoutingApiError extends SwitchboardError {
  readonly method: string;
  /** Path without the query string (a `q` can be long; it never carries secrets, but it is noise). */
  readonly path: string;
  /** 0 when no response came. */
  readonly status: number;
  /** The engine's `message` (or a short excerpt of a non-JSON body). */
  readonly serverMessage: string;
  /** True when sending the same request again may succeed (network trouble, 429, 502–504). */
  readonly retryable: boolean;
  /** `_bulk` only: the index of the record the engine rejected, when it says so. */
  readonly index: number | undefined;
  /** The engine's `Retry-After` (429, 503), in ms. */
  readonly retryAfterMs: number | undefined;
  /**
   * A write that may have reached the engine and got no answer (it timed out, the connection
   * broke, or the run stopped waiting for it): it may have been applied. Not the same as not sent.
   */
  readonly outcomeUnknown: boolean;

  constructor(
    code: RoutingErrorCode,
    init: {
      method: string;
      path: string;
      status: number;
      serverMessage: string;
      retryable: boolean;
      index?: number | undefined;
      retryAfterMs?: number | undefined;
      outcomeUnknown?: boolean;
      cause?: unknown;
    },
  ) {
    const status = init.status ? ` → ${init.status}` : '';
    super(
      code,
      `${init.method} ${init.path}${status}: ${init.serverMessage}`,
      init.cause === undefined ? {} : { cause: init.cause },
    );
    this.name = 'RoutingApiError';
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.retryable = init.retryable;
    this.index = init.index;
    this.retryAfterMs = init.retryAfterMs;
    this.outcomeUnknown = init.outcomeUnknown === true;
  }
}

/** The same failure, of a write that may have been applied: sent, and no answer came. */
export function outcomeUnknown(error: RoutingApiError): RoutingApiError {
  return new RoutingApiError(error.code as RoutingErrorCode, {
    method: error.method,
    path: error.path,
    status: error.status,
    serverMessage: `${error.serverMessage}; the request was sent and no answer came: it may have been applied`,
    retryable: false,
    index: error.index,
    retryAfterMs: error.retryAfterMs,
    outcomeUnknown: true,
    cause: error,
  });
}

/**
 * Whether an attempt that got no answer may have reached the engine: everything but a
 * connection that was never made (refused, no such host, a connect timeout, TLS). A request
 * the run stopped waiting for counts as reached: nobody can tell it did not.
 */
export function mayHaveArrived(error: RoutingApiError): boolean {
  if (error.status > 0 || error.code !== 'SB_ROUTING_NETWORK' || !error.retryable) return false;
  for (let cause: unknown = error.cause; cause; cause = (cause as { cause?: unknown }).cause) {
    const code = (cause as { code?: unknown }).code;
    if (isConnectFailure(code)) return false;
  }
  return true;
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}
