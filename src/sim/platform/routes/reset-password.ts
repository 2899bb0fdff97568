/**
 * Reset password (Document 1 §5.2; the paths and fields are not shown, these are ours):
 * `POST /api/v01/auth/reset_password` `{username | email, ui_id?, ui_language?, proxy?}` always
 * answers 200 (no error for unknown users), mails a link valid 20 minutes, at most once per
 * 5 minutes per user; `POST /api/v01/auth/reset_password/confirm` `{token, password}` sets the
 * password (400 when the token is unknown or expired).
 */
import { randomBytes } from 'node:crypto';
import { badRequest } from '../errors.js';
import { sendMail } from '../mail.js';
import type { RouteModule } from '../router.js';

const RESET_LINK_TTL_MS = 20 * 60 * 1000;
const RESET_MAIL_INTERVAL_MS = 5 * 60 * 1000;

interface ResetTokenRow {
  token: string;
  userId: number;
  expiresAt: number;
  sentAt: number;
}

export const registerResetPasswordRoutes: RouteModule = (router, store) => {
  const resets = store.table<ResetTokenRow>({
    name: 'resetTokens',
    key: (r) => r.token,
    parent: (r) => String(r.userId),
  });
  router.add({
    method: 'POST',
    path: '/api/v01/auth/reset_password',
    role: 'auth.reset_password',
    access: 'public',
    handler: (ctx) => {
      const name = typeof ctx.body['username'] === 'string' ? ctx.body['username'] : undefined;
      const email = typeof ctx.body['email'] === 'string' ? ctx.body['email'].toLowerCase() : undefined;
      const user = name
        ? ctx.store.users.findByName(name)[0]
        : email
          ? ctx.store.users.findBy('email', email)[0]
          : undefined;
      const now = ctx.store.clock.now();
      if (!user?.email) return { status: 200 };
      if (resets.children(String(user.id)).some((r) => now - r.sentAt < RESET_MAIL_INTERVAL_MS)) return { status: 200 };
      const token = randomBytes(24).toString('base64url');
      resets.insert({ token, userId: user.id, expiresAt: now + RESET_LINK_TTL_MS, sentAt: now });
      const uiId = typeof ctx.body['ui_id'] === 'string' ? `.${ctx.body['ui_id']}` : '';
      const proxy = typeof ctx.body['proxy'] === 'string' ? ctx.body['proxy'] : 'https://portal.example.net';
      const link = `${proxy}/reset-password?token=${token}`;
      sendMail(ctx.store, {
        to: user.email,
        template: `mails.reset_password${uiId}.${user.language}`,
        subject: 'Reset your password',
        body: `Follow ${link} within 20 minutes to choose a new password.`,
        data: { token, link, username: user.username },
      });
      return { status: 200 };
    },
  });
  router.add({
    method: 'POST',
    path: '/api/v01/auth/reset_password/confirm',
    role: 'auth.reset_password',
    access: 'public',
    handler: (ctx) => {
      const token = typeof ctx.body['token'] === 'string' ? ctx.body['token'] : '';
      const password = typeof ctx.body['password'] === 'string' ? ctx.body['password'] : '';
      const reset = resets.get(token);
      if (!reset || reset.expiresAt <= ctx.store.clock.now())
        throw badRequest('bad_reset_token', 'the reset link is unknown or expired: ask for a new one');
      if (password.length < 4) throw badRequest('weak_password', 'password must have at least 4 characters');
      ctx.store.users.update(reset.userId, { password, forceReset: false });
      for (const r of resets.children(String(reset.userId))) resets.delete(r.token);
      return { status: 200 };
    },
  });
};
