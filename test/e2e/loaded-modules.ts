import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CLI, cliEnv } from './cli-helpers.js';

/**
 * Preloaded with `node --import`: reports on stderr, at exit, every ES module the process
 * resolved (a resolve hook, off the main thread, sends them over a port) and every CommonJS
 * module it required (`createRequire` loads re2js, pino and undici's Pool that way).
 */
const RECORD_MODULES = `
import { register, Module } from 'node:module';
const { port1, port2 } = new MessageChannel();
const urls = new Set();
port1.on('message', (url) => urls.add(url));
port1.unref();
const hook = 'let port; export function initialize(data) { port = data.port; }' +
  'export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }';
register('data:text/javascript,' + encodeURIComponent(hook), { data: { port: port2 }, transferList: [port2] });
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, arguments);
  try { urls.add('file://' + Module._resolveFilename(request, parent, isMain)); } catch {}
  return loaded;
};
process.on('exit', () => process.stderr.write('\\n' + JSON.stringify([...urls])));
`;

/**
 * A CLI run in `dir` (a temporary folder) with the modules it loaded: their URLs, as the last
 * line of stderr. `env`: added to the CLI's (SWITCHBOARD_NO_CODE_CACHE: from the ES modules);
 * `cli`: another copy's main.js.
 */
export async function cliModules(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
  cli = CLI,
): Promise<{ stdout: string; urls: string[] }> {
  const hook = join(dir, 'record-modules.mjs');
  await writeFile(hook, RECORD_MODULES);
  const run = await promisify(execFile)(process.execPath, ['--import', hook, cli, ...args], {
    cwd: dir,
    env: cliEnv(env),
  });
  return { stdout: run.stdout, urls: JSON.parse(run.stderr.slice(run.stderr.lastIndexOf('\n') + 1)) as string[] };
}

/** The source files (`src/…`) bundled into these chunks, from their source maps. */
export async function sourcesOf(chunks: string[]): Promise<string[]> {
  const all = new Set<string>();
  for (const chunk of chunks) {
    const map = JSON.parse(await readFile(`${fileURLToPath(chunk)}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) all.add(source.replace(/^(\.\.\/)+/, ''));
  }
  return [...all].sort();
}
