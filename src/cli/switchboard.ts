import { Command } from 'commander';
import { maskStream } from '../core/secrets.js';
import { runCli } from './program.js';

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

/** Entry point of the `switchboard` binary: everything else lives in program.ts. */
const code = await runCli(process.argv, new Command());
process.exitCode = code;
