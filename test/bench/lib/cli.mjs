/**
 * Runs the real CLI (dist/cli/main.js) in a child process and measures it: wall time from
 * spawn to exit, and the child's own CPU time and peak RSS (reported by measure-hook.mjs).
 * The bare loops of the floors run the same way (runMeasured), so the CLI's CPU is compared
 * with theirs from the same run.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const CLI = join(ROOT, 'dist/cli/main.js');
const HOOK = pathToFileURL(join(import.meta.dirname, 'measure-hook.mjs')).href;

/**
 * @typedef {{ code: number | null, stdout: string, stderr: string, wallS: number, cpuS: number, cpuUserS: number, cpuSystemS: number, peakRssMB: number }} CliRun
 * @param {string[]} args
 * @param {{ cwd: string, env: Record<string, string>, nodeArgs?: string[] }} options
 * @returns {Promise<CliRun>}
 */
export function runCli(args, options) {
  return runMeasured(CLI, args, options);
}

/**
 * Runs a Node.js script in a child process (the CLI, or a bare loop: lib/bare-loop.mjs) and
 * measures it the same way: wall time from spawn to exit, and the child's own CPU time and
 * peak RSS as measure-hook.mjs reports them at its exit. `script` undefined: `node ...args`
 * alone (`node -e 0`).
 * @param {string | undefined} script
 * @param {string[]} args
 * @param {{ cwd: string, env: Record<string, string>, nodeArgs?: string[] }} options
 * @returns {Promise<CliRun>}
 */
export async function runMeasured(script, args, options) {
  const dir = await mkdtemp(join(tmpdir(), 'sb-bench-measure-'));
  const measureFile = join(dir, 'measure.json');
  const env = { PATH: process.env['PATH'] ?? '', ...options.env, SB_BENCH_MEASURE: measureFile };
  const begin = performance.now();
  const entry = script === undefined ? [] : [script];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', HOOK, ...entry, ...args], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = [];
  const err = [];
  child.stdout.on('data', (b) => out.push(b));
  child.stderr.on('data', (b) => err.push(b));
  const code = await new Promise((res, rej) => {
    child.once('error', rej);
    child.once('close', (c) => res(c));
  });
  const wallS = (performance.now() - begin) / 1000;
  let measured = { cpuUserS: NaN, cpuSystemS: NaN, maxRssMB: NaN };
  try {
    measured = JSON.parse(await readFile(measureFile, 'utf8'));
  } catch {
    // The process died before its exit handler ran (a signal): CPU and RSS stay unknown.
  }
  await rm(dir, { recursive: true, force: true });
  return {
    code,
    stdout: Buffer.concat(out).toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
    wallS,
    cpuS: measured.cpuUserS + measured.cpuSystemS,
    cpuUserS: measured.cpuUserS,
    cpuSystemS: measured.cpuSystemS,
    peakRssMB: measured.maxRssMB,
  };
}

/** The environment that points the CLI at a simulator as its system administrator. */
export function simEnv(url) {
  return {
    SWITCHBOARD_URL: url,
    SWITCHBOARD_INSTANCE: 'demo',
    SWITCHBOARD_USERNAME: 'admin',
    SWITCHBOARD_PASSWORD: 'admin',
    NO_COLOR: '1',
  };
}

/**
 * The last `Plan:` line of a plan's text output, after a plan that must have changes (exit 2
 * under --detailed-exitcode); throws with the CLI's stderr otherwise.
 * @param {{ code: number | null, stdout: string, stderr: string }} cli
 */
export function planSummaryOf(cli) {
  if (cli.code !== 2) throw new Error(`plan exited ${cli.code} (expected 2: changes): ${cli.stderr.slice(-2000)}`);
  return (
    cli.stdout
      .trim()
      .split('\n')
      .filter((l) => /^Plan:/.test(l))
      .at(-1) ?? ''
  );
}
