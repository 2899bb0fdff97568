/**
 * docs/tutorial.md and README.md's example run as written: their commands, in order, in a
 * fresh folder (the tutorial against the simulator its step 1 starts, the example with
 * --sim), print what the page shows (uuids, journal names, timings and the simulator's
 * port masked). See tutorial-runner.ts for how blocks are read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMarkdown } from './markdown.js';
import {
  CLI,
  TutorialShell,
  applyEdit,
  mask,
  matches,
  numberedSteps,
  section,
  stepsOf,
  type Step,
} from './tutorial-runner.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BLOCK_TIMEOUT_MS = 30_000;
const README_EXAMPLE = 'An example: a manifest and its plan';

/** Runs `steps` of `page` in a fresh folder and shell, block after block. */
function runsAsWritten(page: string, steps: Step[], kinds: string[]): void {
  describe(`${page}, run from the page`, () => {
    let dir: string;
    let shell: TutorialShell;

    beforeAll(async () => {
      if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm test does)`);
      dir = await mkdtemp(join(tmpdir(), 'switchboard-docs-run-'));
      shell = await TutorialShell.open(dir);
    });

    afterAll(async () => {
      await shell?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('has blocks that run, write, edit and show files', () => {
      const found = new Set(steps.map((s) => (s.kind === 'run' && s.background ? 'background' : s.kind)));
      expect([...found].sort()).toEqual(kinds);
    });

    it('prints what the page shows, block after block', { timeout: steps.length * BLOCK_TIMEOUT_MS }, async () => {
      for (const step of steps) await check(step);
    });

    async function check(step: Step): Promise<void> {
      const where = `${page}:${step.line}`;
      if (step.kind === 'create') return shell.writeFile(step.file, step.body);
      if (step.kind === 'edit')
        return shell.writeFile(step.file, applyEdit(await shell.readFile(step.file), step.body));
      if (step.kind === 'show') {
        const actual = mask(await shell.readFile(step.file));
        expect(matches(mask(step.body), actual), `${where}: ${step.file} is not what the page shows:\n${actual}`).toBe(
          true,
        );
        return;
      }
      const lines = step.expected.split('\n').length - 1;
      const output = step.background
        ? await shell.start(step.script, lines, BLOCK_TIMEOUT_MS)
        : await shell.run(step.script, BLOCK_TIMEOUT_MS);
      const actual = mask(output, shell.port);
      if (!matches(mask(step.expected), actual)) {
        expect(actual, `${where}: the commands\n${step.script}print something else than the page`).toBe(
          mask(step.expected),
        );
      }
    }
  });
}

const read = (page: string) => parseMarkdown(readFileSync(join(ROOT, page), 'utf8'));
runsAsWritten('docs/tutorial.md', stepsOf(numberedSteps(read('docs/tutorial.md'))), [
  'background',
  'create',
  'edit',
  'run',
  'show',
]);
runsAsWritten('README.md', stepsOf(section(read('README.md'), README_EXAMPLE)), ['create', 'run']);

describe('the tutorial runner', () => {
  it('masks what differs between runs, and nothing else', () => {
    const text =
      'id 16f11d47-f75a-4f09-b5c2-e8d641ed72e7 (5 requests, 0.3 s) 197.8/s .switchboard/journal-2026-11-23T18-35-17-585Z.jsonl markup: 4';
    expect(mask(text)).toBe('id <uuid> (5 requests, <n> s) <n>/s .switchboard/journal-<time>.jsonl markup: 4');
    expect(mask('http://127.0.0.1:40457/x and &#58;40457', '40457')).toBe('http://127.0.0.1:8080/x and &#58;8080');
  });

  it('matches … lines as wildcards', () => {
    expect(matches('a\n…\nd', 'a\nb\nc\nd')).toBe(true);
    expect(matches('a\n…\nd', 'a\nb\nc')).toBe(false);
    expect(matches('# schema=…\nb', '# schema=tenant.schema.json\nb')).toBe(true);
    expect(matches('a\nb', 'a\nc')).toBe(false);
  });

  it('applies an edit only where its old lines occur exactly once', () => {
    expect(applyEdit('x\n  markup: 4\ny\n', '-  markup: 4\n+  markup: 5\n')).toBe('x\n  markup: 5\ny\n');
    expect(() => applyEdit('markup: 4\nmarkup: 4\n', '-markup: 4\n+markup: 5\n')).toThrow(/2 times/);
  });
});
