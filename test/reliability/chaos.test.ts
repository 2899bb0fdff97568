/**
 * Chaos convergence: examples/ and a generated estate (100 tenants in `npm test`, 2,000 rich
 * ones in `npm run soak`) applied through 20 % injected faults (500, 503, 429 with
 * Retry-After, connection resets), answers lost after the platform acted, latency spikes,
 * and a simulator clock that jumps past the access tokens' lifetime while the run goes.
 * Apply is repeated (bounded) until the plan is empty. Every kind of fault must have
 * happened at least once, whatever the size: a run that met none proves nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { startChaosProxy, handledWrites, type ChaosProxy, type WireRecord } from './support/chaos-proxy.js';
import { timeLimit } from './support/budget.js';
import { cli, simEnv } from './support/cli.js';
import { estateDir } from './support/estate.js';
import { readJournals, writeIntents } from './support/journal-check.js';
import { pendingChanges, writesOutsidePlan, type PlanFile } from './support/plan-check.js';
import { advanceClock, duplicates, setFaults, simState, simStats } from './support/sim-tools.js';

const TENANTS = Number(process.env['SB_CHAOS_TENANTS'] ?? 100);
const MAX_ROUNDS = Number(process.env['SB_CHAOS_ROUNDS'] ?? 8);

let sim: RunningSimulator;
let proxy: ChaosProxy;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  proxy = await startChaosProxy(sim.url, { loseRate: 0.03, spikeRate: 0.03, spikeMs: [200, 1200] });
});
afterAll(async () => {
  await proxy.close();
  await sim.close();
});

interface Round {
  plan?: PlanFile;
  planCode: number | null;
  applyCode?: number | null;
  wire: WireRecord[];
  error?: string;
}

describe('reliability: chaos convergence', () => {
  it(
    `Doc1 §8 + docs/simulator.md: examples/ and ${TENANTS} tenants converge through 20% faults, lost answers, spikes and expiring tokens`,
    async () => {
      const dir = await estateDir(TENANTS, { rich: process.env['SB_CHAOS_RICH'] === '1' });
      const manifests = join(dir, 'manifests');
      const env = simEnv(proxy.url);
      await setFaults(sim.url, { rate: 0.2, statuses: [500, 503, 429], resetConnections: true });
      // The access token lives 2 minutes on the sim clock: 30 s every half second of the run
      // expires it every 2 s, behind the client's back (its own clock says the token is fresh).
      let clockJumps = 0;
      const ticker = setInterval(() => void advanceClock(sim.url, 30).then(() => clockJumps++), 500);
      const rounds: Round[] = [];
      let converged = false;
      try {
        for (let i = 0; i < MAX_ROUNDS && !converged; i++) {
          const start = proxy.records.length;
          const planFile = join(dir, `plan-${i}.json`);
          const planned = await cli(['plan', manifests, '--out', planFile, '--concurrency', '32'], { cwd: dir, env });
          await writeFile(join(dir, `plan-${i}.out`), `${planned.stdout}\n--- stderr\n${planned.stderr}`);
          const round: Round = {
            planCode: planned.code,
            wire: [],
            ...(planned.code === 0 ? {} : { error: planned.stderr.slice(-400) }),
          };
          rounds.push(round);
          if (planned.code !== 0) {
            expect(planned.stderr, 'a failed plan names the failing call').toMatch(/(GET|POST|PUT|DELETE) \/\S+ →/);
            round.wire = proxy.records.slice(start);
            continue;
          }
          round.plan = JSON.parse(await readFile(planFile, 'utf8')) as PlanFile;
          if (pendingChanges(round.plan) === 0) {
            converged = true;
            round.wire = proxy.records.slice(start);
            break;
          }
          const applied = await cli(['apply', manifests, '--plan', planFile, '--yes', '--concurrency', '32'], {
            cwd: dir,
            env,
          });
          round.applyCode = applied.code;
          await writeFile(join(dir, `apply-${i}.out`), `${applied.stdout}\n--- stderr\n${applied.stderr}`);
          if (applied.code !== 0) round.error = applied.stdout.slice(-600);
          expect(
            [0, 1],
            `apply exits 0 or 1 (partial), never refused or crashed:\n${applied.stderr.slice(-2000)}`,
          ).toContain(applied.code);
          expect(applied.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
          round.wire = proxy.records.slice(start);
        }
      } finally {
        clearInterval(ticker);
        await setFaults(sim.url, { rate: 0 });
      }
      expect(
        converged,
        `converged (outputs in ${dir}) within ${MAX_ROUNDS} rounds: ${JSON.stringify(
          rounds.map((r) => [r.planCode, r.applyCode, r.plan?.summary, r.error]),
          null,
          1,
        )}`,
      ).toBe(true);
      const clean = await cli(['plan', manifests, '--detailed-exitcode'], { cwd: dir, env: simEnv(sim.url) });
      expect(clean.code, clean.stdout.slice(-2000)).toBe(0);

      expect(duplicates(await simState(sim.url))).toEqual([]);

      // No update or delete that the applied plan did not contain.
      for (const round of rounds) {
        if (round.plan && round.applyCode !== undefined)
          expect(writesOutsidePlan(round.plan, handledWrites(round.wire))).toEqual([]);
      }

      // The journal accounts for every write the platform handled, and /_sim/stats agrees with the wire.
      const journals = await readJournals(join(dir, '.switchboard'));
      expect(journals.corrupt).toEqual([]);
      expect(journals.torn).toEqual([]);
      const intents = writeIntents(journals.lines);
      // A write whose answer the proxy lost is repeated by the client within the same journalled
      // request when it is idempotent (PUT, DELETE): only writes whose answer came back count one
      // intent each; a lost one needs an intent for its path all the same.
      const seen = new Map<string, { answered: number; lost: number }>();
      for (const w of handledWrites(proxy.records).filter((r) => r.path.startsWith('/api/'))) {
        const key = `${w.method} ${decodeURIComponent(w.path)}`;
        const entry = seen.get(key) ?? { answered: 0, lost: 0 };
        if (w.lost) entry.lost++;
        else entry.answered++;
        seen.set(key, entry);
      }
      const unaccounted = [...seen]
        .filter(([key, n]) => n.answered > (intents.get(key) ?? 0) || (intents.get(key) ?? 0) === 0)
        .map(([key, n]) => `${key}: ${n.answered} answered + ${n.lost} lost, ${intents.get(key) ?? 0} journalled`);
      expect(unaccounted).toEqual([]);
      const routingTables = new Set(
        journals.lines
          .filter((l) => l.type === 'intent' && l.method === 'ROUTING')
          .map((l) => String(l.path).replace(/^routing\//, '/')),
      );
      const routingWrites = handledWrites(proxy.records).filter(
        (r) => !r.path.startsWith('/api/') && !r.path.startsWith('/_sim/'),
      );
      expect(routingWrites.filter((w) => ![...routingTables].some((t) => w.path.startsWith(t)))).toEqual([]);

      const stats = await simStats(sim.url);
      const statsWrites = Object.entries(stats.byRoute)
        .filter(([k]) => !k.startsWith('GET ') && k.includes(' /api/') && !k.includes('/auth/'))
        .reduce((n, [, c]) => n + c, 0);
      const wireWrites = proxy.records.filter(
        (r) =>
          r.method !== 'GET' &&
          r.path.startsWith('/api/') &&
          !r.path.startsWith('/api/v01/auth/') &&
          r.status !== undefined &&
          !r.injected,
      ).length;
      expect(statsWrites).toBe(wireWrites);

      const injected = Object.values(stats.faults).reduce((a, b) => a + b, 0);
      const lost = proxy.records.filter((r) => r.lost).length;
      const spikes = proxy.records.filter((r) => r.spikeMs > 0).length;
      const expired = proxy.records.filter((r) => r.status === 401 && !r.injected).length;
      // What the run went through: each kind of fault at least once, or the size proved nothing.
      const faults = stats.faults as Record<string, number | undefined>;
      const met = Object.fromEntries(['429', '500', '503', 'reset'].map((k) => [k, faults[k] ?? 0]));
      for (const [what, count] of Object.entries({ ...met, lost, spikes, clockJumps, expired }))
        expect(count, `${what}: met at least once (a bigger estate: SB_CHAOS_TENANTS)`).toBeGreaterThan(0);
      const applies = rounds.filter((r) => r.applyCode !== undefined).length;
      console.log(
        `[chaos] ${TENANTS} tenants + examples: ${proxy.records.length} requests, ${injected} faults injected by the simulator ${JSON.stringify(stats.faults)}, ${lost} answers lost after the write, ${spikes} latency spikes, ${clockJumps} clock jumps of 30 s; ` +
          `${expired} expired tokens met, rounds ${rounds.length} (${applies} applies, ${rounds.filter((r) => r.planCode !== 0).length} failed plans), ${intents.size} distinct write paths journalled, ${statsWrites} platform writes handled`,
      );
    },
    timeLimit(300_000),
  );
});
