/**
 * The architecture's rules, read from the source files (docs/architecture.md "Layers"):
 * which folder may import which, and that the engine never names a kind. Plain TypeScript:
 * every file under src/ is parsed with the compiler's parser (imports, dynamic imports,
 * re-exports and string literals), nothing is executed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { kinds } from '../src/kinds/index.js';
import { ROUTING_ROW } from '../src/providers/index.js';

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
  const specifiers: string[] = [];
  const strings: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) specifiers.push(argument.text);
    }
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node))
      strings.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const imports = specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) =>
      relative(ROOT, resolve(dirname(file), s))
        .replace(/\\/g, '/')
        .replace(/\.js$/, '.ts'),
    );
  return { path: relative(ROOT, file).replace(/\\/g, '/'), imports, strings };
}

const files = sourceFiles(SRC).map(read);
const under = (path: string, ...prefixes: string[]) => prefixes.some((p) => path.startsWith(p));

/** `file → import` for every import of a file matching `from` into `to`, outside `allowed`. */
function crossings(from: (path: string) => boolean, to: (path: string) => boolean): string[] {
  return files
    .filter((f) => from(f.path))
    .flatMap((f) => f.imports.filter(to).map((target) => `${f.path} imports ${target}`));
}

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
    expect(files.find((f) => f.path === 'src/cli/main.ts')?.imports).toContain('src/cli/program.ts');
  });

  it('the simulator imports nothing but itself and src/core: it is written from the API documents, not from the client', () => {
    expect(
      crossings(
        (p) => under(p, 'src/sim/'),
        (t) => !under(t, 'src/sim/', 'src/core/'),
      ),
    ).toEqual([]);
  });

  it('nothing outside src/cli imports src/cli: the commands only parse options and render', () => {
    expect(
      crossings(
        (p) => !under(p, 'src/cli/'),
        (t) => under(t, 'src/cli/'),
      ),
    ).toEqual([]);
  });

  it('the run layer is called by the commands and demo only; the providers by the run layer only', () => {
    expect(
      crossings(
        (p) => !under(p, 'src/run/', 'src/cli/', 'src/demo/'),
        (t) => under(t, 'src/run/'),
      ),
    ).toEqual([]);
    expect(
      crossings(
        (p) => !under(p, 'src/providers/', 'src/run/'),
        (t) => under(t, 'src/providers/'),
      ),
    ).toEqual([]);
    expect(
      crossings(
        (p) => !under(p, 'src/cli/', 'src/demo/'),
        (t) => under(t, 'src/demo/'),
      ),
    ).toEqual([]);
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
      strings: ['plain text', kinds[0]?.kind ?? '', ROUTING_ROW],
    };
    expect(kindNameLiterals([planted])).toEqual(new Map([['src/plan/planted.ts', [kinds[0]?.kind, ROUTING_ROW]]]));
  });
});
