/**
 * Authentication endpoints (Document 1 §5.2, §2.1, §3). SSO/SAML and hardware keys are
 * not simulated. Reset password uses paths of our choosing (the spec shows none):
 * `POST /api/v01/auth/reset_password` and `POST /api/v01/auth/reset_password/confirm`.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { closeSession, openSession, refreshSession } from '../auth/sessions.js';
import { verifyTotp } from '../auth/totp.js';
import { badRequest, unauthorized } from '../errors.js';
import { sendMail } from '../mail.js';
import { ok, type RequestContext, type RouteModule } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import type { PendingTwoFactorRow, UserRow } from '../store/types.js';
import { registerResetPasswordRoutes } from './reset-password.js';

const A = '/api/v01/auth';
const TWO_FACTOR_TTL_MS = 5 * 60 * 1000;
const MAX_TWO_FACTOR_ATTEMPTS = 5;

export const registerAuthRoutes: RouteModule = (router, store) => {
  const attempts = new Map<string, number>();
  router.add({ method: 'POST', path: `${A}/login`, role: 'auth.login', access: 'public', handler: login });
  router.add({
    method: 'POST',
    path: `${A}/2fa`,
    role: 'auth.2fa',
    access: 'public',
    handler: (ctx) => secondFactor(ctx, attempts),
  });
  router.add({
    method: 'GET',
    path: `${A}/access_token`,
    role: 'auth.access_token',
    access: 'authenticated',
    token: 'refresh',
    handler: (ctx) => ok(refreshSession(ctx.store, ctx.session!)),
  });
  router.add({
    method: 'GET',
    path: `${A}/log_off`,
    role: 'auth.log_off',
    access: 'authenticated',
    // Status and body not shown: 200 with no body, like logout. An m2m token has no session to end.
    handler: (ctx) => {
      if (ctx.session) closeSession(ctx.store, ctx.session);
      return { status: 200 };
    },
  });
  // Doc 1 §1 convention 4: every call but login, 2FA, SSO, reset password and refresh carries
  // the access token; §3: logout moves an authenticated session ("valid token").
  router.add({
    method: 'POST',
    path: `${A}/logout`,
    role: 'auth.logout',
    access: 'authenticated',
    handler: (ctx) => logout(ctx, str(ctx.body['sign']), str(ctx.body['token'])),
  });
  router.add({
    method: 'GET',
    path: `${A}/logout`,
    role: 'auth.logout',
    access: 'authenticated',
    handler: (ctx) => logout(ctx, ctx.query.get('sign') ?? undefined, ctx.query.get('token') ?? undefined),
  });
  registerResetPasswordRoutes(router, store);
};

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function login(ctx: RequestContext) {
  const username = str(ctx.body['username']);
  const password = str(ctx.body['password']);
  const user = username ? ctx.store.users.findByName(username)[0] : undefined;
  if (!user || user.password === null || user.password !== password)
    throw unauthorized('invalid or unknown credentials');
  const userAgent = String(ctx.req.headers['user-agent'] ?? '');
  const ip = ctx.req.remoteAddress;
  const trusted = user.trustedLocs.some((t) => t.userAgent === userAgent && t.ip === ip);
  // No e-mail: 2FA always (Document 1 §5.1.6). Otherwise only for users with a second factor, from an untrusted source.
  const needed = !user.email || user.alwaysTwoFactor || (user.twoFactor !== 'none' && !trusted);
  if (!needed) return ok(openSession(ctx.store, user));
  const option: 'email' | 'totp' = !user.email ? 'totp' : user.twoFactor === 'totp' ? 'totp' : 'email';
  const pending: PendingTwoFactorRow = {
    payload: `2fa.${randomBytes(24).toString('base64url')}`,
    userId: user.id,
    option,
    expiresAt: ctx.store.clock.now() + TWO_FACTOR_TTL_MS,
    userAgent,
    ip,
  };
  if (option === 'email') {
    pending.code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    sendMail(ctx.store, {
      to: user.email as string,
      template: 'mails.2fa',
      subject: 'Your verification code',
      body: `Your verification code is ${pending.code}. It expires in 5 minutes.`,
      data: { code: pending.code, username: user.username },
    });
  }
  ctx.store.pendingTwoFactor.insert(pending);
  return ok({ '2fa_payload': pending.payload, option });
}

function secondFactor(ctx: RequestContext, attempts: Map<string, number>) {
  const payload = str(ctx.body['2fa_payload']);
  const code = ctx.body['code'] === undefined ? undefined : String(ctx.body['code']);
  if (!payload || !code) throw badRequest('missing_field', '2fa_payload and code are required');
  const pending = ctx.store.pendingTwoFactor.get(payload);
  const user = pending ? ctx.store.users.get(pending.userId) : undefined;
  if (!pending || !user || pending.expiresAt <= ctx.store.clock.now()) {
    if (pending) ctx.store.pendingTwoFactor.delete(payload);
    throw unauthorized('2fa_payload unknown or expired: log in again');
  }
  if (!codeMatches(ctx.store, pending, user, code)) {
    const n = (attempts.get(payload) ?? 0) + 1;
    attempts.set(payload, n);
    if (n >= MAX_TWO_FACTOR_ATTEMPTS) ctx.store.pendingTwoFactor.delete(payload);
    throw unauthorized('invalid second-factor code');
  }
  attempts.delete(payload);
  ctx.store.pendingTwoFactor.delete(payload);
  const trust = ctx.body['trust'] === true || ctx.body['trust'] === 'true';
  if (trust && !user.trustedLocs.some((t) => t.userAgent === pending.userAgent && t.ip === pending.ip)) {
    ctx.store.users.update(user.id, {
      trustedLocs: [
        ...user.trustedLocs,
        { userAgent: pending.userAgent, ip: pending.ip, createdOn: ctx.store.clock.isoNow() },
      ],
    });
  }
  return ok(openSession(ctx.store, user));
}

/**
 * TOTP codes are checked against the sim clock and the wall clock (±1 step each): clients
 * compute codes from the wall clock, while tests may have moved the sim clock ahead.
 */
function codeMatches(store: PlatformStore, pending: PendingTwoFactorRow, user: UserRow, code: string): boolean {
  if (pending.option === 'email') return pending.code === code;
  if (!user.totpSecret) return false;
  return verifyTotp(user.totpSecret, code, store.clock.now()) || verifyTotp(user.totpSecret, code, Date.now());
}

/** Unknown tokens succeed too: the tokens are invalid afterwards either way. */
function logout(ctx: RequestContext, sign: string | undefined, token: string | undefined) {
  if (!sign && !token)
    throw badRequest(
      'missing_field',
      'sign (SHA-256 hex of the refresh token) or token (the refresh token) is required',
    );
  const session = sign
    ? ctx.store.sessions.findBy('sign', sign.toLowerCase())[0]
    : ctx.store.sessions.findBy('refresh', token as string)[0];
  if (session) closeSession(ctx.store, session);
  return { status: 200 };
}
