import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, type ApiClientOptions } from '../../src/api/index.js';
import { DEMO_M2M_TOKEN, DEMO_TOTP_SECRET, startSimulator, type RunningSimulator } from '../../src/sim/index.js';

/** The client against the embedded simulator (src/sim), over loopback HTTP. */
let sim: RunningSimulator;
let admin: ApiClient;
let groupUuid: string;

async function control(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${sim.url}/_sim/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
}

async function simStats(): Promise<{ byRoute: Record<string, number>; faults: Record<string, number> }> {
  return (await (await fetch(`${sim.url}/_sim/stats`)).json()) as {
    byRoute: Record<string, number>;
    faults: Record<string, number>;
  };
}

function connect(options: Partial<ApiClientOptions> = {}): Promise<ApiClient> {
  return ApiClient.connect({
    baseUrl: sim.url,
    auth: { username: 'admin', password: 'admin' },
    retry: { baseDelayMs: 50 },
    ...options,
  });
}

/** A debug logger that calls `onRequest(path)` after each answered API request (synchronously). */
function hookLogger(onRequest: (path: string) => void) {
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      const line = JSON.parse(chunk.toString()) as { msg?: string; path?: string };
      if (line.msg === 'api request' && line.path) onRequest(line.path);
      done();
    },
  });
  return pino({ level: 'debug' }, stream);
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  admin = await connect({ concurrency: 8 });
  const groups = await admin.listPages<{ uuid: string; name: string }>({
    path: `${admin.paths.P}/groups`,
    itemsKey: 'groups',
    style: 'token',
    role: 'groups.list',
  });
  groupUuid = groups.find((g) => g.name === 'demo-group')!.uuid;
  // Enough objects for several capped pages (the simulator caps page_size at 100).
  await Promise.all(
    Array.from({ length: 230 }, (_, i) =>
      admin.request({
        method: 'POST',
        path: `${admin.paths.P}/tenants`,
        body: { name: `bulk-${i}`, owner: { type: 'group', uuid: groupUuid }, billingId: `T-BULK-${i}` },
        role: 'tenants.create',
      }),
    ),
  );
}, 60_000);

afterAll(async () => {
  await admin?.close();
  await sim?.close();
});

