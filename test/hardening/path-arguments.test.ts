/**
 * Every path the command line takes (each command's arguments, each option whose value is
 * a file or a folder), derived from the commander program so that a command or an option
 * added later is swept too, given a folder, a regular file that is not what it expects, a
 * missing path, a FIFO and (when not run as root) an unreadable file: the command either
 * accepts it (exit 0) or says why in a line (exit 1). Never "Internal error", never a stack
 * trace, never a hang (a FIFO read would block forever).
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { CLI, cliEnv, EXAMPLES } from '../e2e/cli-helpers.js';

/**
 * What each command needs besides the path swept, to get as far as using it. Plan, apply and
 * export are swept on the paths they use before connecting (the manifests, --config), and on
 * the files they read with the embedded simulator (a seed, a saved plan); what they write
 * after planning (--out, --journal, --state-dir, export's folder) goes through the one
 * writer that file-writes.test.ts sweeps with the same kinds of paths.
 */
const BASE: Record<string, string[]> = {
  validate: [],
  plan: [],
  apply: ['--yes'],
  show: [],
  audit: [],
  export: [],
  sim: ['--port', '0'],
  init: [],
  demo: [],
  version: [],
  compare: [EXAMPLES], // the path swept is A, compared with the examples
  coverage: [],
  verify: [],
  explain: [],
  'baseline suggest': ['--select', 'reseller=north'],
};
/** What comes before the path swept: explain's paths follow the address it explains. */
const BEFORE: Record<string, string[]> = { explain: ['tenant/acme-corp'] };
/** The manifests a command reads when the path swept is an option's. */
const MANIFESTS: Record<string, string[]> = {
  plan: [EXAMPLES],
  apply: [EXAMPLES],
  coverage: [EXAMPLES],
  verify: [EXAMPLES],
};
/**
 * Files read once the embedded simulator is up (a seed) or when apply starts (a saved plan):
 * swept against `--sim`, which needs no platform.
 */
const WITH_SIMULATOR = new Set([
  'plan --seed',
  'apply --plan',
  'apply --seed',
  'export --seed',
  'coverage --seed',
  'verify --seed',
]);
/** The options written only after a plan against a platform (see BASE). */
const AFTER_PLANNING = new Set([
  'plan --out',
  'plan --state-dir',
  'apply --state-dir',
  'apply --journal',
  'export --out',
  'coverage --state-dir',
  'verify --state-dir',
  'verify --journal',
]);

const program = buildProgram(new Command(), () => {
  throw new Error('not run');
});

interface Slot {
  command: string;
  /** The option's long flag, or undefined for the command's argument. */
  option?: string;
}

/** Every command that runs: a command, or each subcommand of a command that has them (`baseline suggest`). */
const leaves: { name: string; command: Command }[] = program.commands.flatMap((command) =>
  command.commands.length > 0
    ? command.commands.map((sub) => ({ name: `${command.name()} ${sub.name()}`, command: sub }))
    : [{ name: command.name(), command }],
);

const slots: Slot[] = leaves.flatMap(({ name, command }) => [
  ...(command.registeredArguments.length > 0 ? [{ command: name }] : []),
  ...command.options
    .filter((o) => /<(file|dir|[a-z-]*file)>/.test(o.flags) && o.long !== undefined)
    .filter((o) => !AFTER_PLANNING.has(`${name} ${o.long}`))
    .map((o) => ({ command: name, option: o.long as string })),
]);

const KINDS = ['a folder', 'a regular file of another kind', 'a missing path', 'a FIFO', 'an unreadable file'] as const;
type Kind = (typeof KINDS)[number];
const root = process.getuid?.() === 0;

async function make(kind: Kind, dir: string): Promise<string> {
  const path = join(dir, 'target');
  if (kind === 'a folder') await mkdir(path);
  else if (kind === 'a regular file of another kind') await writeFile(path, 'just: text\n');
  else if (kind === 'a FIFO') execFileSync('mkfifo', [path]);
  else if (kind === 'an unreadable file') {
    await writeFile(path, 'secret\n');
    await chmod(path, 0);
  }
  return path;
}

interface Outcome {
  code: number | null;
  stderr: string;
  ran: boolean;
}

/** Runs the CLI; a command still running after a while (the simulator serving) counts as having accepted the path. */
function run(args: string[], cwd: string): Promise<Outcome> {
  return new Promise((resolve) => {
    // No manifest cache (nor its user key in the real home): what is checked here is the paths.
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: cliEnv() });
    let stderr = '';
    let ran = false;
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // validate prints its diagnostics on stdout: both count as saying why.
    child.stdout.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      ran = true;
      child.kill('SIGKILL');
    }, 10_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ran });
    });
  });
}

describe('every path of the command line', () => {
  it('knows how to run every command', () => {
    expect(leaves.map((l) => l.name).filter((n) => BASE[n] === undefined)).toEqual([]);
    expect(slots.length).toBeGreaterThan(8);
  });

  it('accepts each kind of path or says why in a line: no internal error, no stack, no hang', async () => {
    const limit = pLimit(4);
    const kinds = KINDS.filter((k) => !(k === 'an unreadable file' && root));
    const cases = slots.flatMap((slot) => kinds.map((kind) => ({ slot, kind })));
    const failures = await Promise.all(
      cases.map(({ slot, kind }) =>
        limit(async () => {
          const cwd = await mkdtemp(join(tmpdir(), 'switchboard-sweep-'));
          const path = await make(kind, cwd);
          const command = slot.command;
          const words = command.split(' ');
          const before = BEFORE[command] ?? [];
          const args = slot.option
            ? [
                ...words,
                ...before,
                ...(MANIFESTS[command] ?? []),
                ...(BASE[command] ?? []),
                ...(WITH_SIMULATOR.has(`${command} ${slot.option}`) ? ['--sim'] : []),
                slot.option,
                path,
              ]
            : [...words, ...before, path, ...(BASE[command] ?? [])];
          const result = await run(args, cwd);
          const what = `${args.join(' ').replace(cwd, '…')} (${kind})`;
          const lines = result.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('{'));
          if (result.ran) return command === 'sim' ? undefined : `${what}: still running after 10 s`;
          if (/Internal error|^\s+at /m.test(result.stderr)) return `${what}: ${result.stderr.slice(0, 300)}`;
          if (result.code !== 0 && result.code !== 1 && result.code !== 3)
            return `${what}: exit ${result.code}: ${lines[0]}`;
          if (result.code !== 0 && lines.length === 0) return `${what}: exit ${result.code} without a word`;
          return undefined;
        }),
      ),
    );
    expect(failures.filter(Boolean)).toEqual([]);
  }, 600_000);
});
