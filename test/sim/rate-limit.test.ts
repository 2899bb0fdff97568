/**
 * The simulator's rate limit (`--rate-limit N`, the seed's `rateLimit`; Document 1 §8 lists
 * rate limits without figures, docs/design-decisions.md "Simulator"): a token bucket per API,
 * 429 with Retry-After beyond it, counted by `/_sim/stats`.
 */
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { TokenBucket } from '../../src/sim/control/rate-limit.js';
import { defaultSeed, type RunningSimulator } from '../../src/sim/index.js';
import { loginAs, P, startTestSim } from './helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const stats = async (sim: RunningSimulator) =>
  (await (await fetch(`${sim.url}/_sim/stats`)).json()) as {
    total: number;
    rateLimit: number | null;
    rateLimited: { platform: number; routingEngine: number };
  };

describe('TokenBucket', () => {
  it('holds N tokens, refills N per second, and names the whole seconds until the next one', () => {
    const clock = { now: 0 };
    const bucket = new TokenBucket(4, () => clock.now);
    expect([1, 2, 3, 4].map(() => bucket.take())).toEqual([undefined, undefined, undefined, undefined]);
    expect(bucket.take()).toBe(1);
    clock.now += 250; // one token back
    expect(bucket.take()).toBeUndefined();
    expect(bucket.take()).toBe(1);
    clock.now += 10_000; // never more than N saved up
    expect([1, 2, 3, 4, 5].map(() => bucket.take())).toEqual([undefined, undefined, undefined, undefined, 1]);
  });

  it('below one request per second, Retry-After is the seconds until the next token, rounded up', () => {
    const clock = { now: 0 };
    const bucket = new TokenBucket(0.25, () => clock.now);
    expect(bucket.take()).toBeUndefined();
    expect(bucket.take()).toBe(4);
    clock.now += 2500;
    expect(bucket.take()).toBe(2);
  });
});

describe('the simulator with a rate limit', () => {
  it('answers 429 with Retry-After beyond N requests per second, in each API’s own error body, and counts them', async () => {
    const sim = await startTestSim({ rateLimit: 2 });
    try {
      expect(sim.rateLimit).toBe(2);
      const admin = await loginAs(sim, 'admin'); // the login takes one token
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await admin.get(`${P}/groups`));
      expect(answers[0]?.status).toBe(200);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(refused[0]?.headers.get('retry-after')).toBe('1');
      expect(refused[0]?.body).toEqual({
        error: {
          status: 429,
          code: 'rate_limited',
          message: expect.stringMatching(/rate limit of 2 requests per second/),
        },
      });
      // The routing engine is another system: its own bucket, its own body (Document 3 §7).
      const basic = `Basic ${Buffer.from('routing:routing').toString('base64')}`;
      const routing = [];
      for (let i = 0; i < 4; i++)
        routing.push(await fetch(`${sim.url}/demo/active/numbers`, { headers: { authorization: basic } }));
      expect(routing[0]?.status).not.toBe(429);
      const engineRefused = routing.filter((r) => r.status === 429);
      expect(engineRefused.length).toBeGreaterThanOrEqual(1);
      expect(await engineRefused[0]?.json()).toEqual({ code: '429', message: expect.any(String) });
      // The control surface is never limited.
      for (let i = 0; i < 10; i++) expect((await fetch(`${sim.url}/_sim/state`)).status).toBe(200);
      const counted = await stats(sim);
      expect(counted.rateLimit).toBe(2);
      expect(counted.rateLimited).toEqual({ platform: refused.length, routingEngine: engineRefused.length });
      expect(counted.total).toBe(1 + 4 - refused.length + 4 - engineRefused.length);
      await fetch(`${sim.url}/_sim/stats`, { method: 'DELETE' });
      expect((await stats(sim)).rateLimited).toEqual({ platform: 0, routingEngine: 0 });
    } finally {
      await sim.close();
    }
  });

  it('takes the limit from the seed’s rateLimit (the option wins), and has none by default', async () => {
    const seeded = await startTestSim({ seed: { ...defaultSeed(), rateLimit: 7 } });
    const overridden = await startTestSim({ seed: { ...defaultSeed(), rateLimit: 7 }, rateLimit: 3 });
    const plain = await startTestSim();
    try {
      expect((await stats(seeded)).rateLimit).toBe(7);
      expect((await stats(overridden)).rateLimit).toBe(3);
      expect((await stats(plain)).rateLimit).toBeNull();
      await fetch(`${plain.url}/_sim/reset`, {
        method: 'POST',
        body: JSON.stringify({ ...defaultSeed(), rateLimit: 5 }),
      });
      expect(plain.rateLimit).toBe(5);
      const bad = await fetch(`${plain.url}/_sim/reset`, {
        method: 'POST',
        body: JSON.stringify({ ...defaultSeed(), rateLimit: 0 }),
      });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(await bad.json())).toMatch(/rateLimit.*positive number/);
    } finally {
      await Promise.all([seeded.close(), overridden.close(), plain.close()]);
    }
  });

  it('switchboard sim --rate-limit: prints the limit; refuses a value that is not a positive number (exit 1)', async () => {
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    const run = runCli(['node', 'switchboard', 'sim', '--port', '0', '--rate-limit', '500'], new Command());
    await vi.waitFor(() => expect(out).toMatch(/rate limit: +500 requests per second per API/), { timeout: 60_000 }); // a wait for start-up, not a budget
    process.emit('SIGINT');
    expect(await run).toBe(0);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runCli(['node', 'switchboard', 'sim', '--port', '0', '--rate-limit', 'many'], new Command())).toBe(1);
    expect(String(stderr.mock.calls[0]?.[0])).toMatch(/--rate-limit must be a positive number of requests per second/);
  });
});
