import { createHash } from 'node:crypto';
import type { Logger } from '../core/logger.js';
import { registerSecret } from '../core/secrets.js';
import { ApiError, ApiErrorCode, codeForStatus } from './errors.js';
import { isJsonObject } from './normalize.js';
import { totp } from './totp.js';
import { isTokenAuth, type AuthConfig, type PasswordAuth } from './types.js';

const AUTH_PATHS = {
  login: '/api/v01/auth/login',
  twoFactor: '/api/v01/auth/2fa',
  refresh: '/api/v01/auth/access_token',
  logout: '/api/v01/auth/logout',
} as const;

/** One authentication call; bodies of these calls are never logged. */
export interface AuthCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  bearer?: string;
  timeoutMs?: number;
  /** Sent even after the client was cancelled: the logout at close ends the session either way. */
  afterCancel?: true;
}

export interface AuthAnswer {
  status: number;
  /** Parsed JSON body, or undefined when empty or not JSON. */
  json: unknown;
  text: string;
}

/** Sends an auth call (retrying transport failures); rejects only with an ApiError. */
export type AuthSender = (call: AuthCall) => Promise<AuthAnswer>;

export interface TokenManagerOptions {
  accessTokenTtlMs: number;
  refreshMarginMs: number;
  refreshTokenTtlMs: number;
  monotonicNow: () => number;
  wallNow: () => number;
  logger: Logger;
}

/** How a caller logs in: a machine-to-machine token, a password, or a password and a TOTP code. */
export type LoginKind = 'token' | 'password' | 'totp';

interface Tokens {
  access: string;
  refresh: string;
  /** Monotonic time at which the request that produced the access token was sent. */
  accessIssuedAt: number;
  refreshIssuedAt: number;
}

/**
 * Holds the caller's tokens (Doc1 §5). Password auth logs in lazily, answers the `totp`
 * second factor from the configured secret, renews the access token when less than the
 * margin is left (or after a 401), and logs in again when the refresh token is refused.
 * Concurrent callers share one in-flight login or refresh. Machine tokens are used as
 * they are: no login, no refresh, no logout.
 */
export class TokenManager {
  private tokens: Tokens | undefined;
  private inflight: Promise<Tokens> | undefined;
  private renewals = 0;
  private answeredTotp = false;

  constructor(
    private readonly auth: AuthConfig,
    private readonly send: AuthSender,
    private readonly options: TokenManagerOptions,
  ) {
    if (isTokenAuth(auth)) registerSecret(auth.token);
    else {
      registerSecret(auth.password);
      registerSecret(auth.totpSecret);
    }
  }

  /** Number of logins and refreshes after the first login. */
  get renewalCount(): number {
    return this.renewals;
  }

  /**
   * How the caller proved who it is, for the journal's run record: a machine-to-machine
   * token, a password, or a password and a TOTP code (once a login asked for one).
   */
  get loginKind(): LoginKind {
    if (isTokenAuth(this.auth)) return 'token';
    return this.answeredTotp ? 'totp' : 'password';
  }

  /** A bearer token valid for at least the refresh margin. */
  async accessToken(): Promise<string> {
    if (isTokenAuth(this.auth)) return this.auth.token;
    if (this.inflight) return (await this.inflight).access;
    const tokens = this.tokens;
    if (!tokens) return (await this.single(() => this.login())).access;
    const age = this.options.monotonicNow() - tokens.accessIssuedAt;
    if (age >= this.options.accessTokenTtlMs - this.options.refreshMarginMs) {
      return (await this.single(() => this.refreshOrLogin(tokens))).access;
    }
    return tokens.access;
  }

  /**
   * Called after a 401 answered to `rejected`. Returns a fresh token to retry with, or
   * undefined when there is nothing to renew (machine token).
   */
  async renewAfterUnauthorized(rejected: string): Promise<string | undefined> {
    if (isTokenAuth(this.auth)) return undefined;
    if (this.inflight) return (await this.inflight).access;
    const tokens = this.tokens;
    if (tokens && tokens.access !== rejected) return tokens.access;
    return (await this.single(() => (tokens ? this.refreshOrLogin(tokens) : this.login()))).access;
  }

