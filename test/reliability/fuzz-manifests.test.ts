/**
 * Bad input: seeded mutations of the examples' manifests and CSV files (2,000 in `npm test`,
 * about 220 per file and a dozen per file and mutation; 100,000 in `npm run soak`) go through
 * `loadManifests` in-process (what `validate` and `plan` run first), and a sample through the
 * real CLI (`validate`, `plan --sim`). Nothing may throw, hang, or report a failure without a
 * position. How long a case may take is checked in the soak only (a budget on a shared
 * machine fails for the neighbours' sake); a case that hangs fails the test's time limit.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { SOAK, timeLimit } from './support/budget.js';
import { cli } from './support/cli.js';
import { EXAMPLES } from './support/estate.js';
import { mutate, seeded } from './support/mutate.js';

const CASES = Number(process.env['SB_FUZZ_CASES'] ?? 2_000);
const SEED = Number(process.env['SB_FUZZ_SEED'] ?? 20261122);
/** In the soak, a single load of a mutated example never takes longer than this (the examples load in ~10 ms). */
const CASE_BOUND_MS = 2_000;

/** The file each case mutates, and the manifest to load for it (a CSV is loaded through the manifest naming it). */
const TARGETS: { file: string; load: string; kind: 'yaml' | 'csv' }[] = [
  { file: 'group.yaml', load: 'group.yaml', kind: 'yaml' },
  { file: 'resellers.yaml', load: 'resellers.yaml', kind: 'yaml' },
  { file: 'tenants/acme-corp.yaml', load: 'tenants/acme-corp.yaml', kind: 'yaml' },
  { file: 'tenants/globex.yaml', load: 'tenants/globex.yaml', kind: 'yaml' },
  { file: 'tenants/north-tenants.yaml', load: 'tenants/north-tenants.yaml', kind: 'yaml' },
  { file: 'tenants/south-tenants.yaml', load: 'tenants/south-tenants.yaml', kind: 'yaml' },
  { file: 'routing/routes.yaml', load: 'routing/routes.yaml', kind: 'yaml' },
  { file: 'tenants/acme-corp-addresses.csv', load: 'tenants/acme-corp.yaml', kind: 'csv' },
  { file: 'routing/routes.csv', load: 'routing/routes.yaml', kind: 'csv' },
];

let work: string;
const originals = new Map<string, string>();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'sb-fuzz-'));
  for (const t of TARGETS) {
    let text = await readFile(join(EXAMPLES, t.file), 'utf8');
    // The routing CSV's 1,000 rows are alike: 60 of them fuzz as well and load 15 times faster.
    if (t.file.endsWith('routes.csv')) text = text.split('\n').slice(0, 61).join('\n') + '\n';
    await cp(join(EXAMPLES, t.file), join(work, t.file));
    await writeFile(join(work, t.file), text);
    originals.set(t.file, text);
  }
});

interface Case {
  n: number;
  target: (typeof TARGETS)[number];
  text: string;
}

function caseOf(n: number): Case {
  const r = seeded(SEED + n);
  const target = TARGETS[Math.floor(r() * TARGETS.length)] ?? TARGETS[0]!;
  return { n, target, text: mutate(originals.get(target.file) ?? '', r, target.kind) };
}

/** What is wrong with a load result: errors without a usable position. */
function positionProblems(
  c: Case,
  diagnostics: {
    severity: string;
    code: string;
    message: string;
    source?: { file: string; line: number; column: number };
  }[],
): string[] {
  const lines = c.text.split('\n').length;
  return diagnostics
    .filter((d) => d.severity === 'error')
    .filter(
      (d) =>
        !d.source ||
        d.source.line < 1 ||
        d.source.column < 1 ||
        (d.source.file.endsWith(c.target.file) && d.source.line > lines + 1),
    )
    .map((d) => `case ${c.n} (${c.target.file}): ${d.code} ${d.message.slice(0, 120)} at ${JSON.stringify(d.source)}`);
}

describe('reliability: bad input fuzzing', () => {
  it(
    `docs/commands.md and docs/manifests.md: ${CASES} mutated manifests and CSV files load without a crash or a hang, every error with file:line:col`,
    async () => {
      const crashes: string[] = [];
      const slow: string[] = [];
      const unplaced: string[] = [];
      let failed = 0;
      let worst = 0;
      const begin = performance.now();
      for (let n = 0; n < CASES; n++) {
        const c = caseOf(n);
        const path = join(work, c.target.file);
        await writeFile(path, c.text);
        const start = performance.now();
        try {
          const result = await loadManifests([join(work, c.target.load)], { cwd: work, env: {} });
          if (!result.ok) failed++;
          unplaced.push(...positionProblems(c, result.diagnostics));
        } catch (error) {
          crashes.push(
            `case ${n} (${c.target.file}): ${(error as Error).stack?.split('\n').slice(0, 3).join(' | ') ?? String(error)}`,
          );
        } finally {
          await writeFile(path, originals.get(c.target.file) ?? '');
        }
        const ms = performance.now() - start;
        worst = Math.max(worst, ms);
        if (SOAK && ms > CASE_BOUND_MS) slow.push(`case ${n} (${c.target.file}): ${Math.round(ms)} ms`);
      }
      console.log(
        `[fuzz] ${CASES} cases (seed ${SEED}) in ${Math.round(performance.now() - begin)} ms: ${failed} rejected with diagnostics, ${CASES - failed} still valid, slowest ${Math.round(worst)} ms`,
      );
      expect(crashes.slice(0, 10)).toEqual([]);
      expect(slow.slice(0, 10)).toEqual([]);
      expect(unplaced.slice(0, 10)).toEqual([]);
    },
    timeLimit(240_000),
  );

  it('docs/commands.md: a sample of the cases through the real CLI: validate and plan --sim exit 0/1/2/3 with positions, never a stack trace or a hang', async () => {
    const sample = Array.from({ length: SOAK ? 32 : 8 }, (_, i) => caseOf((7919 * (i + 1)) % CASES));
    for (const [i, c] of sample.entries()) {
      const dir = await mkdtemp(join(tmpdir(), 'sb-fuzz-cli-'));
      await cp(work, dir, { recursive: true });
      await writeFile(join(dir, c.target.file), c.text);
      const args = i % 4 === 0 ? ['plan', c.target.load, '--sim'] : ['validate', c.target.load];
      const run = await cli(args, { cwd: dir, timeoutMs: 30_000 });
      const where = `case ${c.n} (${args.join(' ')}):\n${run.stdout.slice(0, 800)}\n${run.stderr.slice(0, 800)}`;
      expect(run.signal, where).toBeNull();
      expect([0, 1, 2, 3], where).toContain(run.code);
      expect(run.stderr, where).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
      if (run.code === 1 && args[0] === 'validate')
        expect(`${run.stdout}${run.stderr}`, where).toMatch(
          new RegExp(
            `${relative(dir, join(dir, c.target.file)).replace(/[.]/g, '\\.').split('/').pop() ?? ''}:\\d+:\\d+|${c.target.load.replace(/[.]/g, '\\.')}:\\d+:\\d+`,
          ),
        );
    }
  }, 120_000);
});
