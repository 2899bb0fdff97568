#!/usr/bin/env node
/**
 * The `switchboard` binary. The CLI itself is one bundle (scripts/build/bundle.mjs: esbuild over
 * the compiled dist/cli/switchboard.js, each command's code in a chunk loaded when that
 * command runs), so that a start reads a few files instead of about 200 modules.
 *
 * Stack traces (printed at `--log-level debug` or `trace`) point into src/ through the
 * bundle's source maps, and Node.js reads a module's source map only if source maps were
 * enabled before it loaded: this file decides that, then loads the bundle.
 */
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

if (printsStacks(process.argv, process.env)) process.setSourceMapsEnabled(true);
// A variable: the bundle exists once built (npm run build), and TypeScript does not look for it.
const bundle = './bundle/switchboard.js';
await import(bundle);
