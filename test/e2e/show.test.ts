/**
 * `show` prints a saved plan exactly as `plan` printed it (every format, the golden plans
 * and a real plan), with no connection; a plan file changed by one byte is refused (exit
 * 3) by `show` and by `apply --plan`, before anything is sent.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePlanFile } from '../../src/plan/plan-file.js';
import { renderJson } from '../../src/plan/render-json.js';
import { renderMarkdown } from '../../src/plan/render-markdown.js';
import { renderText } from '../../src/plan/render-text.js';
import type { Plan } from '../../src/plan/types.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { agreedFieldsPlan, emptyPlan, samplePlan } from '../fixtures/plans/sample-plan.js';
import { EXAMPLES, runCli, simEnv } from './cli-helpers.js';
import { builtHtml } from './html-helpers.js';

const FORMATS = ['text', 'markdown', 'json', 'html'] as const;
const GOLDEN = resolve(import.meta.dirname, '../fixtures/plans');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-show-'));
});

describe('switchboard show PLAN_FILE: the golden plans', () => {
  const cases: [string, () => Plan][] = [
    ['sample', samplePlan],
    ['empty', () => emptyPlan(1)],
    ['every optional field', agreedFieldsPlan],
  ];

  for (const [name, make] of cases) {
    it(`prints the ${name} plan in every format as the renderers do, with no configuration`, async () => {
      const file = join(dir, `${name.replace(/ /g, '-')}.json`);
      await writePlanFile(file, make());
      const expected: Record<(typeof FORMATS)[number], string> = {
        text: renderText(make(), { color: false }),
        markdown: renderMarkdown(make()),
        json: await readFile(file, 'utf8'),
        html: await builtHtml(make()),
      };
      for (const format of FORMATS) {
        const shown = await runCli(['show', file, '--format', format], { cwd: dir });
        expect(shown.stderr, format).toBe('');
        expect(shown.code, format).toBe(0);
        expect(shown.stdout, format).toBe(expected[format]);
      }
    });
  }

  it('matches the golden text and JSON files of the sample plan', async () => {
    const file = join(dir, 'golden.json');
    await writePlanFile(file, samplePlan());
    // (sample.md is rendered with a maximum of blocks and an artifact link, which show does not take.)
    for (const [format, golden] of [
      ['text', 'sample.txt'],
      ['json', 'sample.json'],
    ] as const) {
      const shown = await runCli(['show', file, '--format', format], { cwd: dir });
      expect(shown.stdout).toBe(await readFile(join(GOLDEN, golden), 'utf8'));
    }
  });

  it('refuses a plan file without a digest (exit 3), printing nothing of it', async () => {
    const file = join(dir, 'unsealed.json');
    const { digest: _digest, ...unsealed } = JSON.parse(renderJson(samplePlan())) as Plan;
    await writeFile(file, JSON.stringify(unsealed));
    const shown = await runCli(['show', file], { cwd: dir });
    expect(shown.code).toBe(3);
    expect(shown.stderr).toContain('carries no digest');
    expect(shown.stdout).toBe('');
  });
});

describe('switchboard show: a real plan, and a plan file changed after it was made', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('plan --out and show print the same bytes, in every format', { timeout: 120_000 }, async () => {
    for (const format of FORMATS) {
      const file = join(dir, `real-${format}.json`);
      const planned = await runCli(['plan', EXAMPLES, '--out', file, '--format', format], {
        env: simEnv(sim.url),
        cwd: dir,
      });
      expect(planned.code, planned.stderr).toBe(0);
      const shown = await runCli(['show', file, '--format', format], { cwd: dir });
      expect(shown.code).toBe(0);
      expect(shown.stdout.length, format).toBeGreaterThan(1_000);
      expect(shown.stdout === planned.stdout, `${format}: show differs from plan`).toBe(true);
    }
  });

  it('one byte changed (a reason, not a change) is refused with exit 3 by show and by apply --plan', async () => {
    const manifests = join(dir, 'manifests');
    await cp(EXAMPLES, manifests, { recursive: true });
    const file = join(dir, 'reviewed.json');
    const planned = await runCli(['plan', manifests, '--out', file], { env: simEnv(sim.url), cwd: dir });
    expect(planned.code).toBe(0);
    const text = await readFile(file, 'utf8');
    const at = text.indexOf('"reason": "declared, not found live"') + '"reason": "d'.length;
    expect(at).toBeGreaterThan('"reason": "d'.length);
    const changed = `${text.slice(0, at)}D${text.slice(at + 1)}`;
    expect(changed.length).toBe(text.length);
    await writeFile(file, changed);

    const shown = await runCli(['show', file], { cwd: dir });
    expect(shown.code).toBe(3);
    expect(shown.stdout).toBe('');
    expect(shown.stderr).toContain(`${file} was changed after switchboard wrote it`);

    const applied = await runCli(['apply', manifests, '--plan', file, '--yes', '--journal', join(dir, 'j.jsonl')], {
      env: simEnv(sim.url),
      cwd: dir,
    });
    expect(applied.code).toBe(3);
    expect(applied.stderr).toContain(`${file} was changed after switchboard wrote it`);
    expect(applied.stderr).toMatch(/records the digest sha256:[0-9a-f]{64}, its content has sha256:[0-9a-f]{64}/);
    expect(applied.stdout).toBe('');
    // Refused before connecting: no journal, and the changes are still to be made.
    expect(existsSync(join(dir, 'j.jsonl'))).toBe(false);
    const again = await runCli(['plan', manifests, '--detailed-exitcode'], { env: simEnv(sim.url), cwd: dir });
    expect(again.code).toBe(2);
    await writeFile(file, text);
    expect((await runCli(['show', file], { cwd: dir })).code).toBe(0);
  });
});