describe('against the simulator', () => {
  it('Doc1 §5.2, §2.2: logs in as admin; the instance comes from the profile', async () => {
    expect(admin.paths.P).toBe('/api/v01/draas/demo');
    const profile = await admin.profile();
    expect(profile.username).toBe('admin');
    expect(admin.permissions.check('post', `${admin.paths.P}/tenants`)).toEqual({
      allowed: true,
      rule: 'tenants.create',
    });
  });

  it('Doc1 §5.2: totpuser logs in through the TOTP second factor', async () => {
    const client = await connect({
      auth: { username: 'totpuser', password: 'totpuser', totpSecret: DEMO_TOTP_SECRET },
    });
    expect((await client.profile()).username).toBe('totpuser');
    await client.close();
  });

  it('Doc1 §5.1: mailuser (2FA by e-mail) fails with a clear SB_API_2FA_UNSUPPORTED', async () => {
    const error = (await connect({ auth: { username: 'mailuser', password: 'mailuser' } }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error.code).toBe('SB_API_2FA_UNSUPPORTED');
  });

  it('Doc1 §2.1: the m2m user works with its machine token alone', async () => {
    const client = await connect({ auth: { token: DEMO_M2M_TOKEN } });
    expect((await client.profile()).username).toBe('m2m');
    await client.close();
  });

  it('Doc1 §4.4 token style with a 100 cap, the clock passing 2 minutes mid-read: renews once and reads every tenant', async () => {
    let pages = 0;
    const client = await connect({
      logger: hookLogger((path) => {
        if (path.endsWith('/tenants') && ++pages === 1) sim.core.store.clock.advance(150);
      }),
    });
    const tenants = await client.listPages<{ name: string }>({
      path: `${client.paths.P}/tenants`,
      itemsKey: 'tenants',
      style: 'token',
      query: { parent: groupUuid },
      role: 'tenants.list',
    });
    const bulk = tenants.filter((t) => t.name.startsWith('bulk-'));
    expect(bulk).toHaveLength(230);
    expect(new Set(tenants.map((t) => t.name)).size).toBe(tenants.length);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(client.stats()).toMatchObject({ tokenRenewals: 1, reauthentications: 1 });
    await client.close();
  });

  it('Doc1 §1.8 page style with a 100 cap, the clock passing 2 minutes after page 1: concurrent pages share one refresh', async () => {
    let pages = 0;
    const client = await connect({
      logger: hookLogger((path) => {
        if (path.endsWith('/tenants') && ++pages === 1) sim.core.store.clock.advance(150);
      }),
    });
    // The simulator's tenant list carries both styles and accepts `page` (Doc1 §4.4).
    const tenants = await client.listPages<{ name: string }>({
      path: `${client.paths.P}/tenants`,
      itemsKey: 'tenants',
      style: 'page',
      query: { parent: groupUuid },
      role: 'tenants.list',
    });
    expect(tenants.filter((t) => t.name.startsWith('bulk-'))).toHaveLength(230);
    expect(new Set(tenants.map((t) => t.name)).size).toBe(tenants.length);
    expect(client.stats().tokenRenewals).toBe(1);
    const listRow = client
      .stats()
      .routes.find((r) => r.route === '/api/v01/draas/{instance}/tenants' && r.method === 'GET');
    expect(listRow!.requests).toBeGreaterThanOrEqual(3 + 2); // 3 pages + the 2 that met the expired token
    await client.close();
  });

  it('Doc1 §1.6: a 403 names the role the caller lacks', async () => {
    const reader = await connect({ auth: { username: 'reader', password: 'reader' } });
    const error = (await reader
      .request({
        method: 'POST',
        path: `${reader.paths.P}/tenants`,
        body: { name: 'x', owner: { type: 'group', uuid: groupUuid } },
        role: 'tenants.create',
      })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ code: 'SB_API_FORBIDDEN', status: 403, role: 'tenants.create' });
    expect(error.message).toMatch(/^POST \/api\/v01\/draas\/demo\/tenants → 403: caller lacks role tenants\.create/);
    expect(reader.permissions.check('post', `${reader.paths.P}/tenants`).allowed).toBe(false);
    await reader.close();
  });

  it('a 429 with Retry-After is waited out, then the GET succeeds', async () => {
    await control('faults', { rate: 1, statuses: [429] });
    setTimeout(() => void control('faults', { rate: 0 }), 300);
    const started = Date.now();
    const response = await admin.request({ method: 'GET', path: `${admin.paths.P}/groups/${groupUuid}` });
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect((await simStats()).faults).toMatchObject({ '429': expect.any(Number) });
  });

  it('connection resets and 503s: a GET is retried to success; a POST is sent once and reported as outcome unknown', async () => {
    const client = await connect({ retry: { retries: 10, baseDelayMs: 100, maxDelayMs: 200 } });
    await control('faults', { rate: 1, statuses: [503], resetConnections: true });
    const faultsBefore = (await simStats()).faults;
    const post = (await client
      .request({
        method: 'POST',
        path: `${client.paths.P}/tenants`,
        body: { name: 'never-twice', owner: { type: 'group', uuid: groupUuid } },
      })
      .catch((e: unknown) => e)) as ApiError;
    expect(post.code).toBe('SB_API_OUTCOME_UNKNOWN');
    const get = client.request({ method: 'GET', path: `${client.paths.P}/groups/${groupUuid}` });
    setTimeout(() => void control('faults', { rate: 0 }), 150);
    expect((await get).status).toBe(200);
    const faultsAfter = (await simStats()).faults;
    const injected = (['503', 'reset'] as const).reduce(
      (n, k) => n + (faultsAfter[k] ?? 0) - (faultsBefore[k] ?? 0),
      0,
    );
    const rows = client.stats().routes;
    const postRow = rows.find((r) => r.method === 'POST' && r.route === '/api/v01/draas/{instance}/tenants')!;
    const getRow = rows.find((r) => r.method === 'GET' && r.route === '/api/v01/draas/{instance}/groups/{id}')!;
    expect(postRow).toMatchObject({ requests: 1, retries: 0, errors: 1 });
    expect(getRow.errors).toBeGreaterThanOrEqual(1);
    expect(injected).toBe(postRow.errors + getRow.errors); // the simulator saw exactly one POST
    expect(client.stats().retries).toBeGreaterThanOrEqual(1);
    await client.close();
  });
});
