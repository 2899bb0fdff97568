/**
 * A platform that answers a create with 429 and a `Retry-After` (docs/connecting.md
 * "Retries"): within the retry budget the POST is sent again and applied; beyond it (a day,
 * or a date decades away) the change fails at once with a message naming the call, instead
 * of apply waiting for it. Real CLI, simulator behind an in-test proxy that answers the
 * tenant POSTs it is told to.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { manifestDir, runCli, simEnv } from './cli-helpers.js';

let sim: RunningSimulator;
let proxy: { url: string; server: Server; tenantPosts: number; refuse: (n: number) => string | undefined };

const tenant = (name: string) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: ${name}, reseller: north }
spec:
  billingId: ${name.toUpperCase()}
`;

/** Forwards to the simulator; the n-th POST of a tenant is answered 429 with `refuse(n)` as its Retry-After, when that gives one. */
async function startProxy(upstream: string): Promise<typeof proxy> {
  const target = new URL(upstream);
  const state = {
    url: '',
    server: undefined as unknown as Server,
    tenantPosts: 0,
    refuse: (_n: number): string | undefined => undefined,
  };
  state.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && /\/tenants$/.test(req.url ?? '')) {
        const retryAfter = state.refuse(++state.tenantPosts);
        if (retryAfter !== undefined) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
          res.end(JSON.stringify({ error: { status: 429, message: 'too many tenant creations' } }));
          return;
        }
      }
      const forward = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.socket?.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  proxy = await startProxy(sim.url);
});

afterAll(async () => {
  proxy.server.closeAllConnections();
  await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
  await sim.close();
});

describe('a create answered 429 (apply, end to end)', () => {
  it('is sent again after a Retry-After within the budget, and applied once', async () => {
    proxy.tenantPosts = 0;
    proxy.refuse = (n) => (n === 1 ? '1' : undefined);
    const cwd = await manifestDir({ 'patient.yaml': tenant('patient-co') });
    const applied = await runCli(['apply', '.', '--yes'], { env: simEnv(proxy.url), cwd });
    expect(applied.stdout).toMatch(/Apply complete: 1 applied, 0 failed, 0 skipped/);
    expect(applied.code).toBe(0);
    expect(proxy.tenantPosts).toBe(2);
  });

  it('fails at once, naming the call, when Retry-After asks for a day (not waiting 24 hours)', async () => {
    proxy.tenantPosts = 0;
    proxy.refuse = () => '86400';
    const cwd = await manifestDir({ 'impatient.yaml': tenant('impatient-co') });
    const applied = await runCli(['apply', '.', '--yes'], { env: simEnv(proxy.url), cwd });
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain('✗ create tenant/impatient-co');
    expect(applied.stdout).toContain(
      'POST /api/v01/draas/demo/tenants → 429: rate limited by the platform; Retry-After asks for 86400 s, beyond the retry budget of 60 s: not retried',
    );
    expect(applied.stdout).toMatch(/Apply incomplete: 0 applied, 1 failed/);
    expect(proxy.tenantPosts).toBe(1);
  });

  it('fails at once when Retry-After is a date beyond what a timer can wait (no overflow into an immediate retry)', async () => {
    proxy.tenantPosts = 0;
    proxy.refuse = () => 'Fri, 01 Jan 2100 00:00:00 GMT';
    const cwd = await manifestDir({ 'far.yaml': tenant('far-co') });
    const applied = await runCli(['apply', '.', '--yes'], { env: simEnv(proxy.url), cwd });
    expect(applied.code).toBe(1);
    expect(applied.stdout).toMatch(
      /POST \/api\/v01\/draas\/demo\/tenants → 429: rate limited by the platform; Retry-After asks for \d+ s, beyond the retry budget/,
    );
    expect(applied.stderr).not.toContain('TimeoutOverflowWarning');
    expect(proxy.tenantPosts).toBe(1);
  });
});
