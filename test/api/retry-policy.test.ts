/**
 * The one retry policy (src/api/retry.ts) and the loops that use it: the platform client's
 * requests and logins, and the routing engine's calls (docs/connecting.md "Retries").
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../src/api/index.js';
import { DEFAULT_RETRY, MAX_TIMER_MS, RetryBudget, isRetryable, natureOf, sleep } from '../../src/api/retry.js';
import { RoutingClient } from '../../src/routing/index.js';
import { RoutingApiError } from '../../src/routing/errors.js';
import { ROUTES, scriptedServer } from '../routing/helpers.js';
import { FakePlatform, json } from './fake-platform.js';

const P = '/api/v01/draas/demo';

describe('the rules: what may be sent again', () => {
  it('a 429 was not processed: every method, a POST included, may be sent again', () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'POST'])
      expect(isRetryable(natureOf(method), { status: 429 })).toBe(true);
  });

  it('a create is sent again after nothing else: a 5xx or a missing answer may have taken effect', () => {
    for (const status of [500, 502, 503, 504]) expect(isRetryable('create', { status })).toBe(false);
    expect(isRetryable('create', { noAnswer: 'network' })).toBe(false);
    expect(isRetryable('create', { noAnswer: 'timeout' })).toBe(false);
  });

  it('a 500 is retried for reads only; TLS failures and cancellations never', () => {
    expect(isRetryable('read', { status: 500 })).toBe(true);
    expect(isRetryable('write', { status: 500 })).toBe(false);
    expect(isRetryable('write', { status: 503 })).toBe(true);
    expect(isRetryable('read', { noAnswer: 'tls' })).toBe(false);
    expect(isRetryable('read', { noAnswer: 'aborted' })).toBe(false);
    expect(isRetryable('write', { noAnswer: 'truncated' })).toBe(true);
    expect(isRetryable('read', { status: 404 })).toBe(false);
  });
});

describe('the budget of one request', () => {
  it('grants at most `retries` retries, with backoff when no Retry-After is given', () => {
    const budget = new RetryBudget(
      { ...DEFAULT_RETRY, retries: 2 },
      () => 0,
      () => 0.5,
    );
    expect(budget.next({ retryable: true })).toEqual({ retry: true, delayMs: 125 });
    expect(budget.next({ retryable: true })).toEqual({ retry: true, delayMs: 250 });
    expect(budget.next({ retryable: true })).toEqual({ retry: false });
    expect(budget.retries).toBe(2);
  });

  it('never retries what is not retryable', () => {
    expect(new RetryBudget(DEFAULT_RETRY).next({ retryable: false, retryAfterMs: 1 })).toEqual({ retry: false });
  });

  it('a Retry-After beyond the budget ends the request at once, saying why', () => {
    const decision = new RetryBudget(DEFAULT_RETRY, () => 0).next({ retryable: true, retryAfterMs: 86_400_000 });
    expect(decision).toEqual({
      retry: false,
      why: 'Retry-After asks for 86400 s, beyond the retry budget of 60 s: not retried',
    });
  });

  it('counts the time already spent against the budget', () => {
    let now = 0;
    const budget = new RetryBudget(DEFAULT_RETRY, () => now);
    expect(budget.next({ retryable: true, retryAfterMs: 30_000 })).toEqual({ retry: true, delayMs: 30_000 });
    now = 35_000;
    expect(budget.next({ retryable: true, retryAfterMs: 30_000 })).toMatchObject({ retry: false });
  });

  it('a budget configured beyond what a timer can wait is cut to 2^31 - 1 ms', () => {
    const budget = new RetryBudget({ ...DEFAULT_RETRY, maxElapsedMs: Number.MAX_SAFE_INTEGER }, () => 0);
    expect(budget.next({ retryable: true, retryAfterMs: MAX_TIMER_MS + 1 })).toMatchObject({ retry: false });
  });

  it('sleep never hands setTimeout more than 2^31 - 1 ms (which would fire at once)', async () => {
    const controller = new AbortController();
    const waiting = sleep(2 ** 40, controller.signal);
    const early = await Promise.race([
      waiting.then(
        () => 'resolved',
        () => 'aborted',
      ),
      sleep(50).then(() => 'still waiting'),
    ]);
    controller.abort(new Error('stop'));
    await waiting.catch(() => undefined);
    expect(early).toBe('still waiting');
  });
});

describe('the platform client under the policy', () => {
  let fake: FakePlatform;
  let client: ApiClient;
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

  function answers(method: string, pattern: RegExp, statuses: number[], headers: Record<string, string>): void {
    let i = 0;
    fake.on(method, pattern, (_req, res) => {
      const status = statuses[i++];
      if (status === undefined) return json(res, 201, { uuid: 'u-1' });
      json(res, status, { message: `status ${status}` }, headers);
    });
  }

  it('sends a POST answered 429 again after its Retry-After', async () => {
    answers('POST', /\/tenants$/, [429], { 'retry-after': '0' });
    await expect(
      client.request({ method: 'POST', path: `${P}/tenants`, body: { name: 'acme' } }),
    ).resolves.toMatchObject({ status: 201 });
    expect(fake.count('POST', /\/tenants$/)).toBe(2);
  });

  it('fails a POST answered 429 with Retry-After: 86400 at once, naming the call', async () => {
    answers('POST', /\/tenants$/, [429], { 'retry-after': '86400' });
    // "At once": one request and no wait (a wait of a day would end in the test's time limit).
    const error = (await client
      .request({ method: 'POST', path: `${P}/tenants`, body: { name: 'acme' } })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'SB_API_RATE_LIMITED', status: 429, method: 'POST' });
    expect(error.message).toBe(
      'POST /api/v01/draas/demo/tenants → 429: rate limited by the platform; Retry-After asks for 86400 s, beyond the retry budget of 60 s: not retried (platform: "status 429")',
    );
    expect(fake.count('POST', /\/tenants$/)).toBe(1);
  });

  it('fails a GET whose Retry-After is a date decades away at once, without a timer overflow', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      answers('GET', /\/far$/, [503], { 'retry-after': 'Fri, 01 Jan 2100 00:00:00 GMT' });
      const error = (await client.request({ method: 'GET', path: `${P}/far` }).catch((e: unknown) => e)) as ApiError;
      expect(error).toMatchObject({ code: 'SB_API_SERVER', status: 503 });
      expect(error.message).toMatch(/Retry-After asks for \d+ s, beyond the retry budget of 60 s/);
      expect(fake.count('GET', /\/far$/)).toBe(1);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });
});

describe('the routing engine client under the same policy', () => {
  it('sends a POST answered 429 again, and ends at once when Retry-After is beyond the budget', async () => {
    const seen: string[] = [];
    let posts = 0;
    const server = await scriptedServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && ++posts === 1)
        return void res.writeHead(429, { 'retry-after': '0' }).end('{"message":"slow down"}');
      if (req.method === 'POST') return void res.writeHead(201).end('{"id": 7, "number": "+1"}');
      res.writeHead(429, { 'retry-after': '86400' }).end('{"message":"come back tomorrow"}');
    });
    const client = new RoutingClient({ url: server.url, auth: { token: 't' } });
    try {
      await expect(client.create(ROUTES, { number: '+1' })).resolves.toMatchObject({ id: 7 });
      expect(posts).toBe(2);
      const error = await client.get(ROUTES, 7).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RoutingApiError);
      expect(error).toMatchObject({ status: 429, retryAfterMs: 86_400_000 });
      expect(seen.filter((s) => s.startsWith('GET'))).toHaveLength(1);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
