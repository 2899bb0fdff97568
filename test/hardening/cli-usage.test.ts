/**
 * The command line as a new user meets it: enumerated options refuse unknown values (no
 * silent fallback, no pino stack), SWITCHBOARD_LOG_LEVEL sets the level, every command's
 * help shows real defaults, --log-level, its exit codes and environment variables, and
 * `sim` on a busy port says so.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, runCli } from '../e2e/cli-helpers.js';

const COMMANDS = ['validate', 'plan', 'apply', 'show', 'audit', 'export', 'sim', 'demo', 'coverage', 'verify'];

describe('unknown values of enumerated options are errors (docs/commands.md)', () => {
  it('plan --format yaml: exit 1 listing the formats, no plan printed', async () => {
    const result = await runCli(['plan', EXAMPLES, '--sim', '--format', 'yaml']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      "option '--format <format>' argument 'yaml' is invalid. Allowed choices are text, json, markdown, html.",
    );
  });

  it('validate --format yaml: the same, with its own formats', async () => {
    const result = await runCli(['validate', EXAMPLES, '--format', 'yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Allowed choices are text, json.');
  });

  it('--log-level verbose, before or after the command: exit 1 listing the levels, no stack', async () => {
    for (const args of [
      ['--log-level', 'verbose', 'validate', EXAMPLES],
      ['validate', EXAMPLES, '--log-level', 'verbose'],
    ]) {
      const result = await runCli(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "argument 'verbose' is invalid. Allowed choices are silent, fatal, error, warn, info, debug, trace.",
      );
      expect(result.stderr).not.toMatch(/Internal error|\n\s+at /);
    }
  });

  it('SWITCHBOARD_LOG_LEVEL sets the level (--log-level wins); an unknown one is refused the same way', async () => {
    const debug = await runCli(['plan', EXAMPLES, '--sim'], { env: { SWITCHBOARD_LOG_LEVEL: 'debug' } });
    expect(debug.code).toBe(0);
    expect(debug.stderr).toContain('"msg":"api request"');
    const overridden = await runCli(['plan', EXAMPLES, '--sim', '--log-level', 'warn'], {
      env: { SWITCHBOARD_LOG_LEVEL: 'debug' },
    });
    expect(overridden.stderr).toBe('');
    const wrong = await runCli(['validate', EXAMPLES], { env: { SWITCHBOARD_LOG_LEVEL: 'verbose' } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(
      "value 'verbose' from env 'SWITCHBOARD_LOG_LEVEL' is invalid. Allowed choices are silent, fatal, error, warn, info, debug, trace.",
    );
  });
});

describe("every command's help", () => {
  it('shows the real default of paths, --log-level, exit codes and environment variables', async () => {
    for (const command of COMMANDS) {
      const help = await runCli([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toContain('--log-level <level>');
      // Commander wraps the column to the longest option (apply's --emergency-change <ticket>).
      expect(help.stdout.replace(/\s+/g, ' '), command).toContain('env: SWITCHBOARD_LOG_LEVEL');
      expect(help.stdout, command).toMatch(/\nExit codes:\n {2}0 {2}/);
      expect(help.stdout, command).toContain('\nEnvironment:\n  SWITCHBOARD_LOG_LEVEL');
      expect(help.stdout, command).not.toContain('(default: [])\n\nOptions');
    }
    const plan = (await runCli(['plan', '--help'])).stdout;
    expect(plan).toMatch(/paths\s+manifest files or folders \(default: \.\)/);
    expect(plan).toContain('2  with --detailed-exitcode: the plan has changes');
    expect(plan).toContain('3  a safety rail refused the plan');
    expect(plan).toContain('SWITCHBOARD_URL');
    expect(plan).toContain('SWITCHBOARD_RE_TOKEN');
    expect(plan).toMatch(/\(choices: "text", "json", "markdown",\s+"html", default: "text"\)/);
    expect((await runCli(['apply', '--help'])).stdout).toMatch(/paths\s+manifest files or folders \(default: \.\)/);
    expect((await runCli(['validate', '--help'])).stdout).not.toContain('SWITCHBOARD_URL');
  });
});

describe('sim on a port in use (docs/simulator.md)', () => {
  let busy: Server;
  let port = 0;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    port = (busy.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => busy.close(() => resolve()));
  });

  it('says the port is in use and suggests --port: exit 1, no "Internal error", no stack', async () => {
    for (const level of ['warn', 'info']) {
      const result = await runCli(['sim', '--port', String(port), '--log-level', level]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `Error: port ${port} on 127.0.0.1 is in use (another simulator, or another program): stop it, or choose another port with --port`,
      );
      expect(result.stderr).not.toMatch(/Internal error|\n\s+at /);
    }
  });

  it('at --log-level debug prints the stack, in src/ (the bundle source-mapped), not in its chunks', async () => {
    for (const env of [{}, { SWITCHBOARD_LOG_LEVEL: 'trace' }] as Record<string, string>[]) {
      const args = ['sim', '--port', String(port), ...('SWITCHBOARD_LOG_LEVEL' in env ? [] : ['--log-level=debug'])];
      const result = await runCli(args, { env });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/\n\s+at .*\bsrc\/[\w/-]+\.ts:\d+:\d+/);
      expect(result.stderr).not.toMatch(/dist\/cli\/bundle\//);
    }
  });
});