  /**
   * Invalidates the tokens (`POST /auth/logout` with `sign`, the access token as bearer: Doc 1
   * §1, convention 4, excepts login, 2FA, SSO, reset password and refresh only); failures are
   * only logged. Only a token still valid is used: getting a fresh one at exit would cost a
   * refresh, or a login and a second factor, to end a session that is over, and could hold the
   * exit as long as they take. An expired access token leaves the refresh token to expire on
   * its own (Doc 1 §8: 48 hours).
   */
  async logout(timeoutMs = 5_000): Promise<void> {
    const tokens = this.tokens;
    this.tokens = undefined;
    if (!tokens || isTokenAuth(this.auth)) return;
    const ageMs = this.options.monotonicNow() - tokens.accessIssuedAt;
    if (ageMs >= this.options.accessTokenTtlMs) {
      this.options.logger.debug(
        { ageMs: Math.round(ageMs) },
        'logout skipped: the access token has expired; the refresh token expires on its own',
      );
      return;
    }
    try {
      const sign = createHash('sha256').update(tokens.refresh).digest('hex');
      const answer = await this.send({
        method: 'POST',
        path: AUTH_PATHS.logout,
        body: { sign },
        bearer: tokens.access,
        timeoutMs,
        afterCancel: true,
      });
      if (answer.status >= 300)
        this.options.logger.warn({ status: answer.status }, 'logout was not accepted; tokens expire on their own');
    } catch (error) {
      this.options.logger.warn({ code: (error as ApiError).code }, 'logout failed; tokens expire on their own');
    }
  }

  private async single(run: () => Promise<Tokens>): Promise<Tokens> {
    const pending = run().then(
      (tokens) => {
        this.tokens = tokens;
        return tokens;
      },
      (error: unknown) => {
        this.tokens = undefined;
        throw error;
      },
    );
    this.inflight = pending.finally(() => {
      if (this.inflight === shared) this.inflight = undefined;
    });
    const shared = this.inflight;
    return shared;
  }

  private async refreshOrLogin(tokens: Tokens): Promise<Tokens> {
    this.renewals += 1;
    const now = this.options.monotonicNow();
    if (now - tokens.refreshIssuedAt >= this.options.refreshTokenTtlMs - this.options.refreshMarginMs)
      return this.login();
    const answer = await this.send({ method: 'GET', path: AUTH_PATHS.refresh, bearer: tokens.refresh });
    if (answer.status >= 200 && answer.status < 300) {
      const body = isJsonObject(answer.json) ? answer.json : {};
      const access = body['access_token'];
      if (typeof access !== 'string' || !access)
        throw badAuthAnswer('GET', AUTH_PATHS.refresh, answer.status, 'the refresh answer carries no access_token');
      registerSecret(access);
      const refresh =
        typeof body['refresh_token'] === 'string' && body['refresh_token']
          ? registerSecret(body['refresh_token'])
          : tokens.refresh;
      return {
        access,
        refresh,
        accessIssuedAt: now,
        refreshIssuedAt: refresh === tokens.refresh ? tokens.refreshIssuedAt : now,
      };
    }
    if (answer.status === 401 || answer.status === 403 || answer.status === 400) {
      this.options.logger.info({ status: answer.status }, 'refresh token refused; logging in again');
      return this.login();
    }
    throw authFailure('GET', AUTH_PATHS.refresh, answer, 'token refresh failed');
  }

