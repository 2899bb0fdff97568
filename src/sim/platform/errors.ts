/**
 * Errors of the simulated platform API. Document 1 §7 gives the statuses but not the body
 * ("the general error body … not shown"); the simulator answers every error with
 *
 * ```json
 * {"error": {"status": 403, "code": "forbidden", "message": "…", "role": "groups.list"}}
 * ```
 *
 * `code` is a stable lower-snake word, `message` says what to do, and extra fields (such as
 * `role` on an api_rules refusal) are added where they help the caller.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  body(): { error: Record<string, unknown> } {
    return { error: { status: this.status, code: this.code, message: this.message, ...this.details } };
  }
}

export const badRequest = (code: string, message: string, details?: Record<string, unknown>): ApiError =>
  new ApiError(400, code, message, details);
export const unauthorized = (message: string): ApiError => new ApiError(401, 'unauthorized', message);
export const forbidden = (message: string, details?: Record<string, unknown>): ApiError =>
  new ApiError(403, 'forbidden', message, details);
export const notFound = (message: string): ApiError => new ApiError(404, 'not_found', message);
