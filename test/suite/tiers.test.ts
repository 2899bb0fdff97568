/**
 * The tiers hold (test/suite/tiers.ts): every test file runs in exactly one, the lists name
 * only what exists, and no unit-tier file imports what starts a simulator, a process or a
 * connection: the simulator, `child_process`, a server or socket module, `fetch`, the CLI
 * runners. Helpers under test/ are followed; src/ is not (the run-time guard,
 * unit-guard.ts, catches a server or process started from there).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TIERS, tiersOf, type TierName } from './tiers.js';

const ROOT = resolve(import.meta.dirname, '../..');

function testFiles(dir = 'test'): string[] {
  if (dir === 'test/bench') return [];
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Why a file is in no tier or in two: the tiers that claim it, by folder or by name. */
function claims(file: string): string {
  const found = (Object.keys(TIERS) as TierName[]).flatMap((tier) => [
    ...TIERS[tier].folders.filter((f) => file.startsWith(f)).map((f) => `${tier} (folder ${f})`),
    ...(TIERS[tier].files.includes(file) ? [`${tier} (by name)`] : []),
  ]);
  return found.length === 0 ? 'no tier names its folder' : `claimed by ${found.join(', ')}`;
}

function tierProblems(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const tiers = tiersOf(file);
    if (tiers.length === 1) return [];
    return [
      `${file} runs in ${tiers.length === 0 ? 'no tier' : `${tiers.length} tiers (${tiers.join(', ')})`}: ${claims(file)}. ` +
        'Add its folder to one tier of test/suite/tiers.ts, or list the file in exactly one.',
    ];
  });
}

/** Modules a unit test may not import, and what each would start. */
const FORBIDDEN_MODULES: [RegExp, string][] = [
  [/^(node:)?child_process$/, 'a child process'],
  [/^(node:)?(net|http|https|http2|tls|dgram)$/, 'a server or a connection'],
  [/^undici$/, 'HTTP connections'],
  [/^playwright-core$/, 'a browser'],
];
/** Files of the repository a unit test may not import (paths from the root, .ts). */
const FORBIDDEN_FILES: [RegExp, string][] = [
  [/^src\/sim\//, 'the simulator'],
  [/^dist\//, 'the built CLI'],
  [/^test\/e2e\/cli-helpers\.ts$/, 'the CLI runner'],
  [/^test\/reliability\/support\/cli\.ts$/, 'the CLI runner'],
];

/**
 * What `file` (and the test helpers it imports, transitively) imports of the forbidden list,
 * or calls `fetch`: one line each, with the chain of imports that leads there.
 */
function forbiddenImports(file: string, read: (path: string) => string | undefined): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const visit = (path: string, chain: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = read(path);
    if (text === undefined) return;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const walk = (node: ts.Node): void => {
      let specifier: string | undefined;
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      )
        specifier = node.moduleSpecifier.text;
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [argument] = node.arguments;
        if (argument && ts.isStringLiteralLike(argument)) specifier = argument.text;
      } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'fetch')
        found.push(`${chain}: calls fetch() (a network connection)`);
      if (specifier !== undefined) {
        const module = FORBIDDEN_MODULES.find(([pattern]) => pattern.test(specifier));
        if (module) found.push(`${chain}: imports ${specifier} (${module[1]})`);
        else if (specifier.startsWith('.')) {
          const target = relative(ROOT, resolve(dirname(join(ROOT, path)), specifier))
            .replace(/\\/g, '/')
            .replace(/\.js$/, '.ts');
          const local = FORBIDDEN_FILES.find(([pattern]) => pattern.test(target));
          if (local) found.push(`${chain}: imports ${target} (${local[1]})`);
          else if (target.startsWith('test/')) visit(target, `${chain} → ${target}`);
        }
      }
      ts.forEachChild(node, walk);
    };
    walk(source);
  };
  visit(file, file);
  return found;
}

/** `vi.<name>(...)` */
const isViCall = (node: ts.Node, name: string): boolean =>
  ts.isCallExpression(node) &&
  ts.isPropertyAccessExpression(node.expression) &&
  ts.isIdentifier(node.expression.expression) &&
  node.expression.expression.text === 'vi' &&
  node.expression.name.text === name;

function containsViCall(node: ts.Node, name: string): boolean {
  return isViCall(node, name) || (ts.forEachChild(node, (child) => containsViCall(child, name) || undefined) ?? false);
}

/**
 * Unit files share their worker's modules (isolate: false), so a module another file imported
 * first is the real one whatever this file mocks: a file that calls `vi.mock` imports what it
 * tests with `await import` after a top-level `vi.resetModules()`, and resets again in
 * `afterAll` so that no mocked module reaches the next file. What `file` does otherwise.
 */
