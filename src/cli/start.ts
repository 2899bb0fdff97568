import { Command } from 'commander';
import { maskStream } from '../core/secrets.js';
import { runCli } from './program.js';

/** Whether this process's stdout and stderr are set up (the build runs several command lines in one process). */
let streamsReady = false;

/**
 * Runs the `switchboard` command line `argv` in this process and resolves to its exit code:
 * the entry of both forms of the CLI's bundle (scripts/build/bundle.mjs), and what the build
 * exercises before it writes the bundle's code cache.
 */
export async function startCli(argv: readonly string[]): Promise<number> {
  if (!streamsReady) prepareStreams();
  streamsReady = true;
  return runCli([...argv], new Command());
}

function prepareStreams(): void {
  // Every text written to stdout and stderr passes the secrets registry (src/core/secrets.ts).
  maskStream(process.stdout);
  maskStream(process.stderr);
  // A reader that stops early (`| head`) closes the pipe: the rest of the output is dropped,
  // and the command finishes as it would have (an apply is never cut short by its reader),
  // with its own exit code, instead of a stack trace for the unhandled EPIPE.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}
