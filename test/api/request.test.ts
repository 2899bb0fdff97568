import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, formatStats } from '../../src/api/index.js';
import { FakePlatform, json } from './fake-platform.js';

let fake: FakePlatform;
let client: ApiClient;
const P = '/api/v01/draas/demo';

beforeEach(async () => {
  fake = await new FakePlatform().start();
  client = await ApiClient.connect({
    baseUrl: fake.url,
    instance: 'demo',
    auth: { username: 'admin', password: 'admin' },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
});
afterEach(async () => {
  await client.close();
  await fake.stop();
});

/** A route that answers `statuses` in turn (then 200 `{ok: true}`). */
function sequence(
  method: string,
  pattern: RegExp,
  statuses: Array<number | 'reset'>,
  headers: Record<string, string> = {},
): void {
  let i = 0;
  fake.on(method, pattern, (req, res) => {
    const step = statuses[i++];
    if (step === 'reset') return void res.socket?.destroy();
    if (step === undefined) return json(res, 200, { ok: true, echo: req.body ?? null });
    json(res, step, { message: `status ${step}` }, headers);
  });
}

const failure = (promise: Promise<unknown>): Promise<ApiError> =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as ApiError,
  );

describe('retries', () => {
  it('retries a GET on 503, 502 and 504, then succeeds, counting the retries', async () => {
    sequence('GET', /\/tenants$/, [503, 502, 504]);
    const response = await client.request<{ ok: boolean }>({ method: 'GET', path: `${P}/tenants` });
    expect(response.body.ok).toBe(true);
    expect(fake.count('GET', /\/tenants$/)).toBe(4);
    const row = client.stats().routes.find((r) => r.route === '/api/v01/draas/{instance}/tenants');
    expect(row).toMatchObject({ method: 'GET', requests: 4, retries: 3, errors: 3 });
  });

  it('retries a GET on a connection reset', async () => {
    sequence('GET', /\/tenants$/, ['reset']);
    await expect(client.request({ method: 'GET', path: `${P}/tenants` })).resolves.toMatchObject({ status: 200 });
    expect(fake.count('GET', /\/tenants$/)).toBe(2);
  });

  it('retries a GET on 500 but not a PUT or DELETE (deterministic server errors)', async () => {
    sequence('GET', /\/a$/, [500]);
    await expect(client.request({ method: 'GET', path: `${P}/a` })).resolves.toMatchObject({ status: 200 });
    sequence('PUT', /\/b$/, [500]);
    const error = await failure(client.request({ method: 'PUT', path: `${P}/b`, body: { name: 'x' } }));
    expect(error).toMatchObject({ code: 'SB_API_SERVER', status: 500, retryable: false });
    expect(fake.count('PUT', /\/b$/)).toBe(1);
  });

  it('retries PUT and DELETE on 503 and a connection reset (safe to repeat)', async () => {
    sequence('PUT', /\/c$/, [503, 'reset']);
    await expect(client.request({ method: 'PUT', path: `${P}/c`, body: { name: 'x' } })).resolves.toMatchObject({
      status: 200,
    });
    sequence('DELETE', /\/d$/, ['reset']);
    await expect(client.request({ method: 'DELETE', path: `${P}/d` })).resolves.toMatchObject({ status: 200 });
  });

  it('never re-sends a POST: a connection reset is SB_API_OUTCOME_UNKNOWN', async () => {
    sequence('POST', /\/tenants$/, ['reset']);
    const error = await failure(
      client.request({ method: 'POST', path: `${P}/tenants`, body: { name: 'acme' }, role: 'tenants.create' }),
    );
    expect(error.code).toBe('SB_API_OUTCOME_UNKNOWN');
    expect(error.message).toMatch(/^POST \/api\/v01\/draas\/demo\/tenants → no response: .*look the object up/);
    expect(fake.count('POST', /\/tenants$/)).toBe(1);
  });

  it('never re-sends a POST: a 503 is SB_API_OUTCOME_UNKNOWN with its status', async () => {
    sequence('POST', /\/tenants$/, [503]);
    const error = await failure(client.request({ method: 'POST', path: `${P}/tenants`, body: { name: 'acme' } }));
    expect(error).toMatchObject({ code: 'SB_API_OUTCOME_UNKNOWN', status: 503, platformMessage: 'status 503' });
    expect(fake.count('POST', /\/tenants$/)).toBe(1);
  });

  it('never re-sends a PUT that creates (a bulk job, Doc 2 §4.5): a 504 or a reset is SB_API_OUTCOME_UNKNOWN', async () => {
    const path = `${P}/tenants/t/subscriptions/1/addresses/bulk`;
    sequence('PUT', /\/addresses\/bulk$/, [504, 'reset']);
    const put = () => client.request({ method: 'PUT', path, body: { name: 'job', data: [] }, creates: true });
    expect(await failure(put())).toMatchObject({ code: 'SB_API_OUTCOME_UNKNOWN', status: 504 });
    expect((await failure(put())).code).toBe('SB_API_OUTCOME_UNKNOWN');
    expect(fake.count('PUT', /\/addresses\/bulk$/)).toBe(2);
    // A 429 was not processed: it is sent again.
    sequence('PUT', /\/numbers\/bulk$/, [429]);
    const again = await client.request({ method: 'PUT', path: `${P}/x/numbers/bulk`, body: {}, creates: true });
    expect(again.status).toBe(200);
  });

  it("an accepted error status (a delete's 404) is its status, whatever its JSON or text body", async () => {
    for (const [type, text] of [
      ['text/plain', 'Not Found'],
      ['application/json', '{"message":"tenant not found"}'],
      ['application/json', ''],
    ] as const) {
      fake.on('DELETE', /\/gone$/, (_req, res) => {
        res.writeHead(404, { 'content-type': type });
        res.end(text);
      });
      const answer = await client.request({ method: 'DELETE', path: `${P}/gone`, okStatuses: [404] });
      expect(answer, `${type} ${text}`).toMatchObject({ status: 404, body: undefined });
    }
  });

  it("an accepted error status on an HTML page (a proxy's, a wrong base path) fails: it is not the API's answer", async () => {
    for (const [type, text] of [
      ['text/html', '<html><body><h1>404 Not Found</h1>nginx</body></html>'],
      ['text/plain', '<!DOCTYPE html><html><body>Not Found</body></html>'],
    ] as const) {
      fake.on('DELETE', /\/gone$/, (_req, res) => {
        res.writeHead(404, { 'content-type': type });
        res.end(text);
      });
      const error = await failure(client.request({ method: 'DELETE', path: `${P}/gone`, okStatuses: [404] }));
      expect(error, type).toMatchObject({ code: 'SB_API_NOT_FOUND', status: 404 });
      expect(error.message, type).toMatch(
        new RegExp(`^DELETE ${P}/gone → 404: an HTML page answered, not the platform`),
      );
    }
  });

  it('honours Retry-After seconds on a 429', async () => {
    sequence('GET', /\/slow$/, [429], { 'retry-after': '1' });
    const started = Date.now();
    await client.request({ method: 'GET', path: `${P}/slow` });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.count('GET', /\/slow$/)).toBe(2);
  });

  it('gives up when Retry-After exceeds the total retry budget, saying so', async () => {
    sequence('GET', /\/later$/, [429, 429], { 'retry-after': '120' });
    const error = await failure(client.request({ method: 'GET', path: `${P}/later` }));
    expect(error).toMatchObject({ code: 'SB_API_RATE_LIMITED', status: 429, retryable: true });
    expect(fake.count('GET', /\/later$/)).toBe(1);
  });

  it('bounds the number of retries', async () => {
    await client.close();
    client = await ApiClient.connect({
      baseUrl: fake.url,
      instance: 'demo',
      auth: { username: 'admin', password: 'admin' },
      retry: { retries: 2, baseDelayMs: 1 },
    });
    sequence('GET', /\/down$/, [503, 503, 503, 503, 503]);
    const error = await failure(client.request({ method: 'GET', path: `${P}/down` }));
    expect(error.code).toBe('SB_API_SERVER');
    expect(error.message).toBe(
      'GET /api/v01/draas/demo/down → 503: server error (gave up after 2 retries) (platform: "status 503")',
    );
    expect(fake.count('GET', /\/down$/)).toBe(3);
  });

  it("times out an attempt that gets no answer (SB_API_TIMEOUT) and cancels on the caller's signal (SB_API_ABORTED)", async () => {
    fake.on('GET', /\/hang$/, () => undefined);
    const timedOut = await failure(client.request({ method: 'GET', path: `${P}/hang`, timeoutMs: 100 }));
    expect(timedOut.code).toBe('SB_API_TIMEOUT');
    const controller = new AbortController();
    const pending = client.request({ method: 'GET', path: `${P}/hang`, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await failure(pending)).code).toBe('SB_API_ABORTED');
  });
});

