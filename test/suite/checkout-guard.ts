/**
 * Tests write only in temporary folders, kept at the call (a setup file of the e2e and
 * reliability projects): a test that starts the CLI in the checkout fails there, whatever the
 * machine. A CLI run keeps its journal, lock and manifest cache under `<cwd>/.switchboard/`,
 * and whether a given run writes there can depend on timing (a plan whose stdout is closed
 * early) or on the machine (a cache key in the home folder): clean-checkout.ts only notices
 * afterwards, and only when the run happened to write.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';

const require = createRequire(import.meta.url);
const ROOT = resolve(import.meta.dirname, '../..');
const CLI_ENTRY = `${sep}dist${sep}cli${sep}main.js`;

/** Whether `dir` is the checkout or a folder inside it. */
export function insideCheckout(dir: string, root = ROOT): boolean {
  const rel = relative(root, resolve(dir));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Whether a process started as `command args…` is switchboard's CLI: the built entry as a
 * script (`node …/dist/cli/main.js`), or an installed bin as the command. An argument named
 * like the checkout's folder (`--root /ci/switchboard`) is not the CLI.
 */
export function runsCli(command: string, args: readonly unknown[]): boolean {
  if (command === 'switchboard' || /[/\\]\.bin[/\\]switchboard$/.test(command)) return true;
  return [command, ...args].some((word) => typeof word === 'string' && word.endsWith(CLI_ENTRY));
}

type Launcher = (...call: unknown[]) => unknown;

function guarded(name: string, original: Launcher): Launcher {
  return function (this: unknown, ...call: unknown[]) {
    const [command, second, third] = call;
    const args = Array.isArray(second) ? (second as unknown[]) : [];
    const options = (Array.isArray(second) ? third : second) as
      { cwd?: string | URL; env?: NodeJS.ProcessEnv } | undefined;
    if (typeof command === 'string' && runsCli(command, args)) {
      const cwd = options?.cwd === undefined ? process.cwd() : String(options.cwd);
      if (insideCheckout(cwd))
        throw new Error(
          `a test started the CLI (child_process.${name}) with its working folder in the checkout (${cwd}): ` +
            'a run there may leave .switchboard/ behind. Pass a temporary cwd, e.g. scratchDir() from ' +
            'test/e2e/cli-helpers.ts or mkdtemp(join(tmpdir(), …)).',
        );
      // An environment of its own without XDG_CACHE_HOME: the manifest cache's key lands in the real home.
      if (options?.env !== undefined && !options.env['XDG_CACHE_HOME'])
        throw new Error(
          `a test started the CLI (child_process.${name}) with an environment that has no XDG_CACHE_HOME: ` +
            "a plan would make its manifest cache key in this user's real home. " +
            'Add XDG_CACHE_HOME: testCacheHome() from test/e2e/cli-helpers.ts.',
        );
    }
    return original.apply(this, call);
  };
}

const childProcess = require('node:child_process') as Record<string, Launcher>;
for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork']) {
  const original = childProcess[name]!;
  const wrapped = guarded(name, original) as Launcher & { [promisify.custom]?: Launcher };
  // promisify(execFile) resolves to { stdout, stderr } through execFile's own custom form: keep it, guarded.
  const custom = (original as { [promisify.custom]?: Launcher })[promisify.custom];
  if (custom !== undefined) wrapped[promisify.custom] = guarded(name, custom);
  childProcess[name] = wrapped;
}
syncBuiltinESMExports();
