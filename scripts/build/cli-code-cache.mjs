#!/usr/bin/env node
/**
 * Writes V8's code cache of the CLI's CommonJS bundle (dist/cli/cached/switchboard.cjs, see
 * scripts/build/bundle.mjs and src/cli/main.ts) after running the commands a start is most
 * often for, in this process, from that bundle: `version`, `validate` and `plan` (twice: the
 * manifest cache cold then warm, the second writing a plan file) of examples/ against a
 * simulator with the default data set. The code they ran is in the cache, compiled; what they
 * did not run compiles at its first call, as without a cache. Run by `npm run build` after
 * bundle.mjs. The commands' output is not shown; a command that fails fails the build. The
 * builder's SWITCHBOARD_* settings are not theirs: they reach no platform, webhook or home folder.
 * Usage: node scripts/build/cli-code-cache.mjs [BUNDLE.cjs]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
// The bundle of this checkout, or the one named (a test's copy of the package).
const BUNDLE = resolve(process.argv[2] ?? join(ROOT, 'dist/cli/cached/switchboard.cjs'));
const EXAMPLES = join(ROOT, 'examples');

const { writeCodeCache } = await import('../../dist/core/code-cache.js');
// The simulator's code is not the bundle's: it runs from dist/sim/, and is not in the cache.
const { startSimulator } = await import('../../dist/sim/index.js');

const work = await mkdtemp(join(tmpdir(), 'switchboard-code-cache-'));
const sim = await startSimulator({});
const quiet = silenceStdout();
try {
  // The builder's own settings never reach these commands (a notify URL, a log level, a token,
  // another platform): only the simulator's, and the manifest cache's key in the work folder.
  for (const name of Object.keys(process.env)) if (name.startsWith('SWITCHBOARD_')) delete process.env[name];
  Object.assign(process.env, {
    XDG_CACHE_HOME: join(work, 'xdg'),
    SWITCHBOARD_URL: sim.url,
    SWITCHBOARD_INSTANCE: 'demo',
    SWITCHBOARD_USERNAME: 'admin',
    SWITCHBOARD_PASSWORD: 'admin',
    SWITCHBOARD_RE_URL: sim.url,
    SWITCHBOARD_RE_USERNAME: 'routing',
    SWITCHBOARD_RE_PASSWORD: 'routing',
    NO_COLOR: '1',
  });
  process.chdir(work);
  const state = ['--state-dir', join(work, 'state')];
  const commands = [
    ['version'],
    ['validate', EXAMPLES, ...state],
    ['plan', EXAMPLES, ...state],
    ['plan', EXAMPLES, ...state, '--out', join(work, 'plan.json')],
  ];
  await writeCodeCache(BUNDLE, async ({ startCli }) => {
    for (const args of commands) {
      const code = await startCli(['node', 'switchboard', ...args]);
      if (code !== 0) throw new Error(`switchboard ${args.join(' ')} exited ${code}:\n${quiet.output()}`);
    }
  });
} finally {
  quiet.restore();
  process.exitCode = undefined;
  await sim.close();
  process.chdir(ROOT);
  await rm(work, { recursive: true, force: true });
}

/** Keeps the commands' stdout (shown only when one fails); stderr stays the build's. */
function silenceStdout() {
  const write = process.stdout.write;
  let kept = '';
  process.stdout.write = (chunk, ...rest) => {
    kept = (kept + String(chunk)).slice(-20_000);
    const done = rest.find((r) => typeof r === 'function');
    if (done) done();
    return true;
  };
  return { output: () => kept, restore: () => (process.stdout.write = write) };
}
