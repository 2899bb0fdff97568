/**
 * `--concurrency auto` against a rate-limited platform (docs/connecting.md "Concurrency"):
 * the real CLI plans examples/ on a simulator serving 5 requests per second. The plan needs
 * ~27 platform requests, more than the 5 the bucket starts with plus 5 a second for as long
 * as they take to send, so 429s happen however fast or slow this machine is. Whatever the
 * timing, the plan must be the one an unlimited platform gives, every 429 must have been
 * waited out, and the controller must have backed off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, runCli, simEnv } from './cli-helpers.js';

let limited: RunningSimulator;
let unlimited: RunningSimulator;

beforeAll(async () => {
  [limited, unlimited] = await Promise.all([startSimulator({ port: 0, rateLimit: 5 }), startSimulator({ port: 0 })]);
});

afterAll(async () => {
  await Promise.all([limited.close(), unlimited.close()]);
});

interface SimStats {
  total: number;
  rateLimited: { platform: number; routingEngine: number };
}

describe('plan --concurrency auto on a platform that answers 429 beyond 5 requests per second', () => {
  it('plans what an unlimited platform gives, waiting out every 429, and backs off', async () => {
    const expected = await runCli(['plan', EXAMPLES], { env: simEnv(unlimited.url) });
    expect(expected.code).toBe(0);
    const planned = await runCli(['plan', EXAMPLES, '--concurrency', 'auto', '--stats'], { env: simEnv(limited.url) });
    expect(planned.code, planned.stderr).toBe(0);
    // Each simulator draws its own uuids; the digest covers the plan's time and target too.
    const withoutIds = (text: string) =>
      text.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, 'UUID').replace(/sha256:[0-9a-f]{64}/g, 'DIGEST');
    expect(withoutIds(planned.stdout)).toBe(withoutIds(expected.stdout));

    const served = (await (await fetch(`${limited.url}/_sim/stats`)).json()) as SimStats;
    expect(served.rateLimited.platform).toBeGreaterThan(0);
    const statsLine = planned.stderr.split('\n').find((line) => line.startsWith('{"platform"'));
    const client = JSON.parse(statsLine ?? '{}') as {
      platform: { retries: number; concurrency: { limit: number; overloadDecreases: number; lowest: number } };
    };
    expect(client.platform.retries).toBeGreaterThanOrEqual(1);
    expect(client.platform.concurrency.overloadDecreases).toBeGreaterThanOrEqual(1);
    expect(client.platform.concurrency.lowest).toBeLessThan(8);
  }, 60_000);
});
