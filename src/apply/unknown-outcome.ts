import { isConnectFailure } from '../core/never-sent.js';
import { ApiError, ApiErrorCode } from '../api/errors.js';

/**
 * Whether a failed request was a write whose effect is unknown: it was sent, and no answer
 * came (it timed out, the connection broke after it left, a POST's answer was a 5xx or
 * unreadable). It may have been applied: the change is reported as unknown, not as failed
 * outright and never as not sent, and the next plan shows what it did. A connection that
 * was never made (refused, no such host, a connect timeout, TLS) sent nothing.
 */
export function outcomeIsUnknown(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.method === 'GET') return false;
  if (error.code === ApiErrorCode.outcomeUnknown) return true;
  if (error.code !== ApiErrorCode.timeout && error.code !== ApiErrorCode.network) return false;
  for (let cause: unknown = error.cause; cause; cause = (cause as { cause?: unknown }).cause) {
    const code = (cause as { code?: unknown }).code;
    const failure = (cause as { failure?: unknown }).failure;
    if (isConnectFailure(code) || failure === 'tls') return false;
  }
  return true;
}

/**
 * A create whose outcome was unknown, looked up afterwards without an answer either: still
 * unknown (the lookup's own failure must not make it read as a plain read error).
 */
export function stillUnknown(create: ApiError, lookup: unknown): ApiError {
  const why = lookup instanceof Error ? lookup.message : String(lookup);
  return new ApiError({
    code: ApiErrorCode.outcomeUnknown,
    method: create.method,
    path: create.path,
    ...(create.status === undefined ? {} : { status: create.status }),
    retryable: false,
    detail: `${create.detail}; looking the object up afterwards failed too (${why})`,
    cause: create,
  });
}
