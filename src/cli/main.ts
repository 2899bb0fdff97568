#!/usr/bin/env node
/**
 * The `switchboard` binary. The CLI itself is bundled twice (scripts/build/bundle.mjs, esbuild
 * over the compiled dist/cli/), so that a start reads a few files instead of about 200 modules:
 *
 * - dist/cli/cached/switchboard.cjs, one CommonJS module run with V8's code cache that the
 *   build wrote after exercising the commands (src/core/code-cache.ts): a start deserialises
 *   compiled code instead of compiling it. Used when that cache was made from this text by
 *   this Node.js;
 * - dist/cli/bundle/, ES modules, each command's code in a chunk loaded when it runs: used
 *   otherwise, and whenever stack traces may be printed (`--log-level debug` or `trace`),
 *   since they point into src/ through its source maps. Node.js reads a module's source map
 *   only if source maps were enabled before it loaded: this file decides that.
 *
 * SWITCHBOARD_NO_CODE_CACHE (any value) runs the ES modules every time (to rule the cache out).
 */
import { fileURLToPath } from 'node:url';
import { requireWithCodeCache } from '../core/code-cache.js';

const STACK_LEVELS = new Set(['debug', 'trace']);

/** Whether this run may print a stack trace: its log level, from the command line or SWITCHBOARD_LOG_LEVEL. */
function printsStacks(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--log-level') return STACK_LEVELS.has(argv[i + 1] ?? '');
    if (arg.startsWith('--log-level=')) return STACK_LEVELS.has(arg.slice('--log-level='.length));
  }
  return STACK_LEVELS.has(env['SWITCHBOARD_LOG_LEVEL'] ?? '');
}

type StartCli = (argv: readonly string[]) => Promise<number>;

/** The CommonJS bundle's `startCli`, when its code cache was made from it on this runtime. */
function cachedCli(): StartCli | undefined {
  if (process.env['SWITCHBOARD_NO_CODE_CACHE']) return undefined;
  const loaded = requireWithCodeCache(fileURLToPath(new URL('./cached/switchboard.cjs', import.meta.url)));
  return loaded?.exports['startCli'] as StartCli | undefined;
}

const stacks = printsStacks(process.argv, process.env);
const startCli = stacks ? undefined : cachedCli();
if (startCli) {
  process.exitCode = await startCli(process.argv);
} else {
  if (stacks) process.setSourceMapsEnabled(true);
  // A variable: the bundle exists once built (npm run build), and TypeScript does not look for it.
  const bundle = './bundle/switchboard.js';
  await import(bundle);
}
