#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/cli/ and what it imports from dist/) twice. Run by
 * `npm run build` after tsc; dist/cli/main.js picks one (src/cli/main.ts):
 * - dist/cli/bundle/: ES modules from dist/cli/switchboard.js, the code each command loads
 *   lazily in chunks of its own, with source maps back to src/ (through tsc's); the
 *   dependencies stay in node_modules;
 * - dist/cli/cached/switchboard.cjs: one CommonJS module from dist/cli/start.js with the
 *   dependencies every start evaluates, for V8's code cache that scripts/build/cli-code-cache.mjs
 *   writes next (Node.js 20 caches no ES module).
 * Why: a start read and compiled about 200 modules one by one, 0.1 s of every run; compiling
 * the bundle's chunks was still ~50 ms of a `plan`.
 */
import { readFile, rm } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = resolve(ROOT, 'dist/cli/bundle');
const CACHED_OUT = resolve(ROOT, 'dist/cli/cached');

/**
 * Modules whose functions' source text is a product: the HTML reports' inline scripts
 * (`fn.toString()`, hashed into the page's Content-Security-Policy). The bundle would
 * reprint and rename them; they are loaded as tsc compiled them, so the page is the same
 * from the bundle as from dist/ and src/.
 */
const SOURCE_TEXT_MODULES =
  /\/(plan\/html\/report-script|plan\/html\/report-print|plan\/html\/visible|compare\/html\/script)\.js$/;
const keepSourceText = (outDir) => ({
  name: 'keep-source-text',
  setup(build) {
    build.onResolve({ filter: /(report-print|script|visible)\.js$/ }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      if (!SOURCE_TEXT_MODULES.test(target)) return undefined;
      const path = relative(outDir, target);
      return { path: path.startsWith('.') ? path : `./${path}`, external: true };
    });
  },
});

/** The dependencies the CLI loads only when a command needs them (`createRequire`, `import()`). */
const LOADED_ON_DEMAND = ['ajv', 'ajv/*', 'ajv-formats', 'ajv-formats/*', 'csv-parse', 'pino', 're2js', 'yaml'];

/** undici's index (fetch, WebSocket, the mock agents: 1 MB that notify alone imports) stays in node_modules. */
const undiciIndexOutside = {
  name: 'undici-index-outside',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', external: true }));
  },
};

/**
 * Modules that `createRequire` a dependency, so that the ES modules load it without the rest
 * of its package (src/core/undici-pool.ts: undici's Pool, 25 ms to compile): in the CommonJS
 * bundle, the module's own `require` is the bundle's, and esbuild bundles what it requires.
 */
const REQUIRE_BUNDLED = /\/dist\/core\/undici-pool\.js$/;
const requireBundled = {
  name: 'require-bundled',
  setup(build) {
    build.onLoad({ filter: REQUIRE_BUNDLED }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const own = 'const require = createRequire(import.meta.url);';
      if (!text.includes(own)) throw new Error(`${args.path} no longer says "${own}": update scripts/build/bundle.mjs`);
      return { contents: text.replace(own, ''), loader: 'js' };
    });
  },
};

await rm(OUT, { recursive: true, force: true });
await rm(CACHED_OUT, { recursive: true, force: true });
await build({
  absWorkingDir: ROOT,
  entryPoints: { switchboard: 'dist/cli/switchboard.js' },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  chunkNames: 'chunk-[hash]',
  logLevel: 'warning',
  plugins: [keepSourceText(OUT)],
});
const cached = await build({
  absWorkingDir: ROOT,
  entryPoints: ['dist/cli/start.js'],
  outfile: resolve(CACHED_OUT, 'switchboard.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // The dependencies every start evaluates are bundled, so that their code is in the cache too
  // (commander alone: ~10 ms to compile); those loaded on demand stay in node_modules.
  external: LOADED_ON_DEMAND,
  // No source maps: this form never prints a stack trace (main.ts runs the ES modules then).
  // Without the whitespace and comments, a start reads and hashes ~1/3 less (names are kept).
  sourcemap: false,
  minifyWhitespace: true,
  legalComments: 'none',
  // The modules that find files of the package or require a dependency from where they are:
  // the bundle's own place, as for the chunks of dist/cli/bundle/.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
  // The source-text modules are ES modules: Node.js (>= 20.19, package.json's engines) requires them.
  plugins: [keepSourceText(CACHED_OUT), undiciIndexOutside, requireBundled],
  metafile: true,
});
// Node.js 20 loses a script's dynamic-import callback with its code cache: an `import()` left in
// this bundle (of a module outside it) would fail at run time, and only from the cache.
for (const [file, output] of Object.entries(cached.metafile.outputs)) {
  const dynamic = output.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => i.path);
  if (dynamic.length > 0) throw new Error(`${file} imports ${dynamic.join(', ')} with import(): require it instead`);
}
