/**
 * The architecture's rules, read from the source files against docs/architecture.md
 * "Layers": the layer table (what each folder may import, parsed from the page: the page is
 * the rule), no import cycle, and that the engine never names a kind. Plain TypeScript: every
 * file under src/ is parsed with the compiler's parser (imports, dynamic imports, re-exports
 * and string literals), nothing is executed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { kinds } from '../src/kinds/index.js';
import { ROUTING_ROW } from '../src/providers/index.js';
import { folderOf, forbiddenTargets, importCycles, parseLayerTable, violations, type LayerRow } from './layer-table.js';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

/** Folders whose code must work from the kind table and the providers, never from a kind's name. */
const ENGINE = [
  'src/plan/',
  'src/apply/',
  'src/state/',
  'src/run/',
  'src/providers/platform.ts',
  'src/providers/types.ts',
  'src/providers/index.ts',
];

/**
 * Files that still break a rule, each with the reason and who removes the entry; the goal
 * is an empty list. A listed file that no longer breaks the rule fails the test too.
 */
const PENDING_KIND_NAMES: Record<string, string> = {};

interface SourceFile {
  /** `src/...`, with forward slashes. */
  path: string;
  /** Resolved `src/...` paths of the files it imports (relative imports only). */
  imports: string[];
  /** The same without the type-only imports, which the compiler erases: what can form a cycle at run time. */
  runtimeImports: string[];
  /** The text of every string literal and template part. */
  strings: string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function read(file: string): SourceFile {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const specifiers: { text: string; typeOnly: boolean }[] = [];
  const strings: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push({ text: node.moduleSpecifier.text, typeOnly: isTypeOnly(node) });
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) specifiers.push({ text: argument.text, typeOnly: false });
    }
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node))
      strings.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const local = specifiers
    .filter((s) => s.text.startsWith('.'))
    .map((s) => ({
      ...s,
      path: relative(ROOT, resolve(dirname(file), s.text))
        .replace(/\\/g, '/')
        .replace(/\.js$/, '.ts'),
    }));
  return {
    path: relative(ROOT, file).replace(/\\/g, '/'),
    imports: local.map((s) => s.path),
    runtimeImports: local.filter((s) => !s.typeOnly).map((s) => s.path),
    strings,
  };
}

/** `import type …`, `export type …`, or an import whose every named binding is a type. */
function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return (
      !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)
    );
  }
  const clause = node.importClause;
  if (!clause) return false; // `import './x.js'`: run for its effects
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

const files = sourceFiles(SRC).map(read);
const under = (path: string, ...prefixes: string[]) => prefixes.some((p) => path.startsWith(p));

const rows = parseLayerTable(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
const srcFolders = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `${entry.name}/`);

/** Engine files with a string literal that is a kind's name (the kind table's, or a provider's). */
function kindNameLiterals(sources: readonly SourceFile[]): Map<string, string[]> {
  const names = new Set([...kinds.map((k) => k.kind), ROUTING_ROW]);
  const found = new Map<string, string[]>();
  for (const file of sources) {
    if (!under(file.path, ...ENGINE)) continue;
    const hits = [...new Set(file.strings.filter((s) => names.has(s)))];
    if (hits.length > 0) found.set(file.path, hits);
  }
  return found;
}

