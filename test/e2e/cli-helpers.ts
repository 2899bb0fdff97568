import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The built CLI (`npm test` builds first). */
export const CLI = resolve(import.meta.dirname, '../../dist/cli/main.js');
export const EXAMPLES = resolve(import.meta.dirname, '../../examples');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The manifest cache's user key folder of the CLIs this process runs: never the real home's.
 * Removed when the process ends.
 */
let xdgCacheHome: string | undefined;
export function testCacheHome(): string {
  if (xdgCacheHome === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'switchboard-xdg-'));
    xdgCacheHome = made;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return xdgCacheHome;
}

/**
 * The environment of a CLI a test starts itself (runCli makes its own): PATH, the cache's key
 * folder in a temporary place, the manifest cache off, then `extra`.
 */
export function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '', XDG_CACHE_HOME: testCacheHome(), SWITCHBOARD_NO_CACHE: '1', ...extra };
}

let scratch: Promise<string> | undefined;
/**
 * Where a CLI run without a `cwd` runs: one temporary folder per test file, never the checkout
 * (an apply writes its journal and last-applied record into `<cwd>/.switchboard/`).
 */
export function scratchDir(): Promise<string> {
  scratch ??= mkdtemp(join(tmpdir(), 'switchboard-cwd-'));
  return scratch;
}

/**
 * Runs the real CLI in a child process; never throws for a non-zero exit. `cache`: let
 * `plan` and `validate` use the manifest cache (off by default: no test depends on what an
 * earlier one left, and none writes in the checkout).
 */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; cache?: boolean } = {},
): Promise<CliResult> {
  const cwd = options.cwd ?? (await scratchDir());
  const env = cliEnv(options.env);
  if (options.cache === true && options.env?.['SWITCHBOARD_NO_CACHE'] === undefined) delete env['SWITCHBOARD_NO_CACHE'];
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      cwd,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Environment variables that point the CLI at a running simulator (docs/connecting.md). */
export function simEnv(url: string, user = 'admin', password = user): Record<string, string> {
  return {
    SWITCHBOARD_URL: url,
    SWITCHBOARD_INSTANCE: 'demo',
    SWITCHBOARD_USERNAME: user,
    SWITCHBOARD_PASSWORD: password,
    SWITCHBOARD_RE_URL: url,
    SWITCHBOARD_RE_USERNAME: 'routing',
    SWITCHBOARD_RE_PASSWORD: 'routing',
  };
}

/** A temporary folder holding the given manifest files. */
export async function manifestDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-e2e-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

/** Logs in to the simulator and returns a fetch bound to the admin's bearer token. */
export async function adminApi(
  url: string,
): Promise<(method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>> {
  const login = await fetch(`${url}/api/v01/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin' }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  return async (method, path, body) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}
