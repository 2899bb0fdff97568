#!/usr/bin/env node
/**
 * `npm run lint` runs this: an export of src/ or test/ that no other file imports is dead
 * code with a public face, and fails the lint (exit 1, one `file:line: name` per export).
 * Remove the export (or the code), or, for what is imported from outside the repository's
 * TypeScript, name it in ALLOWED with the reason.
 *
 * An export counts as imported when another file's import, re-export that is itself
 * imported, `ns.name` on a namespace import, `import('…').Name` type, or destructured
 * `await import('…')` reaches it, through any chain of re-exports. The JavaScript of
 * scripts/ and test/ (the benchmarks, the docs generator) counts too: what it imports from
 * dist/ is the src/ module of the same path. A type or interface its own module uses (in an
 * exported signature, most often) is not reported, nor its re-export: callers may need to
 * name it, and it costs nothing at run time.
 * `--json` prints the findings as JSON; `--root DIR` checks another checkout.
 * test/scripts/dead-exports.test.ts runs `deadExports` on small planted repositories.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

/**
 * Exports used from outside the TypeScript the program sees, with the reason. `file` is the
 * module; `names` its exports (or `*`: all of them).
 */
const ALLOWED = [
  // vitest reads a global setup's default export, and its config file's.
  { file: 'test/suite/clean-checkout.ts', names: ['default'], why: 'vitest globalSetup' },
  { file: 'vitest.config.ts', names: ['default'], why: 'vitest config' },
];

let ROOT = resolve(import.meta.dirname, '..');
const rel = (file) => relative(ROOT, file).replace(/\\/g, '/');

