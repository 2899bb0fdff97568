/**
 * The case folders of test/cases/ (docs/development.md "Case folders"): for each, the real
 * CLI runs the case's command against the simulator, reset to the case's seed, in a copy of
 * the folder; its exit code, its stdout and stderr, and the plan file it wrote
 * (`--out plan.json`, added to every `plan`) must be the expected ones, normalised.
 * `UPDATE_GOLDEN=1 npx vitest run test/cases` writes them instead: review the diff.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { runCli, simEnv } from '../e2e/cli-helpers.js';
import { normalise, normalisePlan, overlaySeed, readCases, writesOf, type CaseSpec } from './case-folder.js';

const UPDATE = process.env['UPDATE_GOLDEN'] === '1';
const cases = readCases();

let sim: RunningSimulator;
let work: string;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  work = await mkdtemp(join(tmpdir(), 'sb-cases-'));
});
afterAll(async () => {
  await sim?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

interface Outputs {
  'stdout.txt': string;
  'stderr.txt': string;
  'plan.json'?: string;
}

interface Run {
  code: number;
  outputs: Outputs;
  /** Requests the simulator saw, and those of them that change something (not logging in or out). */
  requests: number;
  writes: number;
}

async function run(spec: CaseSpec): Promise<Run> {
  const seed = spec.seed ? overlaySeed(defaultSeed(), spec.seed) : defaultSeed();
  const reset = await fetch(`${sim.url}/_sim/reset`, { method: 'POST', body: JSON.stringify(seed) });
  if (reset.status !== 200) throw new Error(`test/cases/${spec.name}/seed.yaml: ${await reset.text()}`);
  const dir = join(work, spec.name);
  await mkdir(dir);
  await cp(join(spec.dir, 'manifests'), join(dir, 'manifests'), { recursive: true });
  const args =
    spec.args[0] === 'plan' && !spec.args.includes('--out') ? [...spec.args, '--out', 'plan.json'] : spec.args;
  const result = await runCli(args, { env: simEnv(sim.url, spec.user), cwd: dir });
  const where = { dir, url: sim.url };
  const planFile = join(dir, 'plan.json');
  const stats = (await (await fetch(`${sim.url}/_sim/stats`)).json()) as {
    total?: number;
    byRoute?: Record<string, number>;
  };
  return {
    code: result.code,
    requests: stats.total ?? 0,
    writes: writesOf(stats.byRoute ?? {}),
    outputs: {
      'stdout.txt': normalise(result.stdout, where),
      'stderr.txt': normalise(result.stderr, where),
      ...(existsSync(planFile) ? { 'plan.json': normalisePlan(await readFile(planFile, 'utf8'), where) } : {}),
    },
  };
}

/** The expected outputs; an empty stderr and a missing plan file have no file. */
async function expected(spec: CaseSpec): Promise<Outputs> {
  const read = async (name: string) => {
    const file = join(spec.dir, 'expected', name);
    return existsSync(file) ? readFile(file, 'utf8') : undefined;
  };
  const plan = await read('plan.json');
  return {
    'stdout.txt': (await read('stdout.txt')) ?? '(no expected stdout: run UPDATE_GOLDEN=1 npx vitest run test/cases)',
    'stderr.txt': (await read('stderr.txt')) ?? '',
    ...(plan === undefined ? {} : { 'plan.json': plan }),
  };
}

async function writeExpected(spec: CaseSpec, outputs: Outputs): Promise<void> {
  const dir = join(spec.dir, 'expected');
  await mkdir(dir, { recursive: true });
  for (const name of ['stdout.txt', 'stderr.txt', 'plan.json'] as const) {
    const text = outputs[name];
    const file = join(dir, name);
    if (text === undefined || (name === 'stderr.txt' && text === '')) await rm(file, { force: true });
    else await writeFile(file, text);
  }
}

describe('case folders (test/cases/<name>/)', () => {
  it('finds the cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
  });

  it.each(cases.map((c): [string, CaseSpec] => [`${c.name}: ${c.title}`, c]))('%s', async (_name, spec) => {
    const { code, outputs, requests, writes } = await run(spec);
    if (UPDATE) await writeExpected(spec, outputs);
    expect(outputs, `test/cases/${spec.name}/expected/ (UPDATE_GOLDEN=1 rewrites it)`).toEqual(await expected(spec));
    expect(code, outputs['stderr.txt'] || outputs['stdout.txt'].slice(-1500)).toBe(spec.exitCode);
    if (spec.requests !== undefined) expect(requests, 'requests the simulator saw').toBe(spec.requests);
    if (spec.writes !== undefined) expect(writes, 'writes the simulator saw').toBe(spec.writes);
  });
});
