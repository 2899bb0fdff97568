/**
 * Usage errors as a user at a terminal meets them, for every command and option the
 * program registers (derived from the commander program: a command added later is covered
 * by construction): the error, its "Did you mean", and one line saying where the help is,
 * not the whole help scrolling them away. An unknown command is an error (exit 1) with or
 * without --help, so that a script asking `switchboard rollback --help` learns that this
 * version has no such command.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, runCli } from '../../src/cli/program.js';
import { runCli as runBinary } from '../e2e/cli-helpers.js';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command line in this process, capturing what commander writes. */
async function cli(args: string[]): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const program = new Command().configureOutput({
    writeOut: (s) => void (stdout += s),
    writeErr: (s) => void (stderr += s),
  });
  const code = await runCli(['node', 'switchboard', ...args], program);
  return { code, stdout, stderr };
}

const program = buildProgram(new Command(), () => {
  throw new Error('no command runs here');
});
const commands = program.commands.map((c) => c.name());

/** A one-letter typo: the middle letter dropped. */
const typo = (word: string): string => word.slice(0, Math.floor(word.length / 2)) + word.slice(word.length / 2 + 1);

describe('a misspelled option of every command', () => {
  const cases = program.commands.flatMap((command) =>
    command.options
      .map((o) => o.long)
      .filter((long): long is string => long !== undefined && long.length > 6 && !long.startsWith('--no-'))
      .map((long) => ({ command: command.name(), long })),
  );

  it('covers every command with a long option', () => {
    expect(new Set(cases.map((c) => c.command)).size).toBeGreaterThanOrEqual(commands.length - 1);
  });

  it.each(cases)('$command $long: the error, the hint, and where the help is; no usage dump', async (c) => {
    const misspelled = `--${typo(c.long.slice(2))}`;
    const result = await cli([c.command, misspelled]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`error: unknown option '${misspelled}'`);
    expect(lines[1]).toMatch(/^\(Did you mean --[\w-]+\?\)$/);
    expect(lines.slice(2)).toEqual([`see \`switchboard ${c.command} --help\``]);
  });
});

describe('an unknown command', () => {
  it.each(commands.filter((name) => name.length > 2))(
    'a misspelled %s, with or without --help, or after help: exit 1 and "Did you mean"',
    async (name) => {
      const wrong = typo(name);
      for (const args of [[wrong], [wrong, '--help'], ['--help', wrong], [wrong, '-h'], ['help', wrong]]) {
        const result = await cli(args);
        expect(result.code, args.join(' ')).toBe(1);
        expect(result.stdout, args.join(' ')).toBe('');
        expect(result.stderr.trimEnd().split('\n'), args.join(' ')).toEqual([
          `error: unknown command '${wrong}'`,
          `(Did you mean ${name}?)`,
          'see `switchboard --help`',
        ]);
      }
    },
  );

  it('the real binary: `switchboard rollback --help` fails; `switchboard plan --help` does not', async () => {
    const missing = await runBinary(['rollback', '--help']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain("error: unknown command 'rollback'");
    const known = await runBinary(['--log-level', 'warn', 'plan', '--help']);
    expect(known.code).toBe(0);
    expect(known.stdout).toContain('Usage: switchboard plan');
  });

  it("a known command's help still prints, exit 0, in every spelling", async () => {
    for (const name of commands) {
      for (const args of [
        [name, '--help'],
        ['help', name],
        ['--log-level', 'info', name, '-h'],
      ]) {
        const result = await cli(args);
        expect(result.code, args.join(' ')).toBe(0);
        expect(result.stdout, args.join(' ')).toContain(`Usage: switchboard ${name}`);
      }
    }
  });
});

describe('numeric options read a plain decimal, nothing Number() would also take', () => {
  const unwritten = ['', ' ', '0x10', '1e2', '-1', 'NaN', 'Infinity', '5 ', '+5'];

  it('decimal(): digits and one point; everything else is no number', async () => {
    const { decimal } = await import('../../src/cli/numbers.js');
    expect(['30', '2.5', '.5', '0', '100.'].map(decimal)).toEqual([30, 2.5, 0.5, 0, 100]);
    for (const value of unwritten) expect(decimal(value), JSON.stringify(value)).toBeUndefined();
  });

  it('--max-delete-percent, --max-update-percent, --concurrency, --coverage: a usage error, exit 1', async () => {
    for (const option of ['--max-delete-percent', '--max-update-percent', '--concurrency'])
      for (const value of unwritten) {
        // A path that does not exist: were the value taken, the plan would stop there, reading nothing.
        const result = await cli(['plan', '/nonexistent/switchboard-manifests', `${option}=${value}`]);
        expect(result.code, `${option}=${JSON.stringify(value)}`).toBe(1);
        expect(result.stderr).toContain(`option '${option} `);
      }
    const result = await cli(['baseline', 'suggest', '--select', 'tenant/*', '--coverage=']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("option '--coverage <percent>' argument '' is invalid");
  });
});
