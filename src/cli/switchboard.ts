import { startCli } from './start.js';

/** Entry point of the `switchboard` binary's ES module bundle: everything else lives in program.ts. */
process.exitCode = await startCli(process.argv);
