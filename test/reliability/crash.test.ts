/**
 * Crash safety: `apply` killed with SIGKILL at seeded points (5 in `npm test`, 60 in
 * `npm run soak`): the first of every five during the plan, the others after a seeded number
 * of journal intents (between an intent and its request, with requests in flight, while the
 * journal is being synced). After every kill: no duplicate on the platform, every journal
 * readable (a torn last line is tolerated and reported), the last-applied record readable;
 * after every fifth kill the next apply runs to the end and the plan is empty.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { readLastApplied } from '../../src/state/last-applied.js';
import { timeLimit } from './support/budget.js';
import { cli, simEnv } from './support/cli.js';
import { estateDir, estateDocuments } from './support/estate.js';
import { readJournals } from './support/journal-check.js';
import { seeded } from './support/mutate.js';
import { duplicates, simState } from './support/sim-tools.js';

const KILLS = Number(process.env['SB_CRASH_KILLS'] ?? 5);
const PER_BATCH = 5;
const TENANTS_PER_BATCH = 40;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, latencyMs: 6 });
});
afterAll(async () => {
  await sim.close();
});

async function intentCount(stateDir: string): Promise<number> {
  const names = (await readdir(stateDir).catch(() => [] as string[])).filter((n) => n.startsWith('journal-'));
  let count = 0;
  for (const n of names)
    count += ((await readFile(join(stateDir, n), 'utf8').catch(() => '')).match(/"type":"intent"/g) ?? []).length;
  return count;
}

describe('reliability: crash safety', () => {
  it(
    `docs/commands.md apply: ${KILLS} SIGKILLs at random points; no duplicates, journals and last-applied record never corrupt, the next apply converges`,
    async () => {
      const dir = await estateDir(0, { examples: false });
      const manifests = join(dir, 'manifests');
      const stateDir = join(dir, '.switchboard');
      const env = simEnv(sim.url);
      const random = seeded(Number(process.env['SB_CRASH_SEED'] ?? 10));
      const killedAt: string[] = [];
      let torn = 0;
      let kills = 0;
      let batches = 0;
      let needBatch = true;
      for (let runs = 0; kills < KILLS && runs < KILLS * 2; runs++) {
        if (needBatch) {
          await writeFile(
            join(manifests, `batch-${batches}.yaml`),
            estateDocuments(TENANTS_PER_BATCH, 20, `crash${batches}`),
          );
          batches++;
          needBatch = false;
        }
        const before = await intentCount(stateDir);
        // Kill points: one in five during planning (no intent yet), the rest after a seeded number of intents.
        const target = kills % PER_BATCH === 0 ? 0 : 1 + Math.floor(random() * 60);
        const run = await cli(['apply', manifests, '--yes', '--concurrency', String(1 + Math.floor(random() * 6))], {
          cwd: dir,
          env,
          killWhen: async (child) => {
            const delay = 150 + random() * 400;
            for (let waited = 0; child.exitCode === null; waited += 10) {
              if (target === 0 ? waited >= delay : (await intentCount(stateDir)) - before >= target) return;
              await new Promise((r) => setTimeout(r, 10));
            }
          },
        });
        const killed = run.signal === 'SIGKILL';
        killedAt.push(
          killed ? `${(await intentCount(stateDir)) - before} intents` : `finished (exit ${String(run.code)})`,
        );
        if (!killed) {
          // The run ended before its kill point: it must have converged that batch.
          expect(run.code, run.stdout.slice(-1000)).toBe(0);
          needBatch = true;
          continue;
        }
        kills++;
        await new Promise((r) => setTimeout(r, 50)); // requests already on the wire land

        expect(duplicates(await simState(sim.url)), `after kill ${kills}`).toEqual([]);
        const journals = await readJournals(stateDir);
        expect(journals.corrupt, `after kill ${kills}`).toEqual([]);
        torn += journals.torn.length;
        const records = (await readdir(stateDir).catch(() => [] as string[])).filter((n) =>
          /^last-applied\.[^.]+\.json$/.test(n),
        );
        for (const r of records) await expect(readLastApplied(join(stateDir, r))).resolves.toBeInstanceOf(Map);

        if (kills % PER_BATCH === 0) {
          const finish = await cli(['apply', manifests, '--yes'], { cwd: dir, env });
          expect(finish.code, finish.stdout.slice(-1500)).toBe(0);
          expect(finish.stderr, "the killed run's lock is taken over").toMatch(/taken over/);
          const plan = await cli(['plan', manifests, '--detailed-exitcode'], { cwd: dir, env });
          expect(plan.code, plan.stdout.slice(-1500)).toBe(0);
          expect(duplicates(await simState(sim.url))).toEqual([]);
          needBatch = true;
        }
      }
      const state = await simState(sim.url);
      const tenants = (state.tables['tenants'] ?? []).filter((t) => String(t['name']).startsWith('crash'));
      expect(tenants).toHaveLength(batches * TENANTS_PER_BATCH);
      console.log(
        `[crash] ${kills} kills survived (${killedAt.length - kills} runs finished before their kill point), ${torn} torn journal lines tolerated; kill points: ${killedAt.join(', ')}`,
      );
      expect(kills).toBe(KILLS);
      expect(
        killedAt.filter((k) => /^[1-9]\d* intents$/.test(k)).length,
        'kills with writes under way',
      ).toBeGreaterThan(0);
    },
    timeLimit(240_000),
  );
});
