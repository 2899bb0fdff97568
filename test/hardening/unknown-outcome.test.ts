/**
 * A system that goes mute mid-apply: it still takes the requests (and commits them), but
 * answers none. A write that was sent and got no answer has an unknown outcome: it may
 * have been applied. It is recorded as unknown (never "not sent"), the summary says how
 * many, the summary's and the journal's counts agree, and the next plan shows what really
 * happened. The routing engine (Document 3; and as Flask-Restless 0.17 serves it) and the
 * platform API (Document 1) alike.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/sim/index.js';
import { startRoutingEngineSim } from '../../src/sim/routing/index.js';
import type { RoutingSeed } from '../../src/sim/routing/types.js';
import { adminApi, manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';
import { startHookProxy, type ProxiedRequest } from './support/hook-proxy.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

interface JournalLine {
  type: string;
  event?: string;
  address?: string;
  outcome?: string;
  message?: string;
  summary?: Record<string, number>;
}

async function journalOf(dir: string): Promise<JournalLine[]> {
  const file = (await readdir(join(dir, '.switchboard'))).find((f) => f.startsWith('journal-'))!;
  return (await readFile(join(dir, '.switchboard', file), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as JournalLine);
}

/** `Apply incomplete: A applied, F failed (U of unknown outcome…), S skipped`. */
function counts(stdout: string): { applied: number; failed: number; unknown: number; skipped: number } {
  const m =
    /Apply incomplete: (\d+) applied, (\d+) failed(?: \((\d+) of unknown outcome: sent, not confirmed\))?, (\d+) skipped/.exec(
      stdout,
    );
  expect(m, stdout).not.toBeNull();
  return { applied: Number(m![1]), failed: Number(m![2]), unknown: Number(m![3] ?? 0), skipped: Number(m![4]) };
}

/** The journal's change lines by outcome. */
function byOutcome(journal: JournalLine[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of journal) if (line.type === 'change') (out[line.outcome!] ??= []).push(line.address!);
  return out;
}

/**
 * A proxy that goes mute after `after` requests `mutes` matched: it still forwards each
 * request to `upstream` (which commits it), and never answers.
 */
async function mutingProxy(upstream: string, mutes: (r: ProxiedRequest) => boolean, after: number) {
  let seen = 0;
  let mute = true;
  const proxy = await startHookProxy(upstream, async (request) => {
    if (!mute || !mutes(request) || ++seen <= after) return undefined;
    await fetch(`${upstream}${request.path}${request.query.size ? `?${request.query}` : ''}`, {
      method: request.method,
      headers: { authorization: String(request.headers.authorization ?? ''), 'content-type': 'application/json' },
      ...(request.body ? { body: request.body } : {}),
    }).catch(() => undefined);
    return new Promise<never>(() => undefined);
  });
  cleanup.push(() => proxy.close());
  return { url: proxy.url, speak: () => (mute = false) };
}

const number = (i: number) => `+3229${String(i).padStart(6, '0')}`;