describe('Doc1 §7: errors as values', () => {
  it('a 403 names the endpoint role the caller lacks', async () => {
    fake.users.set('reader', {
      password: 'reader',
      rules: [{ method: 'get', url: '/api/v01/draas/[^/]+/tenants', name: 'tenants.list' }],
    });
    await client.close();
    client = await ApiClient.connect({ baseUrl: fake.url, auth: { username: 'reader', password: 'reader' } });
    fake.on('POST', /\/tenants$/, (_req, res) => json(res, 403, { message: 'forbidden' }));
    const error = await failure(
      client.request({ method: 'POST', path: `${P}/tenants`, body: { name: 'x' }, role: 'tenants.create' }),
    );
    expect(error.message).toBe(
      'POST /api/v01/draas/demo/tenants → 403: caller lacks role tenants.create (platform: "forbidden")',
    );
    expect(error).toMatchObject({ code: 'SB_API_FORBIDDEN', role: 'tenants.create', status: 403, retryable: false });
  });

  it("Doc1 §1.5: a 403 despite a granting rule is reported as outside the caller's hierarchy", async () => {
    fake.on('GET', /\/tenants\/x$/, (_req, res) => json(res, 403, { error: 'not visible' }));
    const error = await failure(client.request({ method: 'GET', path: `${P}/tenants/x` }));
    expect(error.role).toBe('all.get');
    expect(error.message).toContain('outside the part of the hierarchy');
  });

  it('maps 400 and 404 to stable codes and extracts the platform message from HTML', async () => {
    fake.on('PUT', /\/bad$/, (_req, res) => json(res, 400, { reason: 'billingId already used' }));
    expect(await failure(client.request({ method: 'PUT', path: `${P}/bad`, body: {} }))).toMatchObject({
      code: 'SB_API_BAD_REQUEST',
      platformMessage: 'billingId already used',
    });
    fake.on(
      'GET',
      /\/gone$/,
      (_req, res) =>
        void res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not Found</h1></body></html>'),
    );
    expect(await failure(client.request({ method: 'GET', path: `${P}/gone` }))).toMatchObject({
      code: 'SB_API_NOT_FOUND',
      platformMessage: 'Not Found',
    });
  });

  it('okStatuses and notFoundIsEmpty accept statuses besides 2xx', async () => {
    fake.on('DELETE', /\/gone$/, (_req, res) => json(res, 404, { message: 'missing' }));
    await expect(client.request({ method: 'DELETE', path: `${P}/gone`, okStatuses: [404] })).resolves.toMatchObject({
      status: 404,
    });
    fake.on('GET', /\/none$/, (_req, res) => json(res, 404, { message: 'none' }));
    await expect(client.request({ method: 'GET', path: `${P}/none`, notFoundIsEmpty: true })).resolves.toMatchObject({
      status: 404,
      body: undefined,
    });
  });

  it('an HTML page, malformed JSON or a truncated body is SB_API_BAD_RESPONSE naming the request', async () => {
    fake.on(
      'GET',
      /\/html$/,
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy login</html>'),
    );
    expect((await failure(client.request({ method: 'GET', path: `${P}/html` }))).message).toBe(
      'GET /api/v01/draas/demo/html → 200: the answer is an HTML page instead of JSON',
    );
    fake.on(
      'GET',
      /\/broken$/,
      (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"tenants": ['),
    );
    expect(await failure(client.request({ method: 'GET', path: `${P}/broken` }))).toMatchObject({
      code: 'SB_API_BAD_RESPONSE',
      status: 200,
    });
    fake.on('GET', /\/cut$/, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1000 });
      res.write('{"tenants": [');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    await client.close();
    client = await ApiClient.connect({
      baseUrl: fake.url,
      instance: 'demo',
      auth: { username: 'admin', password: 'admin' },
      retry: { retries: 1, baseDelayMs: 1 },
    });
    const cut = await failure(client.request({ method: 'GET', path: `${P}/cut` }));
    expect(cut).toMatchObject({ code: 'SB_API_BAD_RESPONSE', status: 200 });
    expect(fake.count('GET', /\/cut$/)).toBe(2);
  });

  it('decode turns a wrong shape into SB_API_BAD_RESPONSE (GET) or SB_API_OUTCOME_UNKNOWN (POST)', async () => {
    fake.on('GET', /\/t\/1$/, (_req, res) => json(res, 200, { uuid: 42 }));
    fake.on('POST', /\/made$/, (_req, res) => json(res, 200, { id: 'x' }));
    const uuidOf = (body: unknown): string => {
      const uuid = (body as { uuid?: unknown } | undefined)?.uuid;
      if (typeof uuid !== 'string') throw new Error('uuid is not a string');
      return uuid;
    };
    const get = await failure(client.request({ method: 'GET', path: `${P}/t/1`, decode: uuidOf }));
    expect(get.message).toBe(`GET ${P}/t/1 → 200: the answer is not of the expected shape: uuid is not a string`);
    expect((await failure(client.request({ method: 'POST', path: `${P}/made`, body: {}, decode: uuidOf }))).code).toBe(
      'SB_API_OUTCOME_UNKNOWN',
    );
    fake.on('GET', /\/t\/2$/, (_req, res) => json(res, 200, { uuid: 'u-2' }));
    const ok = await client.request({ method: 'GET', path: `${P}/t/2`, decode: uuidOf });
    expect(ok.body).toBe('u-2');
  });

  it('a POST whose success body is unreadable is SB_API_OUTCOME_UNKNOWN', async () => {
    fake.on(
      'POST',
      /\/tenants$/,
      (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"uuid": '),
    );
    expect((await failure(client.request({ method: 'POST', path: `${P}/tenants`, body: {} }))).code).toBe(
      'SB_API_OUTCOME_UNKNOWN',
    );
  });
});

describe('concurrency and accounting', () => {
  it('never has more requests in flight than the limit', async () => {
    await client.close();
    client = await ApiClient.connect({
      baseUrl: fake.url,
      instance: 'demo',
      auth: { username: 'admin', password: 'admin' },
      concurrency: 3,
    });
    let inFlight = 0;
    let peak = 0;
    fake.on('GET', /\/slowly\/\d+$/, (_req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        json(res, 200, { ok: true });
      }, 20);
    });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => client.request({ method: 'GET', path: `${P}/slowly/${i}` })),
    );
    expect(peak).toBe(3);
    const stats = client.stats();
    const row = stats.routes.find((r) => r.route === '/api/v01/draas/{instance}/slowly/{id}');
    expect(row).toMatchObject({ requests: 12, retries: 0, errors: 0 });
    expect(row!.bytesIn).toBe(12 * JSON.stringify({ ok: true }).length);
    expect(stats.requests).toBeGreaterThanOrEqual(14); // + login + profile
    // The login is counted with the status it got, as every request is.
    const login = stats.routes.find((r) => r.route === '/api/v01/auth/login');
    expect(login?.statuses).toEqual({ '2xx': 1 });
    const text = formatStats(stats);
    expect(text).toContain('GET    /api/v01/draas/{instance}/slowly/{id}  requests=12 retries=0 errors=0');
    expect(text.split('\n').at(-1)).toMatch(/^total {2}requests=\d+ retries=0/);
  });

  it('counts bytes sent', async () => {
    fake.on('PUT', /\/tenants\/[^/]+$/, (_req, res) => json(res, 200, { uuid: 'u' }));
    const body = { name: 'acme', markup: 5 };
    await client.request({ method: 'PUT', path: `${P}/tenants/4b7c0a4e-1111-2222-3333-444455556666`, body });
    const row = client.stats().routes.find((r) => r.method === 'PUT');
    expect(row).toMatchObject({
      route: '/api/v01/draas/{instance}/tenants/{id}',
      bytesOut: JSON.stringify(body).length,
    });
  });
});