/** The TypeScript of the checks: src/, test/ and the config files at the top. */
function program() {
  const configFile = join(ROOT, 'tsconfig.test.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error(`cannot read ${configFile}`);
  const top = ['vitest.config.ts'].map((f) => join(ROOT, f)).filter((f) => existsSync(f));
  return ts.createProgram({ rootNames: [...config.fileNames, ...top], options: { ...config.options, noEmit: true } });
}

const inScope = (file) => /^(src|test)\//.test(rel(file)) || rel(file) === 'vitest.config.ts';

/**
 * The dead exports of the checkout at `root`: `{ file, line, name, reexport }` sorted by file
 * and line (files relative to `root`).
 * @param {string} [root]
 * @returns {{ file: string, line: number, name: string, reexport: boolean }[]}
 */
export function deadExports(root = ROOT) {
  ROOT = resolve(root);
  const prog = program();
  const checker = prog.getTypeChecker();
  const files = prog.getSourceFiles().filter((f) => !f.isDeclarationFile && inScope(f.fileName));
  /** Declarations (by symbol) reached from another file than their own. */
  const used = new Set();
  /** Re-export aliases (by symbol) reached from another file. */
  const usedAliases = new Set();

  const mark = (symbol, fromFile) => {
    if (!symbol) return;
    let current = symbol;
    // Walk the alias chain one step at a time, so that each re-export on the way counts as used.
    for (let i = 0; i < 20 && current.flags & ts.SymbolFlags.Alias; i++) {
      if (current.declarations?.some((d) => d.getSourceFile().fileName !== fromFile)) usedAliases.add(current);
      const next = checker.getImmediateAliasedSymbol(current);
      if (!next || next === current) break;
      current = next;
    }
    const target = current.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(current) : current;
    if (target.declarations?.some((d) => d.getSourceFile().fileName !== fromFile)) used.add(target);
  };

  for (const file of files) {
    const visit = (node) => {
      if (ts.isImportSpecifier(node) || ts.isImportClause(node) || ts.isNamespaceImport(node)) {
        if (node.name) mark(checker.getSymbolAtLocation(node.name), file.fileName);
      } else if (ts.isPropertyAccessExpression(node) || ts.isQualifiedName(node)) {
        const name = ts.isPropertyAccessExpression(node) ? node.name : node.right;
        mark(checker.getSymbolAtLocation(name), file.fileName);
      } else if (ts.isImportTypeNode(node) && node.qualifier) {
        const last = ts.isQualifiedName(node.qualifier) ? node.qualifier.right : node.qualifier;
        mark(checker.getSymbolAtLocation(last), file.fileName);
      } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        // const { a } = await import('./x.js'): the module's export of that name.
        const declaration = node.parent.parent;
        const call =
          ts.isVariableDeclaration(declaration) && declaration.initializer && dynamicImportOf(declaration.initializer);
        const [argument] = call ? call.arguments : [];
        const moduleSymbol = argument && checker.getSymbolAtLocation(argument);
        const name = (node.propertyName ?? node.name).getText();
        if (moduleSymbol)
          mark(
            checker.getExportsOfModule(moduleSymbol).find((e) => e.name === name),
            file.fileName,
          );
        // Any other destructuring of a module's namespace (the items of
        // `const [{ a }, ns] = await Promise.all([import('./x.js'), import('./y.js')])`, then
        // `const { b } = ns`): the property the checker finds on the destructured value's type.
        else mark(checker.getTypeAtLocation(node.parent).getProperty(name), file.fileName);
      } else if (ts.isExportSpecifier(node) && node.parent.parent.moduleSpecifier === undefined) {
        // `export { a }` of a local name, and `export default x`, are declarations, not uses.
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  markJavaScriptImports(prog, checker, mark);

  const findings = [];
  const allowed = (file, name) =>
    ALLOWED.some((a) => a.file === rel(file) && (a.names.includes('*') || a.names.includes(name)));
  for (const file of files) {
    const moduleSymbol = checker.getSymbolAtLocation(file);
    if (!moduleSymbol) continue;
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const declaration = symbol.declarations?.[0];
      if (!declaration || declaration.getSourceFile() !== file) continue; // `export *` from elsewhere
      if (allowed(file.fileName, symbol.name)) continue;
      const isAlias = (symbol.flags & ts.SymbolFlags.Alias) !== 0;
      const live = isAlias
        ? usedAliases.has(symbol)
        : used.has(symbol) || used.has(checker.getExportSymbolOfSymbol(symbol));
      if (live) continue;
      const target = isAlias ? checker.getAliasedSymbol(symbol) : symbol;
      const home = target.declarations?.[0]?.getSourceFile();
      if (home && isTypeUsedInItsFile(target, home)) continue;
      const { line } = file.getLineAndCharacterOfPosition(declaration.getStart());
      findings.push({ file: rel(file.fileName), line: line + 1, name: symbol.name, reexport: isAlias });
    }
  }
  findings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return findings;
}

/**
 * A type or interface its own module uses (in an exported signature, most often) stays
 * exported: callers may need to name it, and taking the `export` away would hide a contract.
 */
function isTypeUsedInItsFile(symbol, file) {
  if (!(symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))) return false;
  const declarations = new Set(symbol.declarations?.map((d) => d.name?.getStart()));
  let found = false;
  const visit = (node) => {
    if (found) return;
    if (ts.isIdentifier(node) && node.text === symbol.name && !declarations.has(node.getStart())) found = true;
    else ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The `import('…')` call of `import('…')` or `await import('…')`, if that is what `node` is. */
function dynamicImportOf(node) {
  const inner = ts.isAwaitExpression(node) ? node.expression : node;
  return ts.isCallExpression(inner) && inner.expression.kind === ts.SyntaxKind.ImportKeyword ? inner : undefined;
}

/**
 * What the JavaScript of scripts/ and test/ imports from dist/ (or from src/ and test/
 * directly): the names of static imports and of destructured dynamic imports, looked up
 * among the TypeScript module's exports.
 */
function markJavaScriptImports(prog, checker, mark) {
  for (const js of javaScriptFiles()) {
    const source = ts.createSourceFile(js, readFileSync(js, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      let specifier;
      let names = [];
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        specifier = node.moduleSpecifier.text;
        const bindings = node.importClause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings))
          names = bindings.elements.map((e) => (e.propertyName ?? e.name).text);
        if (bindings && ts.isNamespaceImport(bindings)) names = ['*'];
      } else if (ts.isVariableDeclaration(node) && node.initializer && dynamicImportOf(node.initializer)) {
        const [argument] = dynamicImportOf(node.initializer).arguments;
        if (argument && ts.isStringLiteralLike(argument)) specifier = argument.text;
        // import(join(ROOT, 'dist/sim/index.js')): the built module a literal names, from the root
        else if (argument) specifier = builtModuleIn(argument, js);
        if (ts.isObjectBindingPattern(node.name))
          names = node.name.elements.map((e) => (e.propertyName ?? e.name).getText(source));
        else names = ['*'];
      }
      if (specifier?.startsWith('.')) {
        const target = tsModuleOf(resolve(dirname(js), specifier.replace(/\$\{[^}]*\}/g, '')));
        const file = target && prog.getSourceFile(target);
        const moduleSymbol = file && checker.getSymbolAtLocation(file);
        if (moduleSymbol)
          for (const exported of checker.getExportsOfModule(moduleSymbol))
            if (names.includes('*') || names.includes(exported.name)) mark(exported, js);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}

/**
 * The built module a computed specifier names (`join(ROOT, 'dist/sim/index.js')`,
 * `join(here, '../../dist/routing/index.js')`), as a path relative to `js`'s folder.
 */
function builtModuleIn(argument, js) {
  let found;
  const visit = (node) => {
    if (ts.isStringLiteralLike(node) && /(^|\/)dist\/[\w./-]+\.js$/.test(node.text)) found = node.text;
    ts.forEachChild(node, visit);
  };
  visit(argument);
  if (found === undefined) return undefined;
  const path = found.startsWith('.') ? resolve(dirname(js), found) : join(ROOT, found.slice(found.indexOf('dist/')));
  const fromHere = relative(dirname(js), path).replace(/\\/g, '/');
  return fromHere.startsWith('.') ? fromHere : `./${fromHere}`;
}

/** `dist/x/y.js` or `src/x/y.js` → `src/x/y.ts`; `test/x.js` → `test/x.ts`, when it exists. */
function tsModuleOf(path) {
  const inRepo = rel(path).replace(/^dist\//, 'src/');
  const candidate = join(ROOT, inRepo.replace(/\.m?js$/, '.ts'));
  return existsSync(candidate) ? candidate : undefined;
}

function javaScriptFiles(dir = ROOT, depth = 0) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (depth === 0 && !['scripts', 'test'].includes(entry.name)) continue;
      if (entry.name === 'node_modules' || entry.name === 'fixtures') continue;
      out.push(...javaScriptFiles(path, depth + 1));
    } else if (/\.m?js$/.test(entry.name) && depth > 0) out.push(path);
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { json: { type: 'boolean' }, root: { type: 'string' } } });
  report(deadExports(values.root), values.json === true);
}

function report(findings, json) {
  if (json) process.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
  else {
    for (const f of findings)
      process.stdout.write(
        `${f.file}:${f.line}: ${f.reexport ? 're-export' : 'export'} ${f.name} is imported nowhere\n`,
      );
    if (findings.length > 0)
      process.stdout.write(
        `\n${findings.length} dead export(s): remove the export (or the code), or name it in ALLOWED in scripts/dead-exports.mjs with the reason.\n`,
      );
  }
  process.exitCode = findings.length > 0 ? 1 : 0;
}
