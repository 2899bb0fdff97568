/**
 * The dead-export check of `npm run lint` (scripts/dead-exports.mjs) on planted
 * repositories: what it must report (an export no other file imports, a re-export nobody
 * imports through, a type nothing names) and what it must not (an import through a chain of
 * re-exports, a namespace member, an `import('…').Type`, a destructured dynamic import, a
 * benchmark's import from dist/ (also through `join(ROOT, 'dist/…')`), a type its own module
 * uses in a signature).
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript script without declarations
import { deadExports } from '../../scripts/dead-exports.mjs';

type Finding = { file: string; line: number; name: string; reexport: boolean };
const check = deadExports as (root: string) => Finding[];

async function repo(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'sb-dead-exports-'));
  const all = {
    'tsconfig.test.json': JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
      },
      include: ['src', 'test'],
    }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

describe('dead exports', () => {
  it('reports exports and re-exports no other file imports, and types nothing names', async () => {
    const root = await repo({
      'src/values.ts': [
        'export function used(): number { return 1; }',
        'export function unused(): number { return used(); }',
        'export const member = 2;',
        'export const fromBench = 3;',
        'export const dynamic = 4;',
        'export const computed = 5;',
        'export interface InSignature { a: number }',
        'export function shaped(x: InSignature): number { return x.a; }',
        'export type Nameless = string;',
        'export interface Typed { b: number }',
        '',
      ].join('\n'),
      'src/index.ts': "export { used, unused, shaped, computed } from './values.js';\n",
      'src/hub.ts': "export * from './index.js';\n",
      'src/consumer.ts': [
        "import { used, shaped } from './hub.js';",
        "import * as values from './values.js';",
        "type T = import('./values.js').Typed;",
        'export const all = (t: T) => used() + shaped({ a: t.b }) + values.member;',
        "export async function later(): Promise<number> { const { dynamic } = await import('./values.js'); return dynamic; }",
        '',
      ].join('\n'),
      'test/consumer.test.ts': "import { all, later } from '../src/consumer.js';\nvoid all;\nvoid later;\n",
      'scripts/bench.mjs': "const { fromBench } = await import('../dist/values.js');\nconsole.log(fromBench);\n",
      // A computed specifier, through the index's re-export: both count.
      'test/bench/serve.mjs':
        "import { join } from 'node:path';\nconst { computed } = await import(join(ROOT, 'dist/index.js'));\nconsole.log(computed);\n",
    });
    expect(check(root).map((f) => `${f.file}:${f.line} ${f.reexport ? 're-export' : 'export'} ${f.name}`)).toEqual([
      'src/index.ts:1 re-export unused',
      'src/values.ts:2 export unused',
      'src/values.ts:9 export Nameless',
    ]);
  });
});
