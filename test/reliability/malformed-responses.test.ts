/**
 * Platform responses fuzzed: the simulator's `malformed` fault mode
 * (src/sim/control/malformed.ts) spoils real answers: truncated JSON, an answer cut off
 * mid-body, HTML error pages, values of the wrong type. Each must become an ApiError
 * naming the request, never an uncaught exception, and never a wrong plan.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../src/api/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { SOAK, timeLimit } from './support/budget.js';
import { cli, simEnv } from './support/cli.js';
import { estateDir } from './support/estate.js';
import { duplicates, setFaults, simState, simStats } from './support/sim-tools.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

const P = '/api/v01/draas/demo';
/**
 * Plans made through wrong-type answers (`npm run soak`: 200; a stress of 200 at 3% found the
 * last misreads). Not fewer than 10: about half of them complete, and the test needs one that
 * did (ten all failing: 0.1%).
 */
const WRONG_TYPE_PLANS = Number(process.env['SB_MALFORMED_PLANS'] ?? 10);
/** Applies through 20% spoiled answers before the clean one, and the tenants they create. */
const SPOILED_APPLIES = SOAK ? 6 : 3;
const SPOILED_TENANTS = SOAK ? 30 : 15;

/** What a plan decides, without the parts that legitimately differ between runs. */
function decisions(planJson: string): string[] {
  const plan = JSON.parse(planJson) as { changes: { address: string; action: string; patch?: unknown }[] };
  return plan.changes.map((c) => `${c.action} ${c.address} ${JSON.stringify(c.patch ?? null)}`).sort();
}

