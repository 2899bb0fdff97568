/**
 * A scenario's bare loop as its own process: `node bare-loop.mjs SPEC.json` runs one of the
 * floors' loops (floor.mjs, routing-floor.mjs: undici, no switchboard code) and prints
 * `{"seconds":…}` on stdout. Run through runMeasured (cli.mjs) with the same measure hook
 * as the CLI, so its CPU time and peak RSS are the loop's own, measured like the CLI's.
 */
import { readFile } from 'node:fs/promises';
import { bareCreateSeconds, bareReadSeconds } from './floor.mjs';
import { bareRoutingSeconds } from './routing-floor.mjs';

const spec = JSON.parse(await readFile(process.argv[2] ?? '', 'utf8'));
let seconds;
if (spec.loop === 'read') seconds = await bareReadSeconds(spec.url, spec.paths, spec.concurrency, spec.answered);
else if (spec.loop === 'create')
  seconds = await bareCreateSeconds(spec.url, spec.groupUuid, spec.tenants, spec.concurrency, spec.typeIds);
else if (spec.loop === 'routing') seconds = await bareRoutingSeconds(spec.url, spec.rows, spec.concurrency);
else throw new Error(`unknown bare loop ${String(spec.loop)}`);
process.stdout.write(JSON.stringify({ seconds }));
