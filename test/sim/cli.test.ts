import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/program.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('switchboard sim', () => {
  it('docs/simulator.md: serves the default data set until interrupted', async () => {
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    const run = runCli(['node', 'switchboard', 'sim', '--port', '0', '--latency', '1'], new Command());
    await vi.waitFor(() => expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/), { timeout: 60_000 }); // a wait for start-up, not a budget
    const url = /listening on (\S+)/.exec(out)![1]!;
    const login = await fetch(`${url}/api/v01/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ username: 'admin', password: 'admin' }),
    });
    expect(login.status).toBe(200);
    process.emit('SIGINT');
    expect(await run).toBe(0);
    await expect(fetch(`${url}/_sim/state`)).rejects.toThrow();
  });

  it('refuses a fault rate outside 0..1 with exit 1', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runCli(['node', 'switchboard', 'sim', '--port', '0', '--fault-rate', '2'], new Command())).toBe(1);
    expect(String(stderr.mock.calls[0]?.[0])).toMatch(/--fault-rate must be a number between 0 and 1/);
  });
});
