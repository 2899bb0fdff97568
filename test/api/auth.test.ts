import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../src/api/index.js';
import { FakePlatform, json } from './fake-platform.js';

const SECRET = 'JBSWY3DPEHPK3PXP';
let fake: FakePlatform;
const clients: ApiClient[] = [];

beforeEach(async () => {
  fake = await new FakePlatform().start();
  fake.on('GET', /^\/api\/v01\/draas\/demo\/tenants$/, (_req, res) => json(res, 200, { tenants: [] }));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await fake.stop();
});

async function connect(options: Partial<Parameters<typeof ApiClient.connect>[0]> = {}): Promise<ApiClient> {
  const client = await ApiClient.connect({
    baseUrl: fake.url,
    auth: { username: 'admin', password: 'admin' },
    retry: { baseDelayMs: 5 },
    ...options,
  });
  clients.push(client);
  return client;
}

const logins = (): number => fake.count('POST', /\/auth\/login$/);
const refreshes = (): number => fake.count('GET', /\/auth\/access_token$/);

describe('authentication', () => {
  it('Doc1 §5.2: logs in with username and password and reads the profile once; P comes from properties.draas_instance', async () => {
    const client = await connect();
    expect(client.paths.P).toBe('/api/v01/draas/demo');
    await client.request({ method: 'GET', path: `${client.paths.P}/tenants` });
    expect(logins()).toBe(1);
    expect(fake.count('GET', /users\/local$/)).toBe(1);
    const profile = await client.profile();
    expect(profile).toMatchObject({
      username: 'admin',
      firstName: 'Ada',
      lastName: 'Lovelace',
      mobileNumber: '3212345',
      draasInstance: 'demo',
    });
    expect(fake.count('GET', /users\/local$/)).toBe(1);
    expect(client.login).toEqual({ username: 'admin', kind: 'password' });
  });

  it('Doc1 §5.2: refused credentials fail with SB_API_UNAUTHORIZED and never echo the password', async () => {
    const error = await connect({ auth: { username: 'admin', password: 'hunter2-secret' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('SB_API_UNAUTHORIZED');
    expect((error as ApiError).message).toContain('POST /api/v01/auth/login → 401: login refused for user "admin"');
    expect((error as ApiError).message).not.toContain('hunter2');
  });

  it('Doc1 §5.2: answers the totp second factor from the configured secret with trust: true', async () => {
    fake.users.set('totpuser', { password: 'totpuser', totpSecret: SECRET, secondFactor: 'totp' });
    const client = await connect({ auth: { username: 'totpuser', password: 'totpuser', totpSecret: SECRET } });
    await client.request({ method: 'GET', path: `${client.paths.P}/tenants` });
    const twoFa = fake.seen.find((s) => s.path === '/api/v01/auth/2fa');
    expect(twoFa?.body).toMatchObject({ '2fa_payload': 'pl-totpuser', trust: true });
    expect(String((twoFa?.body as { code: string }).code)).toMatch(/^\d{6}$/);
    // The journal's run record says how the actor proved who it is.
    expect(client.login).toEqual({ username: 'totpuser', kind: 'totp' });
  });

  it('Doc1 §5.1: an e-mailed second factor fails clearly, pointing at totpSecret and machine tokens', async () => {
    fake.users.set('mailuser', { password: 'mailuser', secondFactor: 'email' });
    const error = (await connect({ auth: { username: 'mailuser', password: 'mailuser' } }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error.code).toBe('SB_API_2FA_UNSUPPORTED');
    expect(error.message).toMatch(/e-mail/);
    expect(error.message).toMatch(/totpSecret/);
    expect(error.message).toMatch(/machine-to-machine token/);
  });

  it('Doc1 §5.1: a totp second factor without a configured secret says to set totpSecret', async () => {
    fake.users.set('totpuser', { password: 'totpuser', totpSecret: SECRET, secondFactor: 'totp' });
    const error = (await connect({ auth: { username: 'totpuser', password: 'totpuser' } }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error.code).toBe('SB_API_2FA_UNSUPPORTED');
    expect(error.message).toContain('SWITCHBOARD_TOTP_SECRET');
  });

  it('Doc1 §2.1: a machine-to-machine token is the bearer: no login, no refresh, no logout', async () => {
    fake.users.set('m2m', { password: 'x', m2mToken: 'm2m-static-token-0001' });
    let now = 0;
    const client = await connect({ auth: { token: 'm2m-static-token-0001' }, monotonicNow: () => now });
    now = 10 * 60_000;
    await client.request({ method: 'GET', path: `${client.paths.P}/tenants` });
    await client.close();
    expect(logins()).toBe(0);
    expect(refreshes()).toBe(0);
    expect(fake.count('POST', /\/auth\/logout$/)).toBe(0);
    expect(fake.seen.at(-1)?.bearer).toBe('m2m-static-token-0001');
    expect(client.login.kind).toBe('token');
  });

  it('Doc1 §8: renews the access token when less than 20 s of its 2 minutes are left, before sending', async () => {
    let now = 1000;
    const client = await connect({ monotonicNow: () => now });
    now += 99_000;
    await client.request({ method: 'GET', path: `${client.paths.P}/tenants` });
    expect(refreshes()).toBe(0);
    now += 2_000; // 101 s old: 19 s left
    await client.request({ method: 'GET', path: `${client.paths.P}/tenants` });
    expect(refreshes()).toBe(1);
    const refresh = fake.seen.find((s) => s.path === '/api/v01/auth/access_token');
    expect(refresh?.bearer).toMatch(/^ref-/);
    expect(fake.seen.at(-1)?.path).toBe('/api/v01/draas/demo/tenants');
    expect(client.stats().tokenRenewals).toBe(1);
  });

  it('Doc1 §5.2: a 401 renews the token once and repeats the request; concurrent requests share one refresh', async () => {
    const client = await connect();
    fake.clockSeconds += 150; // the server sees every access token expired
    const results = await Promise.all(
      Array.from({ length: 10 }, () => client.request({ method: 'GET', path: `${client.paths.P}/tenants` })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(refreshes()).toBe(1);
    expect(client.stats().reauthentications).toBeGreaterThanOrEqual(8); // requests that got a slot after the refresh never saw a 401
  });

  it('Doc1 §5.2: a POST answered 401 was not executed, so it is sent again with the fresh token', async () => {
    fake.on('POST', /\/tenants$/, (_req, res) => json(res, 200, { uuid: 'new' }));
    const client = await connect();
    fake.clockSeconds += 150;
    const response = await client.request<{ uuid: string }>({
      method: 'POST',
      path: `${client.paths.P}/tenants`,
      body: { name: 'a' },
    });
    expect(response.body.uuid).toBe('new');
    expect(fake.count('POST', /\/tenants$/)).toBe(2);
  });

  it('concurrent requests past the refresh margin wait on a single refresh', async () => {
    let now = 0;
    const client = await connect({ monotonicNow: () => now });
    now = 110_000;
    await Promise.all(
      Array.from({ length: 8 }, () => client.request({ method: 'GET', path: `${client.paths.P}/tenants` })),
    );
    expect(refreshes()).toBe(1);
    expect(logins()).toBe(1);
  });

  it('Doc1 §5.2: when the refresh token is refused, logs in again with the credentials', async () => {
    const client = await connect();
    fake.clockSeconds += 150;
    fake.refreshValid = false;
    const response = await client.request({ method: 'GET', path: `${client.paths.P}/tenants` });
    expect(response.status).toBe(200);
    expect(refreshes()).toBe(1);
    expect(logins()).toBe(2);
  });

  it('a 401 that survives a fresh token fails with SB_API_UNAUTHORIZED after exactly one re-authentication', async () => {
    fake.on('GET', /\/always-401$/, (_req, res) => json(res, 401, { message: 'nope' }));
    const client = await connect();
    const error = (await client
      .request({ method: 'GET', path: '/api/v01/always-401' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('SB_API_UNAUTHORIZED');
    expect(fake.count('GET', /always-401$/)).toBe(2);
  });

  it('a token that expires again while the request waits out a server error is renewed again', async () => {
    const answers = [401, 500, 401, 200];
    fake.on('GET', /\/expires-twice$/, (_req, res) => json(res, answers.shift() ?? 200, { ok: true }));
    const client = await connect();
    const response = await client.request({ method: 'GET', path: '/api/v01/expires-twice' });
    expect(response.status).toBe(200);
    expect(fake.count('GET', /expires-twice$/)).toBe(4);
    expect(client.stats().reauthentications).toBe(2);
  });

  it('renews at most three times for one request, each after another answer; a 401 right after a renewal ends it', async () => {
    fake.on('GET', /\/keeps-expiring$/, (_req, res) => {
      const n = fake.count('GET', /keeps-expiring$/);
      json(res, n % 2 === 1 ? 401 : 500, { message: 'nope' });
    });
    const client = await connect({ retry: { baseDelayMs: 1, retries: 10 } });
    const error = (await client
      .request({ method: 'GET', path: '/api/v01/keeps-expiring' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('SB_API_UNAUTHORIZED');
    // 401 (renewal 1), 500, 401 (renewal 2), 500, 401 (renewal 3), 500, 401: refused.
    expect(fake.count('GET', /keeps-expiring$/)).toBe(7);
    expect(client.stats().reauthentications).toBe(3);
  });

  it('Doc1 §5.2: logout at close sends sign = SHA-256 hex of the refresh token, and tolerates failure', async () => {
    const client = await connect();
    clients.pop();
    await client.close();
    expect(fake.logouts).toHaveLength(1);
    const logout = fake.seen.find((s) => s.path === '/api/v01/auth/logout');
    expect((logout?.body as { sign: string }).sign).toBe(createHash('sha256').update(fake.logouts[0]!).digest('hex'));
    // With the access token as bearer: Doc 1 §1 convention 4 does not except logout.
    expect(logout?.bearer).toMatch(/\S/);
    await client.close(); // idempotent

    const other = await connect();
    clients.pop();
    await fake.stop();
    await expect(other.close()).resolves.toBeUndefined();
    fake = await new FakePlatform().start();
  });

  it('Doc1 §8: logout uses the access token it holds while valid, never renewing it to log out', async () => {
    let now = 0;
    const client = await connect({ monotonicNow: () => now });
    clients.pop();
    const bearer = fake.seen.find((s) => s.path === '/api/v01/system/users/local')?.bearer;
    // 110 s: inside the 2 minutes, but past the 20 s margin at which a request would renew it.
    now = 110_000;
    await client.close();
    expect(fake.logouts).toHaveLength(1);
    expect(fake.seen.find((s) => s.path === '/api/v01/auth/logout')?.bearer).toBe(bearer);
    expect([logins(), refreshes()]).toEqual([1, 0]);
  });

  it('Doc1 §8: an expired access token at close sends no logout, no refresh and no login, and says so in debug', async () => {
    const { Writable } = await import('node:stream');
    const { pino } = await import('pino');
    let text = '';
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk: Buffer, _e, done) {
          text += chunk.toString();
          done();
        },
      }),
    );
    let now = 0;
    const client = await connect({ monotonicNow: () => now, logger });
    clients.pop();
    now = 120_000;
    await client.close();
    expect(fake.count('POST', /\/auth\/logout$/)).toBe(0);
    expect([logins(), refreshes()]).toEqual([1, 0]);
    expect(text).toContain('logout skipped: the access token has expired');
  });
});

describe('machine token refused', () => {
  it('Doc1 §2.1: a revoked machine token is SB_API_UNAUTHORIZED saying so, without re-authentication', async () => {
    const error = (await connect({ auth: { token: 'revoked' } }).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('SB_API_UNAUTHORIZED');
    expect(error.message).toBe(
      'GET /api/v01/system/users/local → 401: the machine-to-machine token was refused (invalid or revoked) (platform: "token expired")',
    );
    expect(logins()).toBe(0);
  });
});

describe('secrets stay out of logs and errors', () => {
  it('a debug log of login, 2FA, refresh, retries and logout contains no password, token or TOTP secret', async () => {
    const { Writable } = await import('node:stream');
    const { pino } = await import('pino');
    let text = '';
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk: Buffer, _e, done) {
          text += chunk.toString();
          done();
        },
      }),
    );
    fake.users.set('ops', { password: 'S3cret-pw', totpSecret: SECRET, secondFactor: 'totp' });
    let failures = 1;
    fake.on('GET', /\/flaky$/, (_req, res) =>
      failures-- > 0 ? json(res, 503, { message: 'busy' }) : json(res, 200, {}),
    );
    let now = 0;
    const client = await connect({
      auth: { username: 'ops', password: 'S3cret-pw', totpSecret: SECRET },
      logger,
      monotonicNow: () => now,
    });
    now = 110_000;
    await client.request({ method: 'GET', path: '/api/v01/flaky' });
    fake.refreshValid = false;
    fake.clockSeconds += 500;
    await client.request({ method: 'GET', path: '/api/v01/flaky' });
    await client.close();
    expect(text).toContain('retrying request');
    expect(text).toContain('refresh token refused');
    for (const secret of ['S3cret-pw', SECRET, 'acc-', 'ref-', 'pl-ops']) expect(text).not.toContain(secret);
  });
});

describe('a cancelled client', () => {
  it('stops a token refresh that waits out a Retry-After, with SB_API_ABORTED', async () => {
    let now = 0;
    const client = await connect({ monotonicNow: () => now, retry: { baseDelayMs: 5, maxElapsedMs: 600_000 } });
    now = 110_000; // the access token is due for renewal
    fake.refreshBusyFor = 300;
    const pending = client.request({ method: 'GET', path: `${client.paths.P}/tenants` }).catch((e: unknown) => e);
    while (refreshes() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    client.cancel();
    const error = await pending;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'SB_API_ABORTED' });
    expect(refreshes()).toBe(1);
  });
});

describe("the user's machine token in a login answer", () => {
  it('Doc1 §5.2: is a secret from the moment it arrives: no output shows it', async () => {
    const { maskSecrets } = await import('../../src/core/secrets.js');
    const m2m = `m2m-${createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 24)}`;
    fake.users.set('ops', { password: 'S3cret-pw', m2mToken: m2m });
    await connect({ auth: { username: 'ops', password: 'S3cret-pw' } });
    expect(maskSecrets(`the answer held ${m2m}`)).not.toContain(m2m);
  });
});

describe('the profile read beside the first requests (instance configured)', () => {
  /** Resolves once a request matching `path` was seen, or after `ms` (so that a client that waits never hangs the test). */
  const seenOr = (path: RegExp, ms: number) => async () => {
    for (let waited = 0; waited < ms && !fake.seen.some((s) => path.test(s.path)); waited += 5)
      await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('connect does not wait for the profile: the first read goes out while it is read', async () => {
    let readBeforeProfile = false;
    const wait = seenOr(/\/draas\/demo\/tenants$/, 3000);
    fake.beforeProfile = async () => {
      await wait();
      readBeforeProfile = fake.seen.some((s) => s.path === '/api/v01/draas/demo/tenants');
    };
    const client = await connect({ instance: 'demo' });
    await client.request({ method: 'GET', path: `${client.paths.P}/tenants` });
    expect((await client.profile()).username).toBe('admin');
    // The profile was held until the read came: a client that waited for it first would have sent none.
    expect(readBeforeProfile).toBe(true);
    expect(client.login).toEqual({ username: 'admin', kind: 'password' });
    expect(logins()).toBe(1);
    expect(fake.count('GET', /users\/local$/)).toBe(1);
  });

  it('without an instance, connect waits for the profile, which names it', async () => {
    fake.users.get('admin')!.instance = 'north';
    const client = await connect();
    expect(client.paths.P).toBe('/api/v01/draas/north');
  });

  it("a 403 answered before the profile is worded with the caller's permissions, as after it", async () => {
    fake.users.get('admin')!.rules = [{ method: 'get', url: '/api/v01/system/.*', name: 'system.get' }];
    fake.on('GET', /^\/api\/v01\/draas\/demo\/groups$/, (_req, res) => json(res, 403, { message: 'forbidden' }));
    fake.beforeProfile = seenOr(/\/draas\/demo\/groups$/, 3000);
    const client = await connect({ instance: 'demo' });
    const error = await client.request({ method: 'GET', path: `${client.paths.P}/groups` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toContain('no api_rule of the caller allows get on this path');
  });

  it('a profile that cannot be read: profile() rejects naming its request; login and permissions wait for it', async () => {
    fake.profileBody = ['not', 'a', 'profile'];
    const client = await connect({ instance: 'demo' });
    await client.request({ method: 'GET', path: `${client.paths.P}/tenants` });
    const error = await client.profile().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toContain('GET /api/v01/system/users/local');
    expect(() => client.login).toThrow(/await profile\(\)/);
    expect(() => client.permissions).toThrow(/await profile\(\)/);
  });
});