function mockProblems(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  if (!containsViCall(source, 'mock') && !containsViCall(source, 'doMock')) return [];
  const problems: string[] = [];
  let resetAt = -1;
  let firstImportAt = -1;
  let resetAfterAll = false;
  source.statements.forEach((statement, index) => {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const typeOnly = statement.importClause?.isTypeOnly === true;
      if (statement.moduleSpecifier.text.startsWith('.') && !typeOnly)
        problems.push(`${file}: imports ${statement.moduleSpecifier.text} before its mocks apply: use await import`);
    }
    if (ts.isExpressionStatement(statement) && isViCall(statement.expression, 'resetModules') && resetAt < 0)
      resetAt = index;
    const hasDynamicImport = (node: ts.Node): boolean =>
      (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) ||
      (ts.forEachChild(node, (child) => hasDynamicImport(child) || undefined) ?? false);
    if (firstImportAt < 0 && !ts.isExpressionStatement(statement) && hasDynamicImport(statement)) firstImportAt = index;
    if (
      ts.isExpressionStatement(statement) &&
      ts.isCallExpression(statement.expression) &&
      ts.isIdentifier(statement.expression.expression) &&
      statement.expression.expression.text === 'afterAll' &&
      containsViCall(statement.expression, 'resetModules')
    )
      resetAfterAll = true;
  });
  if (resetAt < 0 || (firstImportAt >= 0 && firstImportAt < resetAt))
    problems.push(`${file}: calls vi.mock but no top-level vi.resetModules() comes before its imports`);
  if (!resetAfterAll) problems.push(`${file}: calls vi.mock but does not reset the modules in afterAll`);
  return problems;
}

/** Calls what the run-time guard refuses, to prove it does. */
const RUN_TIME_GUARD_TEST = 'test/suite/unit-guard.test.ts';

const readRepoFile = (path: string) =>
  existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : undefined;
const files = testFiles();

describe('test tiers', () => {
  it('finds the test files', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('test/suite/tiers.test.ts');
  });

  it('every test file runs in exactly one tier', () => {
    expect(tierProblems(files)).toEqual([]);
  });

  it('the tiers name only folders and files that exist, each once', () => {
    const problems: string[] = [];
    const seenFolders = new Map<string, TierName>();
    for (const [tier, { folders, files: named }] of Object.entries(TIERS) as [TierName, (typeof TIERS)[TierName]][]) {
      for (const folder of folders) {
        if (!folder.startsWith('test/') || !folder.endsWith('/'))
          problems.push(`${tier}: ${folder}: write test/<folder>/`);
        for (const [other, otherTier] of seenFolders)
          if (folder.startsWith(other) || other.startsWith(folder))
            problems.push(`${folder} (${tier}) and ${other} (${otherTier}) overlap`);
        seenFolders.set(folder, tier);
      }
      for (const file of named) {
        if (!existsSync(join(ROOT, file))) problems.push(`${tier}: ${file} does not exist: remove it from the list`);
        if (folders.some((f) => file.startsWith(f)))
          problems.push(`${tier}: ${file} is in ${tier} by its folder already`);
      }
    }
    // A folder may be named before its first file exists (a tier for the tests others are adding).
    expect(problems).toEqual([]);
  });

  it('no unit-tier file imports the simulator, child_process, a server or socket module, fetch or the CLI runner', () => {
    const unit = files.filter((f) => tiersOf(f).includes('unit') && f !== RUN_TIME_GUARD_TEST);
    expect(unit.length).toBeGreaterThan(40);
    const problems = unit.flatMap((f) => forbiddenImports(f, readRepoFile));
    expect(
      problems,
      'unit tests run no simulator, process or network: list these files under e2e in test/suite/tiers.ts',
    ).toEqual([]);
  });

  it('a unit file that mocks a module imports it afresh and leaves no mock behind', () => {
    const unit = files.filter((f) => tiersOf(f).includes('unit'));
    expect(unit.flatMap((f) => mockProblems(f, readRepoFile(f) ?? ''))).toEqual([]);
    const planted = [
      "import { vi } from 'vitest';",
      "import { run } from '../../src/run/index.js';",
      "import type { Plan } from '../../src/plan/types.js';",
      "vi.mock('node:fs');",
      "const { plan } = await import('../../src/plan/index.js');",
      'vi.resetModules();',
    ].join('\n');
    expect(mockProblems('test/plan/planted.test.ts', planted)).toEqual([
      'test/plan/planted.test.ts: imports ../../src/run/index.js before its mocks apply: use await import',
      'test/plan/planted.test.ts: calls vi.mock but no top-level vi.resetModules() comes before its imports',
      'test/plan/planted.test.ts: calls vi.mock but does not reset the modules in afterAll',
    ]);
    expect(mockProblems('test/plan/plain.test.ts', "import { x } from './x.js';\n")).toEqual([]);
  });

  it('the checks catch a misplaced file (mutation)', () => {
    expect(tierProblems(['test/new-folder/a.test.ts'])).toEqual([
      expect.stringContaining('test/new-folder/a.test.ts runs in no tier: no tier names its folder'),
    ]);
    expect(tierProblems(['test/plan/planner.test.ts'])).toEqual([]);
    const planted: Record<string, string> = {
      'test/plan/planted.test.ts':
        "import { h } from './planted-helper.js';\nimport { x } from '../../src/plan/diff.js';\n",
      'test/plan/planted-helper.ts': "export { spawn } from 'node:child_process';\nimport '../e2e/cli-helpers.js';\n",
      'test/plan/planted-sim.test.ts':
        "const { startSimulator } = await import('../../src/sim/index.js');\nawait fetch(url);\n",
    };
    expect(forbiddenImports('test/plan/planted.test.ts', (p) => planted[p])).toEqual([
      'test/plan/planted.test.ts → test/plan/planted-helper.ts: imports node:child_process (a child process)',
      'test/plan/planted.test.ts → test/plan/planted-helper.ts: imports test/e2e/cli-helpers.ts (the CLI runner)',
    ]);
    expect(forbiddenImports('test/plan/planted-sim.test.ts', (p) => planted[p])).toEqual([
      'test/plan/planted-sim.test.ts: imports src/sim/index.ts (the simulator)',
      'test/plan/planted-sim.test.ts: calls fetch() (a network connection)',
    ]);
  });
});
