import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import { totp } from '../../src/api/totp.js';

/**
 * A small stand-in for the platform, over real HTTP on loopback, playing the documented
 * auth behaviour (Doc1 §5): 2-minute access tokens, refresh, 2FA, logout with `sign`, and
 * 401 on an expired or unknown bearer. Tests add their own routes with `on`.
 */
export interface FakeUser {
  password: string;
  totpSecret?: string;
  /** Second factor demanded at every login. */
  secondFactor?: 'email' | 'totp';
  m2mToken?: string;
  rules?: Array<Record<string, unknown>>;
  instance?: string;
}

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  bearer?: string;
  body: unknown;
}

type Handler = (req: Seen, res: ServerResponse, match: RegExpMatchArray) => void | Promise<void>;

export class FakePlatform {
  readonly users = new Map<string, FakeUser>();
  readonly seen: Seen[] = [];
  readonly logouts: string[] = [];
  /** Server clock offset in seconds (the fake's own "advance the clock"). */
  clockSeconds = 0;
  accessTtlSeconds = 120;
  refreshValid = true;
  /** When set, a refresh is answered 503 with this Retry-After (seconds). */
  refreshBusyFor: number | undefined;
  /** Awaited before the profile (`GET /system/users/local`) is answered; `profileBody` replaces its answer. */
  beforeProfile: (() => Promise<void>) | undefined;
  profileBody: unknown;
  private readonly access = new Map<string, { user: string; issued: number }>();
  private readonly refresh = new Map<string, string>();
  private readonly routes: Array<{ method: string; pattern: RegExp; handler: Handler; auth: boolean }> = [];
  private server: Server | undefined;
  url = '';

  constructor() {
    this.users.set('admin', {
      password: 'admin',
      rules: [
        { method: 'get', url: '.*', name: 'all.get' },
        { method: 'post', url: '.*', name: 'all.post' },
        { method: 'put', url: '.*', name: 'all.put' },
        { method: 'delete', url: '.*', name: 'all.delete' },
      ],
    });
  }

  on(method: string, pattern: RegExp, handler: Handler, options: { auth?: boolean } = {}): this {
    this.routes.unshift({ method, pattern, handler, auth: options.auth ?? true });
    return this;
  }

  count(method: string, pattern: RegExp): number {
    return this.seen.filter((s) => s.method === method && pattern.test(s.path)).length;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private now(): number {
    return Date.now() / 1000 + this.clockSeconds;
  }

  private issue(user: string): { access_token: string; refresh_token: string } {
    const access = `acc-${randomUUID()}`;
    const refresh = `ref-${randomUUID()}`;
    this.access.set(access, { user, issued: this.now() });
    this.refresh.set(refresh, user);
    return { access_token: access, refresh_token: refresh };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    const header = req.headers.authorization;
    const seen: Seen = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
    if (header?.startsWith('Bearer ')) seen.bearer = header.slice(7);
    this.seen.push(seen);
    if (this.auth(seen, res)) return;
    for (const route of this.routes) {
      const match = route.method === seen.method ? seen.path.match(route.pattern) : null;
      if (!match) continue;
      if (route.auth && !this.userOf(seen.bearer)) return json(res, 401, { message: 'token expired or invalid' });
      return route.handler(seen, res, match);
    }
    json(res, 404, { message: 'no such path' });
  }

  userOf(bearer: string | undefined): string | undefined {
    if (!bearer) return undefined;
    for (const [name, user] of this.users) if (user.m2mToken && user.m2mToken === bearer) return name;
    const entry = this.access.get(bearer);
    if (!entry || this.now() - entry.issued >= this.accessTtlSeconds) return undefined;
    return entry.user;
  }

  /** The auth endpoints and the profile. Returns true when it answered. */
  private auth(seen: Seen, res: ServerResponse): boolean {
    const body = (seen.body ?? {}) as Record<string, unknown>;
    if (seen.method === 'POST' && seen.path === '/api/v01/auth/login') {
      const user = this.users.get(String(body['username']));
      if (!user || user.password !== body['password'])
        return (json(res, 401, { message: 'invalid credentials' }), true);
      if (user.secondFactor)
        return (json(res, 200, { '2fa_payload': `pl-${String(body['username'])}`, option: user.secondFactor }), true);
      // Doc 1 §5.2: plus `token` when the user has a machine-to-machine token.
      const token = user.m2mToken ? { token: user.m2mToken } : {};
      return (json(res, 200, { ...this.issue(String(body['username'])), ...token }), true);
    }
    if (seen.method === 'POST' && seen.path === '/api/v01/auth/2fa') {
      const name = String(body['2fa_payload']).replace(/^pl-/, '');
      const user = this.users.get(name);
      if (!user?.totpSecret || body['code'] !== totp(user.totpSecret) || body['trust'] !== true)
        return (json(res, 401, { message: 'bad code' }), true);
      return (json(res, 200, this.issue(name)), true);
    }
    if (seen.method === 'GET' && seen.path === '/api/v01/auth/access_token') {
      if (this.refreshBusyFor !== undefined) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': String(this.refreshBusyFor) });
        res.end(JSON.stringify({ message: 'busy' }));
        return true;
      }
      const user = seen.bearer ? this.refresh.get(seen.bearer) : undefined;
      if (!user || !this.refreshValid) return (json(res, 401, { message: 'refresh token expired' }), true);
      const fresh = this.issue(user);
      return (json(res, 200, { access_token: fresh.access_token, refresh_token: seen.bearer }), true);
    }
    if (seen.method === 'POST' && seen.path === '/api/v01/auth/logout') {
      const sign = String(body['sign']);
      for (const refresh of this.refresh.keys())
        if (createHash('sha256').update(refresh).digest('hex') === sign) this.logouts.push(refresh);
      res.writeHead(200, { 'content-length': 0 }).end();
      return true;
    }
    if (seen.method === 'GET' && seen.path === '/api/v01/system/users/local') {
      const name = this.userOf(seen.bearer);
      if (!name) return (json(res, 401, { message: 'token expired' }), true);
      if (this.beforeProfile || this.profileBody !== undefined) {
        const gate = this.beforeProfile;
        this.beforeProfile = undefined;
        void (gate ? gate() : Promise.resolve()).then(() =>
          this.profileBody === undefined ? this.auth(seen, res) : json(res, 200, this.profileBody),
        );
        return true;
      }
      const user = this.users.get(name)!;
      json(res, 200, {
        id: 7,
        username: name,
        first_name: 'Ada',
        lastname: 'Lovelace',
        mobilenumber: 3212345,
        properties: { draas_instance: user.instance ?? 'demo' },
        is_system: true,
        profile: { id: '1', name: 'system', api_rules: user.rules ?? [] },
      });
      return true;
    }
    return false;
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
