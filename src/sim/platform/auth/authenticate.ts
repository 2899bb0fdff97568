/**
 * The auth middleware: resolves the bearer of a request to a user. Access tokens and
 * machine-to-machine tokens (Document 1 §2.1: "usable as access token") open routes that
 * expect an access token; the refresh token opens only `GET auth/access_token`. Unknown
 * or expired tokens are 401 (Document 1 §7).
 */
import { unauthorized } from '../errors.js';
import type { SimRequest } from '../../http.js';
import type { PlatformStore } from '../store/store.js';
import type { SessionRow, UserRow } from '../store/types.js';

export interface Caller {
  user: UserRow;
  /** Absent for machine-to-machine tokens. */
  session?: SessionRow;
}

function bearerOf(req: SimRequest): string | undefined {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export function authenticate(store: PlatformStore, req: SimRequest, kind: 'access' | 'refresh'): Caller {
  const token = bearerOf(req);
  if (!token) throw unauthorized('missing bearer token: send Authorization: Bearer <access token>');
  const now = store.clock.now();
  if (kind === 'refresh') {
    const session = store.sessions.findBy('refresh', token)[0];
    if (!session || session.refreshExpiresAt <= now)
      throw unauthorized('refresh token unknown or expired: log in again');
    return withUser(store, session);
  }
  const session = store.sessions.findBy('access', token)[0];
  if (session) {
    if (session.accessExpiresAt <= now)
      throw unauthorized('access token expired: renew it with GET /api/v01/auth/access_token');
    return withUser(store, session);
  }
  const m2mUser = store.users.findBy('m2m', token)[0];
  if (m2mUser) return { user: m2mUser };
  throw unauthorized('access token unknown or invalidated: log in again');
}

function withUser(store: PlatformStore, session: SessionRow): Caller {
  const user = store.users.get(session.userId);
  if (!user) throw unauthorized('the user of this token no longer exists');
  return { user, session };
}
