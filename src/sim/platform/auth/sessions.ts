/**
 * Token bookkeeping (Document 1 §2.1, §3, §8). A session holds one access token (2 minutes)
 * and one refresh token (48 hours) on the sim clock. Refreshing issues a new access token;
 * a new refresh token only when the old one has less than {@link REFRESH_RENEW_WINDOW_MS}
 * left (design decision: the spec says "about to expire"). Logging off deletes the session.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { PlatformStore } from '../store/store.js';
import type { SessionRow, UserRow } from '../store/types.js';

const ACCESS_TTL_MS = 2 * 60 * 1000;
const REFRESH_TTL_MS = 48 * 60 * 60 * 1000;
const REFRESH_RENEW_WINDOW_MS = 60 * 60 * 1000;

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token?: string;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function newToken(prefix: string): string {
  return `${prefix}.${randomBytes(24).toString('base64url')}`;
}

export function openSession(store: PlatformStore, user: UserRow): TokenPair {
  const now = store.clock.now();
  const refreshToken = newToken('rt');
  const session = store.sessions.insert({
    id: store.newUuid(),
    userId: user.id,
    accessToken: newToken('at'),
    accessExpiresAt: now + ACCESS_TTL_MS,
    refreshToken,
    refreshExpiresAt: now + REFRESH_TTL_MS,
    refreshSign: sha256Hex(refreshToken),
    createdOn: store.clock.isoNow(),
  });
  return pairOf(session, user);
}

/** Login and 2FA answers carry the m2m `token` when the user has one. */
function pairOf(session: SessionRow, user: UserRow): TokenPair {
  return {
    access_token: session.accessToken,
    refresh_token: session.refreshToken,
    ...(user.m2mToken ? { token: user.m2mToken } : {}),
  };
}

export function refreshSession(
  store: PlatformStore,
  session: SessionRow,
): { access_token: string; refresh_token: string } {
  const now = store.clock.now();
  const changes: Partial<SessionRow> = { accessToken: newToken('at'), accessExpiresAt: now + ACCESS_TTL_MS };
  if (session.refreshExpiresAt - now < REFRESH_RENEW_WINDOW_MS) {
    const refreshToken = newToken('rt');
    Object.assign(changes, {
      refreshToken,
      refreshExpiresAt: now + REFRESH_TTL_MS,
      refreshSign: sha256Hex(refreshToken),
    });
  }
  const updated = store.sessions.update(session.id, changes) as SessionRow;
  return { access_token: updated.accessToken, refresh_token: updated.refreshToken };
}

export function closeSession(store: PlatformStore, session: SessionRow): void {
  store.sessions.delete(session.id);
}