describe('reliability: malformed platform answers', () => {
  it('docs/simulator.md malformed mode: every truncated, cut-off or HTML answer to the API client is an ApiError naming the request', async () => {
    const client = await ApiClient.connect({ baseUrl: sim.url, auth: { username: 'admin', password: 'admin' } });
    // Values of the wrong type are JSON the client cannot judge alone: the plan test below covers them.
    await setFaults(sim.url, { malformed: 1, malformedKinds: ['truncated', 'cut', 'html'] });
    const codes = new Map<string, number>();
    try {
      for (let i = 0; i < 30; i++) {
        const search = ['', 'demo', 'x'][i % 3] ?? '';
        const error = await client
          .listPages({
            path: `${P}/groups`,
            itemsKey: 'groups',
            style: 'token',
            query: { search },
            role: 'groups.list',
          })
          .catch((e: unknown) => e);
        expect(error, `request ${i}: ${JSON.stringify(error)}`).toBeInstanceOf(ApiError);
        const e = error as ApiError;
        expect(e.method).toBe('GET');
        expect(e.message).toMatch(/^GET \/api\/v01\/(draas\/demo\/\w+|auth\/\w+)/);
        codes.set(e.code, (codes.get(e.code) ?? 0) + 1);
      }
    } finally {
      await setFaults(sim.url, { malformed: 0 });
      await client.close();
    }
    const refused = await fetch(`${sim.url}/_sim/faults`, { method: 'POST', body: JSON.stringify({ malformed: 2 }) });
    expect(refused.status).toBe(400);
    const stats = await simStats(sim.url);
    console.log(
      `[malformed] client: ${JSON.stringify(Object.fromEntries(codes))}, injected ${JSON.stringify(stats.faults)}`,
    );
    expect(codes.get('SB_API_BAD_RESPONSE') ?? 0).toBeGreaterThan(0);
    expect([...codes.keys()].every((c) => ['SB_API_BAD_RESPONSE', 'SB_API_NETWORK', 'SB_API_SERVER'].includes(c))).toBe(
      true,
    );
  }, 60_000);

  it(
    'Doc1 §2 + docs/plans.md: plans made through 30% malformed answers are the clean plan or fail naming a request; apply converges without duplicates',
    async () => {
      const dir = await estateDir(20, { prefix: 'mal' });
      const manifests = join(dir, 'manifests');
      const env = simEnv(sim.url);
      // An applied estate with a few declared changes on top, so a misread would show as a wrong change.
      expect((await cli(['apply', manifests, '--yes'], { cwd: dir, env })).code).toBe(0);
      const estate = join(manifests, 'estate.yaml');
      await writeFile(
        estate,
        (await readFile(estate, 'utf8'))
          .replace('markup: 1\n', 'markup: 9\n')
          .replace('entitlement: 3 }', 'entitlement: 4 }'),
      );
      const before = (await simStats(sim.url)).total;
      const clean = await cli(['plan', manifests, '--format', 'json'], { cwd: dir, env });
      expect(clean.code).toBe(0);
      // The share of wrong-type answers that lets about half the plans meet none, from the requests a plan sends.
      const planRequests = (await simStats(sim.url)).total - before;
      const wrongTypeRate = 1 - 0.5 ** (1 / planRequests);
      const expected = decisions(clean.stdout);
      expect(expected.length).toBeGreaterThan(1);

      const outcomes: string[] = [];
      try {
        // 30% of answers spoiled in every way: plans fail naming the request. Then answers carrying
        // a value of the wrong type, at the rate above: about half the plans meet none and complete,
        // the others meet one and must either fail naming it or be the clean plan. (A fixed 1.5 %
        // let 5 or 6 of 10 complete at ~45 requests a plan, 0 to 4 at ~90; ten all failing at one
        // half: 0.1 %.)
        for (let i = 0; i < 4 + WRONG_TYPE_PLANS; i++) {
          const faults = i < 4 ? { malformed: 0.3 } : { malformed: wrongTypeRate, malformedKinds: ['wrong-type'] };
          await setFaults(sim.url, faults);
          const run = await cli(['plan', manifests, '--format', 'json'], { cwd: dir, env });
          expect(run.stderr, run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
          if (run.code === 0) {
            expect(decisions(run.stdout), 'a plan made through malformed answers equals the clean plan').toEqual(
              expected,
            );
            outcomes.push('same plan');
          } else {
            expect(run.code).toBe(1);
            // The run's error, or the problem of the object whose planning needed the read.
            expect(run.stderr).toMatch(/(Error|error SB_API_\w+): (GET|POST|PUT|DELETE) \/\S+ → /);
            outcomes.push(/→ [^:]+: ([^(\n]+)/.exec(run.stderr)?.[1]?.trim() ?? 'error');
          }
        }
        // Apply through spoiled answers (the writes take effect, the answers are garbage), then once more cleanly.
        await setFaults(sim.url, { malformed: 0.2 });
        const fresh = await estateDir(SPOILED_TENANTS, { examples: false, prefix: 'malx' });
        for (let i = 0; i < SPOILED_APPLIES; i++) {
          const run = await cli(['apply', join(fresh, 'manifests'), '--yes'], { cwd: fresh, env });
          expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
          expect([0, 1]).toContain(run.code);
        }
        await setFaults(sim.url, { malformed: 0 });
        const finish = await cli(['apply', join(fresh, 'manifests'), '--yes'], { cwd: fresh, env });
        expect([0, 1]).toContain(finish.code);
        const after = await cli(['plan', join(fresh, 'manifests'), '--detailed-exitcode'], { cwd: fresh, env });
        expect(
          after.code,
          `${finish.stdout.slice(-1500)}\n${after.stdout.slice(-1500)}\n${after.stderr.slice(-1500)}`,
        ).toBe(0);
      } finally {
        await setFaults(sim.url, { malformed: 0 });
      }
      expect(duplicates(await simState(sim.url))).toEqual([]);
      console.log(`[malformed] plans: ${JSON.stringify(outcomes)}`);
      expect(
        outcomes.filter((o) => o === 'same plan').length,
        'some plans completed through wrong-type answers',
      ).toBeGreaterThan(0);
    },
    timeLimit(180_000),
  );
});
