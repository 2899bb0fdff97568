#!/usr/bin/env node
import { Command } from 'commander';
import { runCli } from './program.js';

/** Entry point of the `switchboard` binary: everything else lives in program.ts. */
const code = await runCli(process.argv, new Command());
process.exitCode = code;