for (const peer of [undefined, 'flask-restless-0.17'] as const) {
  describe(`the routing engine goes mute mid-apply (${peer ?? 'the engine of Document 3'})`, () => {
    it('deletes in flight are unknown, not "not sent"; counts agree; the next plan shows the truth', async () => {
      const seed: RoutingSeed = {
        credentials: { basic: [{ username: 'routing', password: 'routing' }] },
        ...(peer ? { peer } : {}),
        services: {
          uc: {
            active: {
              routes: {
                fields: { number: { type: 'string', unique: true, nullable: false }, route: { type: 'string' } },
                rows: Array.from({ length: 300 }, (_, i) => ({ number: number(i), route: 'old' })),
              },
            },
          },
        },
      };
      const engine = await startRoutingEngineSim({ seed });
      cleanup.push(() => engine.close());
      const proxy = await mutingProxy(engine.url, (r) => r.method === 'DELETE', 20);
      const dir = await manifestDir({
        'routes.yaml': `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: uc, version: active, prune: true }
spec:
  key: [number]
  fields: { number: string, route: string }
  records: []
`,
      });
      const env = (url: string) => ({
        SWITCHBOARD_RE_URL: url,
        SWITCHBOARD_RE_USERNAME: 'routing',
        SWITCHBOARD_RE_PASSWORD: 'routing',
        SWITCHBOARD_RE_TIMEOUT_MS: '300',
      });
      const result = await runCli(['apply', dir, '--yes', '--max-delete-percent', '100', '--concurrency', '8'], {
        env: env(proxy.url),
        cwd: dir,
      });
      expect(result.code).toBe(1);
      const summary = counts(result.stdout);
      expect(summary.unknown, result.stdout).toBeGreaterThan(0);
      expect(result.stdout).toMatch(/\? \d+ routing row changes of unknown outcome \(sent, not confirmed\)/);

      // The journal says the same: failed = its failed and unknown lines.
      const journal = await journalOf(dir);
      const lines = byOutcome(journal);
      expect(lines['applied']?.length ?? 0).toBe(summary.applied);
      expect(lines['unknown']?.length ?? 0).toBe(summary.unknown);
      expect((lines['failed']?.length ?? 0) + (lines['unknown']?.length ?? 0)).toBe(summary.failed);
      expect(lines['skipped']?.length ?? 0).toBe(summary.skipped);
      expect(journal.find((l) => l.event === 'end')?.summary).toMatchObject({ unknown: summary.unknown });
      for (const line of journal.filter((l) => l.outcome === 'failed'))
        expect(line.message).toMatch(/^not sent: the routing engine at .* is unreachable/);

      // What really happened: every unknown delete reached the engine (it is gone), every "not sent" did not.
      const live = new Set((engine.sim.state().services.uc?.active?.routes?.rows ?? []).map((r) => String(r.number)));
      const key = (address: string) => address.slice(address.indexOf('number=') + 'number='.length);
      for (const address of lines['unknown'] ?? []) expect(live.has(key(address)), address).toBe(false);
      for (const address of lines['failed'] ?? []) expect(live.has(key(address)), address).toBe(true);

      // The next plan shows it: exactly the rows not deleted.
      proxy.speak();
      const next = await runCli(['plan', dir, '--format', 'json'], { env: env(proxy.url), cwd: dir });
      const planned = (JSON.parse(next.stdout) as { changes: { address: string }[] }).changes.map((c) =>
        key(c.address),
      );
      expect(planned.sort()).toEqual([...live].sort());
      expect(planned.length).toBe(lines['failed']?.length);
    }, 120_000);
  });
}

describe('the platform goes mute mid-apply (Document 1)', () => {
  it('updates in flight are unknown; the next plan shows they were applied', async () => {
    const sim = await startSimulator({ port: 0 });
    cleanup.push(() => sim.close());
    const api = await adminApi(sim.url);
    const P = '/api/v01/draas/demo';
    const group = (await api('GET', `${P}/groups`)).body.groups[0].uuid as string;
    const north = (await api('GET', `${P}/resellers?parent=${group}`)).body.resellers.find(
      (r: { name: string }) => r.name === 'north',
    ).uuid as string;
    const TENANTS = 12;
    for (let i = 0; i < TENANTS; i++)
      await api('POST', `${P}/tenants`, {
        name: `mute-${i}`,
        owner: { type: 'reseller', uuid: north },
        billingId: `T-MUTE-${i}`,
        markup: 1,
      });
    const proxy = await mutingProxy(sim.url, (r) => r.method === 'PUT' && r.path.includes('/tenants/'), 4);
    const dir = await manifestDir({
      'tenants.yaml': Array.from(
        { length: TENANTS },
        (_, i) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: mute-${i}, reseller: north }
spec: { billingId: T-MUTE-${i}, markup: 2 }
`,
      ).join('---\n'),
    });
    const env = { ...simEnv(proxy.url), SWITCHBOARD_TIMEOUT_MS: '300' };
    const result = await runCli(['apply', dir, '--yes', '--concurrency', '8', '--max-update-percent', '100'], {
      env,
      cwd: dir,
    });
    expect(result.code).toBe(1);
    const summary = counts(result.stdout);
    expect(summary.applied).toBe(4);
    expect(summary.unknown).toBe(TENANTS - 4);
    expect(summary.failed).toBe(TENANTS - 4);
    expect(result.stdout).toMatch(/\? update tenant\/mute-\d+/);
    expect(result.stdout).toContain('it may have been applied: plan again to see what it did');

    const lines = byOutcome(await journalOf(dir));
    expect(lines['unknown']?.length).toBe(TENANTS - 4);
    expect(lines['applied']?.length).toBe(4);
    expect(lines['failed']).toBeUndefined();

    // They were all committed: the next plan has nothing to do.
    proxy.speak();
    const next = await runCli(['plan', dir], { env: simEnv(proxy.url), cwd: dir });
    expect(next.stdout).toContain('No changes.');
  }, 120_000);
});