  private async login(): Promise<Tokens> {
    const auth = this.auth as PasswordAuth;
    const issuedAt = this.options.monotonicNow();
    const answer = await this.send({
      method: 'POST',
      path: AUTH_PATHS.login,
      body: { username: auth.username, password: auth.password },
    });
    if (answer.status === 401) {
      throw authFailure(
        'POST',
        AUTH_PATHS.login,
        answer,
        `login refused for user ${JSON.stringify(auth.username)}: invalid or unknown credentials`,
      );
    }
    if (answer.status < 200 || answer.status >= 300)
      throw authFailure('POST', AUTH_PATHS.login, answer, 'login failed');
    const body = isJsonObject(answer.json) ? answer.json : undefined;
    if (!body) throw badAuthAnswer('POST', AUTH_PATHS.login, answer.status, 'the login answer is not a JSON object');
    const tokens = tokensOf(body, issuedAt);
    if (tokens) return tokens;
    const payload = body['2fa_payload'];
    if (typeof payload !== 'string' || !payload) {
      throw badAuthAnswer(
        'POST',
        AUTH_PATHS.login,
        answer.status,
        'the login answer carries neither tokens nor 2fa_payload',
      );
    }
    registerSecret(payload);
    return this.secondFactor(auth, payload, typeof body['option'] === 'string' ? body['option'] : 'unknown');
  }

  private async secondFactor(auth: PasswordAuth, payload: string, option: string): Promise<Tokens> {
    const user = JSON.stringify(auth.username);
    if (option === 'email') {
      throw twoFactorUnsupported(
        `user ${user} must confirm the login with a code sent by e-mail, which switchboard cannot read; ` +
          'switch the user to an authenticator (TOTP) second factor and set auth.totpSecret (SWITCHBOARD_TOTP_SECRET), ' +
          "or use the user's machine-to-machine token (auth.token / SWITCHBOARD_TOKEN)",
      );
    }
    if (!auth.totpSecret) {
      throw twoFactorUnsupported(
        `user ${user} must confirm the login with a second factor (${option}); set auth.totpSecret (SWITCHBOARD_TOTP_SECRET) ` +
          "to the base32 secret of the user's authenticator, or use a machine-to-machine token (auth.token / SWITCHBOARD_TOKEN)",
      );
    }
    const issuedAt = this.options.monotonicNow();
    const code = totp(auth.totpSecret, this.options.wallNow());
    const answer = await this.send({
      method: 'POST',
      path: AUTH_PATHS.twoFactor,
      body: { '2fa_payload': payload, code, trust: true },
    });
    if (answer.status < 200 || answer.status >= 300) {
      throw authFailure(
        'POST',
        AUTH_PATHS.twoFactor,
        answer,
        `the TOTP code for user ${user} was refused: check auth.totpSecret and the machine's clock`,
      );
    }
    const tokens = isJsonObject(answer.json) ? tokensOf(answer.json, issuedAt) : undefined;
    if (!tokens) throw badAuthAnswer('POST', AUTH_PATHS.twoFactor, answer.status, 'the 2FA answer carries no tokens');
    this.answeredTotp = true;
    return tokens;
  }
}

function tokensOf(body: Record<string, unknown>, issuedAt: number): Tokens | undefined {
  const access = body['access_token'];
  const refresh = body['refresh_token'];
  if (typeof access !== 'string' || !access || typeof refresh !== 'string' || !refresh) return undefined;
  registerSecret(access);
  registerSecret(refresh);
  // Doc 1 §5.2: a user with a machine-to-machine token gets it in the login answer as well; it is
  // unused here, but as long-lived a credential as a password.
  if (typeof body['token'] === 'string') registerSecret(body['token']);
  return { access, refresh, accessIssuedAt: issuedAt, refreshIssuedAt: issuedAt };
}

/**
 * The platform's own words are left out: an authentication call's answer may quote its
 * request (the password, the 2FA payload, the refresh token), and no output may show it.
 */
function authFailure(method: string, path: string, answer: AuthAnswer, detail: string): ApiError {
  const code =
    answer.status === 400 || answer.status === 403 ? ApiErrorCode.unauthorized : codeForStatus(answer.status);
  return new ApiError({
    code,
    method,
    path,
    status: answer.status,
    retryable: answer.status >= 500,
    detail,
  });
}

function badAuthAnswer(method: string, path: string, status: number, detail: string): ApiError {
  return new ApiError({ code: ApiErrorCode.badResponse, method, path, status, retryable: false, detail });
}

function twoFactorUnsupported(detail: string): ApiError {
  return new ApiError({
    code: ApiErrorCode.twoFactorUnsupported,
    method: 'POST',
    path: AUTH_PATHS.login,
    status: 200,
    retryable: false,
    detail,
  });
}
