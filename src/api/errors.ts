import { SwitchboardError } from '../core/errors.js';

/**
 * Stable codes of the API client's errors. Callers switch on `code`, never on the message.
 *
 * - `SB_API_UNAUTHORIZED`: 401 after one re-authentication, or login/2FA refused.
 * - `SB_API_2FA_UNSUPPORTED`: the platform wants a second factor switchboard cannot supply.
 * - `SB_API_FORBIDDEN`: 403 (missing api_rule or outside the caller's hierarchy).
 * - `SB_API_NOT_FOUND`: 404.
 * - `SB_API_BAD_REQUEST`: 400 or another 4xx without a code of its own.
 * - `SB_API_RATE_LIMITED`: 429 still answered after the retries (or on a POST).
 * - `SB_API_SERVER`: 5xx still answered after the retries.
 * - `SB_API_NETWORK`: connection refused/reset, socket closed, TLS failure.
 * - `SB_API_TIMEOUT`: no complete answer within the request timeout.
 * - `SB_API_ABORTED`: the caller's AbortSignal fired.
 * - `SB_API_BAD_RESPONSE`: malformed JSON, HTML error page, truncated body, wrong shape.
 * - `SB_API_LIST_CHANGED`: a list kept changing while it was read (re-read, then given up).
 * - `SB_API_OUTCOME_UNKNOWN`: a POST whose effect is unknown (no answer, a 5xx, or an
 *   unreadable success body); it is never re-sent: look the object up before creating again.
 */
export const ApiErrorCode = {
  unauthorized: 'SB_API_UNAUTHORIZED',
  twoFactorUnsupported: 'SB_API_2FA_UNSUPPORTED',
  forbidden: 'SB_API_FORBIDDEN',
  notFound: 'SB_API_NOT_FOUND',
  badRequest: 'SB_API_BAD_REQUEST',
  rateLimited: 'SB_API_RATE_LIMITED',
  server: 'SB_API_SERVER',
  network: 'SB_API_NETWORK',
  timeout: 'SB_API_TIMEOUT',
  aborted: 'SB_API_ABORTED',
  badResponse: 'SB_API_BAD_RESPONSE',
  listChanged: 'SB_API_LIST_CHANGED',
  outcomeUnknown: 'SB_API_OUTCOME_UNKNOWN',
} as const;
export type ApiErrorCodeValue = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];

/** What an ApiError is built from. */
export interface ApiErrorInit {
  code: ApiErrorCodeValue;
  method: string;
  /** Request path without the query string (never a token). */
  path: string;
  /** HTTP status, or undefined when no response arrived. */
  status?: number;
  /** The platform's own words (message field of a JSON body, or a short text excerpt). */
  platformMessage?: string;
  /** The role (api_rule name) the endpoint requires, when known. */
  role?: string;
  /** Whether sending the same request again is safe and may succeed. */
  retryable: boolean;
  /** Human explanation placed after the status, e.g. `caller lacks role tenants.create`. */
  detail: string;
  /** Server-requested delay (Retry-After), in ms. */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * A failed platform API call, as a value with a stable `code` and everything needed to act
 * on it. The message reads `POST /api/v01/draas/demo/tenants → 403: caller lacks role
 * tenants.create (platform: "…")`. Messages never contain tokens, passwords or bodies of
 * authentication calls.
 */
export class ApiError extends SwitchboardError {
  override readonly code: ApiErrorCodeValue;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly platformMessage: string | undefined;
  readonly role: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  /** The explanation part of the message, without method, path, status and platform text. */
  readonly detail: string;

  constructor(init: ApiErrorInit) {
    super(init.code, formatApiErrorMessage(init), { cause: init.cause });
    this.name = 'ApiError';
    this.code = init.code;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.platformMessage = init.platformMessage;
    this.role = init.role;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs;
    this.detail = init.detail;
  }
}

function formatApiErrorMessage(init: ApiErrorInit): string {
  const status = init.status === undefined ? 'no response' : String(init.status);
  const platform = init.platformMessage ? ` (platform: ${JSON.stringify(init.platformMessage)})` : '';
  return `${init.method} ${init.path} → ${status}: ${init.detail}${platform}`;
}

/** Maps a final HTTP error status to its code (POST 5xx is handled by the caller). */
export function codeForStatus(status: number): ApiErrorCodeValue {
  if (status === 401) return ApiErrorCode.unauthorized;
  if (status === 403) return ApiErrorCode.forbidden;
  if (status === 404) return ApiErrorCode.notFound;
  if (status === 429) return ApiErrorCode.rateLimited;
  if (status >= 500) return ApiErrorCode.server;
  return ApiErrorCode.badRequest;
}

const MAX_PLATFORM_MESSAGE = 300;

/**
 * Extracts the platform's explanation from an error body. The general error body is not
 * shown in the spec (Doc1 §7), so common field names are tried, then a text excerpt with
 * HTML tags stripped.
 */
export function platformMessageOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    const found = messageField(parsed);
    if (found) return clip(found);
  } catch {
    // not JSON: fall through to the text excerpt
  }
  const plain = trimmed
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain ? clip(plain) : undefined;
}

function messageField(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ['message', 'error_description', 'error', 'reason', 'detail', 'description', 'msg', 'errors']) {
    const field = record[key];
    if (typeof field === 'string' && field) return field;
    if (field && typeof field === 'object') {
      const nested = messageField(field);
      if (nested) return nested;
      return JSON.stringify(field);
    }
  }
  return undefined;
}

function clip(text: string): string {
  return text.length > MAX_PLATFORM_MESSAGE ? `${text.slice(0, MAX_PLATFORM_MESSAGE)}…` : text;
}
