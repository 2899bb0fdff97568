import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_M2M_TOKEN, DEMO_TOTP_SECRET, totp, type RunningSimulator } from '../../src/sim/index.js';
import { loginAs, P, SimClient, useTestSim } from './helpers.js';

let sim: RunningSimulator;
useTestSim((s) => (sim = s));

const anon = () => new SimClient(sim);
const advance = (advanceSeconds: number) =>
  fetch(`${sim.url}/_sim/clock`, { method: 'POST', body: JSON.stringify({ advanceSeconds }) }).then(
    (r) => r.json() as Promise<{ epochMs: number }>,
  );
const outbox = (to: string) =>
  fetch(`${sim.url}/_sim/outbox?to=${encodeURIComponent(to)}`).then(
    (r) => r.json() as Promise<{ mails: { template: string; data: Record<string, string> }[] }>,
  );
type Tokens = { access_token: string; refresh_token: string; token?: string; '2fa_payload'?: string; option?: string };

describe('authentication', () => {
  it('Doc1 §5.2: login answers access and refresh tokens; bad credentials are 401', async () => {
    const ok = await anon().post<Tokens>('/api/v01/auth/login', { username: 'admin', password: 'admin' });
    expect(ok.status).toBe(200);
    expect(ok.body.access_token).toBeTruthy();
    expect(ok.body.refresh_token).toBeTruthy();
    expect(ok.body.token).toBeUndefined();
    expect((await anon().post('/api/v01/auth/login', { username: 'admin', password: 'wrong' })).status).toBe(401);
    expect((await anon().post('/api/v01/auth/login', { username: 'nobody', password: 'x' })).status).toBe(401);
  });

  it('Doc1 §2.1/§8: the access token expires after 2 minutes on the sim clock; refresh renews it', async () => {
    const { body } = await anon().post<Tokens>('/api/v01/auth/login', { username: 'admin', password: 'admin' });
    const client = new SimClient(sim, body.access_token);
    expect((await client.get(`${P}/groups`)).status).toBe(200);
    await advance(121);
    expect((await client.get(`${P}/groups`)).status).toBe(401);
    const refreshed = await new SimClient(sim, body.refresh_token).get<Tokens>('/api/v01/auth/access_token');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(body.access_token);
    // 48 hours minus 2 minutes left: far from expiry, so the refresh token is kept.
    expect(refreshed.body.refresh_token).toBe(body.refresh_token);
    expect((await new SimClient(sim, refreshed.body.access_token).get(`${P}/groups`)).status).toBe(200);
    // The access token is not a refresh token, and vice versa.
    expect((await new SimClient(sim, refreshed.body.access_token).get('/api/v01/auth/access_token')).status).toBe(401);
    expect((await new SimClient(sim, body.refresh_token).get(`${P}/groups`)).status).toBe(401);
  });

  it('Doc1 §3: a new refresh token only when the old one is about to expire; after 48 h a new login is needed', async () => {
    const { body } = await anon().post<Tokens>('/api/v01/auth/login', { username: 'admin', password: 'admin' });
    await advance(47.5 * 3600);
    const near = await new SimClient(sim, body.refresh_token).get<Tokens>('/api/v01/auth/access_token');
    expect(near.status).toBe(200);
    expect(near.body.refresh_token).not.toBe(body.refresh_token);
    expect((await new SimClient(sim, body.refresh_token).get('/api/v01/auth/access_token')).status).toBe(401);
    await advance(48 * 3600 + 1);
    expect((await new SimClient(sim, near.body.refresh_token).get('/api/v01/auth/access_token')).status).toBe(401);
  });

  it('Doc1 §5.1/§3: second factor by e-mail, code in the outbox, trust registers the location', async () => {
    const ua = { 'user-agent': 'auth-test/1' };
    const first = await anon().call<Tokens>(
      'POST',
      '/api/v01/auth/login',
      { username: 'mailuser', password: 'mailuser' },
      ua,
    );
    expect(first.body).toEqual({ '2fa_payload': expect.any(String), option: 'email' });
    const mail = (await outbox('mailuser@demo.example.net')).mails.at(-1);
    expect(mail?.template).toBe('mails.2fa');
    const wrong = await anon().post('/api/v01/auth/2fa', { '2fa_payload': first.body['2fa_payload'], code: '000000x' });
    expect(wrong.status).toBe(401);
    const done = await anon().post<Tokens>('/api/v01/auth/2fa', {
      '2fa_payload': first.body['2fa_payload'],
      code: mail?.data['code'],
      trust: 'true',
    });
    expect(done.status).toBe(200);
    expect(done.body.access_token).toBeTruthy();
    // Same user agent and IP: trusted now, tokens straight away; another user agent: 2FA again.
    const again = await anon().call<Tokens>(
      'POST',
      '/api/v01/auth/login',
      { username: 'mailuser', password: 'mailuser' },
      ua,
    );
    expect(again.body.access_token).toBeTruthy();
    const other = await anon().call<Tokens>(
      'POST',
      '/api/v01/auth/login',
      { username: 'mailuser', password: 'mailuser' },
      { 'user-agent': 'other/2' },
    );
    expect(other.body.option).toBe('email');
  });

  it('Doc1 §5.1: TOTP second factor (RFC 6238), required every time for totpuser', async () => {
    for (let i = 0; i < 2; i++) {
      const first = await anon().post<Tokens>('/api/v01/auth/login', { username: 'totpuser', password: 'totpuser' });
      expect(first.body.option).toBe('totp');
      const clock = await fetch(`${sim.url}/_sim/clock`).then((r) => r.json() as Promise<{ epochMs: number }>);
      const done = await anon().post<Tokens>('/api/v01/auth/2fa', {
        '2fa_payload': first.body['2fa_payload'],
        code: totp(DEMO_TOTP_SECRET, clock.epochMs),
        trust: true,
      });
      expect(done.status).toBe(200);
    }
  });

  it('Doc1 §5.1.6: a user without e-mail always gets 2FA (totp), even after trust', async () => {
    for (let i = 0; i < 2; i++) {
      const first = await anon().post<Tokens>('/api/v01/auth/login', { username: 'nomail', password: 'nomail' });
      expect(first.body.option).toBe('totp');
      const done = await anon().post<Tokens>('/api/v01/auth/2fa', {
        '2fa_payload': first.body['2fa_payload'],
        code: totp(DEMO_TOTP_SECRET, Date.now()),
        trust: true,
      });
      expect(done.status).toBe(200);
    }
  });

  it('Doc1 §5.2: a 2fa_payload expires (5 minutes, our choice)', async () => {
    const first = await anon().post<Tokens>('/api/v01/auth/login', { username: 'totpuser', password: 'totpuser' });
    const clock = await advance(301);
    const res = await anon().post('/api/v01/auth/2fa', {
      '2fa_payload': first.body['2fa_payload'],
      code: totp(DEMO_TOTP_SECRET, clock.epochMs),
    });
    expect(res.status).toBe(401);
  });

  it('Doc1 §2.1: the machine-to-machine token comes with login and works as an access token', async () => {
    const login = await anon().post<Tokens>('/api/v01/auth/login', { username: 'm2m', password: 'm2m' });
    expect(login.body.token).toBe(DEMO_M2M_TOKEN);
    await advance(3 * 3600);
    const client = new SimClient(sim, DEMO_M2M_TOKEN);
    const profile = await client.get<{ username: string; token: string }>('/api/v01/system/users/local');
    expect(profile.status).toBe(200);
    expect(profile.body.username).toBe('m2m');
    expect(profile.body.token).toBe(DEMO_M2M_TOKEN);
  });

  it('Doc1 §5.2: GET log_off invalidates the tokens', async () => {
    const { body } = await anon().post<Tokens>('/api/v01/auth/login', { username: 'admin', password: 'admin' });
    const client = new SimClient(sim, body.access_token);
    expect((await client.get('/api/v01/auth/log_off')).status).toBe(200);
    expect((await client.get(`${P}/groups`)).status).toBe(401);
    expect((await new SimClient(sim, body.refresh_token).get('/api/v01/auth/access_token')).status).toBe(401);
  });

  it('Doc1 §5.2: POST logout with sign (SHA-256 of the refresh token) and GET logout with token, as bearers (§1.4)', async () => {
    const a = await anon().post<Tokens>('/api/v01/auth/login', { username: 'admin', password: 'admin' });
    const sign = createHash('sha256').update(a.body.refresh_token).digest('hex');
    // Not one of the calls convention 4 excepts: without the access token, refused.
    expect((await anon().post('/api/v01/auth/logout', { sign })).status).toBe(401);
    const asA = new SimClient(sim, a.body.access_token);
    const out = await asA.post('/api/v01/auth/logout', { sign });
    expect(out.status).toBe(200);
    expect(out.body).toBeUndefined();
    expect((await asA.get(`${P}/groups`)).status).toBe(401);

    const b = await anon().post<Tokens>('/api/v01/auth/login', { username: 'admin', password: 'admin' });
    const asB = new SimClient(sim, b.body.access_token);
    expect((await asB.get(`/api/v01/auth/logout?token=${encodeURIComponent(b.body.refresh_token)}`)).status).toBe(200);
    expect((await new SimClient(sim, b.body.refresh_token).get('/api/v01/auth/access_token')).status).toBe(401);
    const c = await anon().post<Tokens>('/api/v01/auth/login', { username: 'admin', password: 'admin' });
    expect((await new SimClient(sim, c.body.access_token).post('/api/v01/auth/logout', {})).status).toBe(400);
  });

  it('Doc1 §5.2: reset password mails a link once per 5 minutes and never reveals unknown users', async () => {
    expect((await anon().post('/api/v01/auth/reset_password', { username: 'nobody' })).status).toBe(200);
    expect((await anon().post('/api/v01/auth/reset_password', { username: 'admin' })).status).toBe(200);
    expect((await anon().post('/api/v01/auth/reset_password', { username: 'admin' })).status).toBe(200);
    const mails = (await outbox('admin@demo.example.net')).mails.filter((m) =>
      m.template.startsWith('mails.reset_password'),
    );
    expect(mails).toHaveLength(1);
    const confirm = await anon().post('/api/v01/auth/reset_password/confirm', {
      token: mails[0]?.data['token'],
      password: 'new-secret',
    });
    expect(confirm.status).toBe(200);
    expect((await anon().post('/api/v01/auth/login', { username: 'admin', password: 'admin' })).status).toBe(401);
    await loginAs(sim, 'admin', 'new-secret');
  });

  it('Doc1 §2.2: the profile carries both name spellings, draas_instance, admin_of and api_rules', async () => {
    const client = await loginAs(sim, 'reselleradmin');
    const { body } = await client.get<Record<string, any>>('/api/v01/system/users/local');
    expect(body).toMatchObject({
      username: 'reselleradmin',
      email: 'reselleradmin@demo.example.net',
      firstname: 'reselleradmin',
      first_name: 'reselleradmin',
      lastname: 'Demo',
      last_name: 'Demo',
      mobilenumber: '+32470000000',
      mobile_number: '+32470000000',
      properties: { draas_instance: 'demo' },
      is_system: false,
    });
    expect(body['admin_of'][0]).toMatchObject({
      level: 'reseller',
      reference: expect.any(String),
      owner: { type: 'group', name: 'demo-group' },
    });
    const rules = body['profile']['api_rules'] as { method: string; url: string; name: string }[];
    const rule = rules.find((r) => r.name === 'tenants.list');
    expect(rule).toMatchObject({ method: 'get', allowed: true });
    expect(new RegExp(rule!.url).test(`${P}/tenants`)).toBe(true);
    const reader = await loginAs(sim, 'reader');
    const readerRules = (await reader.get<Record<string, any>>('/api/v01/system/users/local')).body['profile'][
      'api_rules'
    ] as { method: string }[];
    expect(readerRules.length).toBeGreaterThan(10);
    expect(readerRules.every((r) => r.method === 'get')).toBe(true);
  });
});