describe('architecture rules', () => {
  it('reads every source file', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(files.find((f) => f.path === 'src/cli/start.ts')?.imports).toContain('src/cli/program.ts');
  });

  it('docs/architecture.md has one layer row per folder of src/, and no row without a folder', () => {
    expect(rows.map((r) => r.folder).sort()).toEqual([...srcFolders].sort());
    for (const row of rows)
      for (const allowed of row.allowed)
        expect(srcFolders, `${row.folder} may import ${allowed}: no such folder`).toContain(
          `${allowed.split('/')[0]}/`,
        );
  });

  it.each(rows.map((row): [string, LayerRow] => [row.folder, row]))(
    'src/%s imports only what its row of the layer table lists',
    (_folder, row) => {
      expect(violations(row, files), `docs/architecture.md: ${row.folder} may import ${row.cell}`).toEqual([]);
    },
  );

  it('no import cycle among the modules of src/ (type-only imports are erased and form none)', () => {
    expect(importCycles(files.map((f) => ({ path: f.path, imports: f.runtimeImports })))).toEqual([]);
  });

  it('the engine names no kind: plan, apply, state, run and the platform provider work from the kind table', () => {
    const found = kindNameLiterals(files);
    const unexpected = [...found]
      .filter(([path]) => !(path in PENDING_KIND_NAMES))
      .map(([path, names]) => `${path}: ${names.join(', ')}`);
    expect(unexpected).toEqual([]);
    const settled = Object.keys(PENDING_KIND_NAMES).filter((path) => !found.has(path));
    expect(settled, 'these files no longer name a kind: remove them from PENDING_KIND_NAMES').toEqual([]);
  });

  it('the kind-name rule catches a kind named in an engine file', () => {
    const planted: SourceFile = {
      path: 'src/plan/planted.ts',
      imports: [],
      runtimeImports: [],
      strings: ['plain text', kinds[0]?.kind ?? '', ROUTING_ROW],
    };
    expect(kindNameLiterals([planted])).toEqual(new Map([['src/plan/planted.ts', [kinds[0]?.kind, ROUTING_ROW]]]));
  });

  it('the layer rules catch a planted import that breaks any row (mutation)', () => {
    const modules = files.map((f) => f.path);
    for (const row of rows) {
      const targets = forbiddenTargets(row, modules);
      if (row.folder !== 'cli/')
        expect(targets.length, `${row.folder}: something it may not import`).toBeGreaterThan(0);
      for (const target of targets) {
        const planted = { path: `src/${row.folder}planted.ts`, imports: [target] };
        expect(violations(row, [...files, planted]), `${row.folder} importing ${target}`).toEqual([
          `src/${row.folder}planted.ts imports ${target}`,
        ]);
      }
    }
    // The rules that the table says through the rows together.
    const row = (folder: string) => rows.find((r) => r.folder === folder)!;
    const planted = (from: string, to: string) => violations(row(folderOf(from)), [{ path: from, imports: [to] }]);
    expect(planted('src/sim/planted.ts', 'src/kinds/index.ts')).toHaveLength(1);
    expect(planted('src/run/planted.ts', 'src/cli/switchboard.ts')).toHaveLength(1);
    expect(planted('src/cli/planted.ts', 'src/providers/index.ts')).toHaveLength(1);
    expect(planted('src/plan/planted.ts', 'src/run/index.ts')).toHaveLength(1);
    expect(planted('src/state/planted.ts', 'src/api/client.ts')).toHaveLength(1);
    expect(planted('src/state/planted.ts', 'src/api/errors.ts')).toEqual([]);
  });

  it('the cycle rule catches a planted cycle, direct or in a ring (mutation)', () => {
    const ring = [
      { path: 'src/a.ts', imports: ['src/b.ts'] },
      { path: 'src/b.ts', imports: ['src/c.ts', 'src/d.ts'] },
      { path: 'src/c.ts', imports: ['src/a.ts'] },
      { path: 'src/d.ts', imports: ['src/d.ts'] },
      { path: 'src/e.ts', imports: ['src/a.ts'] },
    ];
    expect(importCycles(ring)).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts'], ['src/d.ts']]);
    const seed = 'src/sim/platform/seed/';
    const reintroduced = files.map((f) => ({
      path: f.path,
      imports: f.path === `${seed}seed-refs.ts` ? [...f.runtimeImports, `${seed}load-seed.ts`] : f.runtimeImports,
    }));
    expect(importCycles(reintroduced).flat()).toContain(`${seed}load-seed.ts`);
  });

  it('a layer cell the test cannot read fails, naming the row', () => {
    const page = (cell: string) =>
      `# A\n\n## Layers\n\n| folder | role | may import |\n|---|---|---|\n| \`x/\` | r | ${cell} |\n`;
    expect(() => parseLayerTable(page('whatever x needs'))).toThrow('the "may import" cell of x/ cannot be read');
    expect(parseLayerTable(page('nothing'))[0]?.allowed).toEqual([]);
    expect(parseLayerTable(page('`core/`, `api/errors.ts` (errors)'))[0]?.allowed).toEqual(['core/', 'api/errors.ts']);
  });
});
