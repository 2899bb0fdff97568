/**
 * The generated sections of docs/ (benchmark figures in performance.md, the field reference
 * in manifests.md) are what their sources give: `npm run docs:generate` has been run.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/docs/generate.mjs');
const run = promisify(execFile);

async function generate(root: string, check: boolean): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, ...(check ? ['--check'] : []), '--root', root]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('generated documentation', () => {
  const copies: string[] = [];
  afterAll(async () => Promise.all(copies.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('docs/performance.md and docs/manifests.md are up to date with results.json and the schemas', async () => {
    const { code, output } = await generate(ROOT, true);
    expect(output).toBe('');
    expect(code).toBe(0);
  });

  it('goes stale when a benchmark figure changes, and is rewritten from it', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'switchboard-docs-'));
    copies.push(copy);
    await mkdir(join(copy, 'test/bench'), { recursive: true });
    await cp(join(ROOT, 'docs'), join(copy, 'docs'), { recursive: true });
    await cp(join(ROOT, 'schemas'), join(copy, 'schemas'), { recursive: true });
    const text = await readFile(join(ROOT, 'test/bench/results.json'), 'utf8');
    const results = JSON.parse(text) as { scenarios: Record<string, { wallS: number }> };
    const first = Object.values(results.scenarios)[0];
    if (!first) throw new Error('results.json holds no scenario');
    first.wallS = 1234.56;
    await writeFile(join(copy, 'test/bench/results.json'), JSON.stringify(results));

    const stale = await generate(copy, true);
    expect(stale.code).toBe(1);
    expect(stale.output).toMatch(
      /docs\/performance\.md: the performance section is not what test\/bench\/results\.json gives/,
    );
    expect((await generate(copy, false)).code).toBe(0);
    expect(await readFile(join(copy, 'docs/performance.md'), 'utf8')).toContain('| 1,234.56 |');
    expect(await generate(copy, true)).toEqual({ code: 0, output: '' });
  });
});
