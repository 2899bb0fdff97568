/** Runs the built CLI as a child process (async: the simulator runs in this process). */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { cliEnv, scratchDir } from '../../e2e/cli-helpers.js';

const CLI = resolve(import.meta.dirname, '../../../dist/cli/main.js');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface CliOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Kill the child when this resolves (SIGKILL). */
  killWhen?: (child: ChildProcess) => Promise<void>;
  timeoutMs?: number;
}

export async function cli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const cwd = options.cwd ?? (await scratchDir()); // never the checkout
  const begin = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    // As runCli: no manifest cache (nothing written in the checkout), its key never in the real home.
    env: cliEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  if (options.killWhen) void options.killWhen(child).then(() => child.kill('SIGKILL'));
  return new Promise((done) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, ms: performance.now() - begin });
    });
  });
}

/** Environment variables pointing the CLI at a simulator (docs/connecting.md). */
export function simEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SWITCHBOARD_URL: url,
    SWITCHBOARD_INSTANCE: 'demo',
    SWITCHBOARD_USERNAME: 'admin',
    SWITCHBOARD_PASSWORD: 'admin',
    SWITCHBOARD_RE_URL: url,
    SWITCHBOARD_RE_USERNAME: 'routing',
    SWITCHBOARD_RE_PASSWORD: 'routing',
    ...extra,
  };
}
