#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/cli/switchboard.js and what it imports from dist/) into
 * dist/cli/bundle/, the code each command loads lazily in chunks of its own, with source
 * maps back to src/ (through tsc's). The dependencies stay in node_modules. Run by
 * `npm run build` after tsc; dist/cli/main.js loads the bundle (src/cli/main.ts).
 * Why: a start read and compiled about 200 modules one by one, 0.1 s of every run.
 */
import { rm } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = resolve(ROOT, 'dist/cli/bundle');

/**
 * Modules whose functions' source text is a product: the HTML reports' inline scripts
 * (`fn.toString()`, hashed into the page's Content-Security-Policy). The bundle would
 * reprint and rename them; they are loaded as tsc compiled them, so the page is the same
 * from the bundle as from dist/ and src/.
 */
const SOURCE_TEXT_MODULES =
  /\/(plan\/html\/report-script|plan\/html\/report-print|plan\/html\/visible|compare\/html\/script)\.js$/;
const keepSourceText = {
  name: 'keep-source-text',
  setup(build) {
    build.onResolve({ filter: /(report-print|script|visible)\.js$/ }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      if (!SOURCE_TEXT_MODULES.test(target)) return undefined;
      const path = relative(OUT, target);
      return { path: path.startsWith('.') ? path : `./${path}`, external: true };
    });
  },
};

await rm(OUT, { recursive: true, force: true });
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
  plugins: [keepSourceText],
});
