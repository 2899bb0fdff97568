import { Command } from 'commander';
import { mkdir, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('a --state file it cannot write: exit 1 at start, before listening, with what to do', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const code = await runCli(
      ['node', 'switchboard', 'sim', '--port', '0', '--state', '/proc/nope/st.json'],
      new Command(),
    );
    expect(code).toBe(1);
    const said = stderr.mock.calls.map((c) => String(c[0])).join('');
    expect(said).toMatch(/cannot write the state file \/proc\/nope\/st\.json: .*give --state a file in a folder/);
    expect(said).not.toMatch(/\n\s+at /);
    expect(out.mock.calls.map((c) => String(c[0])).join('')).not.toContain('listening');
  });

  it('a state file that cannot be written when it stops: exit 1, saying the changes are lost', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-sim-state-'));
    const state = join(dir, 'st.json');
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const run = runCli(['node', 'switchboard', 'sim', '--port', '0', '--state', state], new Command());
    await vi.waitFor(() => expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/), { timeout: 60_000 }); // start-up, not a budget
    const url = /listening on (\S+)/.exec(out)![1]!;
    // The state file's path is taken by a folder once it runs: no save can replace it.
    await mkdir(state);
    const reset = await fetch(`${url}/_sim/reset`, { method: 'POST' });
    expect(reset.status).toBeLessThan(300);
    process.emit('SIGTERM');
    expect(await run).toBe(1);
    const said = stderr.mock.calls.map((c) => String(c[0])).join('');
    expect(said).toMatch(/cannot write the state file .*st\.json: .*the changes since it was last written are lost/);
    expect(said).not.toMatch(/\n\s+at /);
    expect(await readdir(state)).toEqual([]);
  });
});
