#!/usr/bin/env node
import { Command } from 'commander';
import { maskStream } from '../core/secrets.js';
import { runCli } from './program.js';

// Every text written to stdout and stderr passes the secrets registry (src/core/secrets.ts).
maskStream(process.stdout);
maskStream(process.stderr);

/** Entry point of the `switchboard` binary: everything else lives in program.ts. */
const code = await runCli(process.argv, new Command());
process.exitCode = code;
