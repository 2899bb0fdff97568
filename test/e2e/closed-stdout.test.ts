/**
 * A reader that stops early (`switchboard plan … | head -1`) closes stdout under the CLI:
 * the command finishes with its own exit code and says nothing about the pipe, where Node
 * would print an unhandled EPIPE stack trace and exit 1.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, EXAMPLES, cliEnv, scratchDir } from './cli-helpers.js';

async function planIntoClosedPipe(): Promise<{ code: number | null; stderr: string; read: number }> {
  const cwd = await scratchDir();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'plan', '--sim', EXAMPLES, '--format', 'json', '--detailed-exitcode'], {
      cwd,
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let read = 0;
    let stderr = '';
    // Like `head -c 1`: take the first chunk, then close the pipe.
    child.stdout.once('data', (chunk: Buffer) => {
      read = chunk.length;
      child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, read }));
  });
}

describe('stdout closed by its reader', () => {
  it("plan into `| head`: the plan's own exit code (2: changes), no EPIPE and no stack trace", async () => {
    const result = await planIntoClosedPipe();
    expect(result.read).toBeGreaterThan(0);
    expect(result.stderr).not.toMatch(/EPIPE|\n\s+at .+:\d+:\d+/);
    expect(result.code, result.stderr).toBe(2);
  }, 60_000);
});
