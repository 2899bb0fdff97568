/**
 * The platform API client. See docs/connecting.md "How the API client behaves" for behaviour (auth, retries,
 * pagination, errors) and the design decisions behind it.
 */
export { ApiClient, type ApiPaths } from './client.js';
export { clientOptionsFor, type ClientTuning } from './connect-options.js';
export { ApiError, type ApiErrorCodeValue } from './errors.js';
export { Permissions, compileRuleUrl, type PermissionCheck } from './permissions.js';
export { normalizeProfile, type AdminOf, type ApiRule, type UserProfile } from './profile.js';
export { firstOf, pageNumber, toBoolean, toId, toInteger, toNumber, type JsonObject } from './normalize.js';
export { formatStats, routePattern } from './stats.js';
export { totp } from './totp.js';
export { parseRetryAfter } from './retry.js';
export { type ConcurrencyReport } from './adaptive-concurrency.js';
export { slotsOf, type ConcurrencySetting } from './limiter.js';
export type {
  ApiClientOptions,
  AuthConfig,
  ClientStats,
  HttpMethod,
  PasswordAuth,
  Query,
  QueryValue,
  RetryOptions,
  RouteStats,
  TokenAuth,
} from './types.js';
