/**
 * Runs documentation as a reader would, from the markdown itself (docs/tutorial.md, the
 * example of README.md). Its blocks, in order:
 * - ```sh: commands typed in one shell (terminal 2), whose variables carry to the next
 *   block; what they print (stdout and stderr) must equal the ```text block that follows,
 *   or be nothing when no ```text block follows;
 * - ```sh background: a command left running in another terminal (the simulator);
 * - ```yaml create=FILE: a file to write; ```yaml show=FILE: a file whose content is shown;
 * - ```diff edit=FILE: an edit (lines `-` replaced by lines `+`).
 * What a page asks to install first is the test's set-up: `npx switchboard` runs the
 * built CLI of this checkout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { testCacheHome } from '../e2e/cli-helpers.js';
import type { Fence, Heading, Item } from './markdown.js';

export const CLI = resolve(import.meta.dirname, '../../dist/cli/main.js');

/** The tutorial's simulator port; the test's simulator takes a free one instead. */
const PAGE_PORT = '8080';

type FileAction = 'create' | 'show' | 'edit';

/** A block to run, or a file to write, check or edit. */
export type Step =
  | { kind: 'run'; script: string; expected: string; line: number; background: boolean }
  | { [K in FileAction]: { kind: K; file: string; body: string; line: number } }[FileAction];

/** The items of the numbered steps of a tutorial: from its `## 1. …` heading to the end. */
export function numberedSteps(items: Item[]): Item[] {
  return items.slice(items.findIndex((i) => i.type === 'heading' && i.level === 2 && /^1\.\s/.test(i.text)));
}

/** The items of the section under the heading `text`, up to the next heading of its level or above. */
export function section(items: Item[], text: string): Item[] {
  const start = items.findIndex((i) => i.type === 'heading' && i.text === text);
  if (start < 0) throw new Error(`no heading "${text}"`);
  const level = (items[start] as Heading).level;
  const end = items.findIndex((i, n) => n > start && i.type === 'heading' && i.level <= level);
  return items.slice(start, end < 0 ? undefined : end);
}

/** The runnable blocks of `items`, each command paired with the output block after it. */
export function stepsOf(items: Item[]): Step[] {
  const fences = items.filter((i): i is Fence => i.type === 'fence');
  const steps: Step[] = [];
  for (let i = 0; i < fences.length; i++) {
    const fence = fences[i] as Fence;
    const file = fence.attrs['create'] ?? fence.attrs['show'] ?? fence.attrs['edit'];
    if (fence.lang === 'sh') {
      const next = fences[i + 1];
      const expected = next?.lang === 'text' ? next.body : '';
      if (next?.lang === 'text') i++;
      steps.push({
        kind: 'run',
        script: fence.body,
        expected,
        line: fence.line,
        background: 'background' in fence.attrs,
      });
    } else if (file !== undefined) {
      const target = { file, body: fence.body, line: fence.line };
      if ('create' in fence.attrs) steps.push({ kind: 'create', ...target });
      else if ('show' in fence.attrs) steps.push({ kind: 'show', ...target });
      else steps.push({ kind: 'edit', ...target });
    } else {
      throw new Error(`line ${fence.line}: a \`${fence.lang}\` block that is neither run nor checked`);
    }
  }
  return steps;
}

/**
 * What may differ between two runs: uuids, digests (a page writes `sha256:…`), journal
 * file names, timings, and the port of the test's simulator (shown as the page's 8080).
 */
export function mask(text: string, port?: string): string {
  let out = text;
  if (port) out = out.replace(new RegExp(`(:|&#58;)${port}\\b`, 'g'), `$1${PAGE_PORT}`);
  return out
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/sha256:[0-9a-f]{64}/g, 'sha256:…')
    .replace(/journal-[0-9TZ-]+\.jsonl/g, 'journal-<time>.jsonl')
    .replace(/\b\d+\.\d+( ?)(s\b|\/s)/g, '<n>$1$2')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trimEnd();
}

/**
 * Compares line by line; in `expected`, a line that is only `…` stands for any lines, and
 * a line ending with `…` for any line that starts with what precedes it.
 */
export function matches(expected: string, actual: string): boolean {
  const want = expected.split('\n');
  const got = actual.split('\n');
  const at = (w: number, g: number): boolean => {
    if (w === want.length) return g === got.length;
    const line = want[w] ?? '';
    if (line === '…') return at(w + 1, g) || (g < got.length && at(w, g + 1));
    if (g === got.length) return false;
    const ok = line.endsWith('…') ? (got[g] ?? '').startsWith(line.slice(0, -1)) : got[g] === line;
    return ok && at(w + 1, g + 1);
  };
  return at(0, 0);
}

/** Applies a ```diff edit block: its `-` and context lines, found once, become its `+` and context lines. */
export function applyEdit(text: string, diff: string): string {
  const lines = diff.replace(/\n$/, '').split('\n');
  const before = lines.filter((l) => !l.startsWith('+')).map((l) => l.slice(1));
  const after = lines.filter((l) => !l.startsWith('-')).map((l) => l.slice(1));
  const old = `${before.join('\n')}\n`;
  const count = text.split(old).length - 1;
  if (count !== 1) throw new Error(`the edit's old lines occur ${count} times in the file:\n${old}`);
  return text.replace(old, `${after.join('\n')}\n`);
}

/** The reader's shell (terminal 2): one bash, each block sourced in turn, stderr merged. */
export class TutorialShell {
  private readonly bash: ChildProcess;
  private output = '';
  private blocks = 0;
  private readonly background: ChildProcess[] = [];
  port: string | undefined;

  private constructor(
    readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.bash.stdout?.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.bash.stdin?.write('exec 2>&1\n');
  }

  /** A shell in `cwd` where `npx switchboard` is the built CLI and no SWITCHBOARD_* variable is set. */
  static async open(cwd: string): Promise<TutorialShell> {
    const bin = join(cwd, '.tutorial-bin');
    await mkdir(bin, { recursive: true });
    const npx = join(bin, 'npx');
    await writeFile(
      npx,
      `#!/bin/sh\nif [ "$1" = switchboard ]; then shift; exec "${process.execPath}" "${CLI}" "$@"; fi\n` +
        'echo "the tutorial test provides only npx switchboard" >&2; exit 127\n',
    );
    await chmod(npx, 0o755);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${bin}:${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`,
      // The manifest cache's user key: never in the real home.
      XDG_CACHE_HOME: testCacheHome(),
    };
    for (const name of Object.keys(env)) if (name.startsWith('SWITCHBOARD_') || name === 'NO_COLOR') delete env[name];
    return new TutorialShell(cwd, env);
  }

  /** The page's commands point at port 8080; the test's simulator listens elsewhere. */
  private localise(script: string): string {
    return this.port ? script.replaceAll(`127.0.0.1:${PAGE_PORT}`, `127.0.0.1:${this.port}`) : script;
  }

  async run(script: string, timeoutMs: number): Promise<string> {
    const n = ++this.blocks;
    const file = join(this.cwd, '.tutorial-bin', `block-${n}.sh`);
    const done = `__tutorial_block_${n}_done__`;
    await writeFile(file, this.localise(script));
    this.output = '';
    this.bash.stdin?.write(`. '${file}' < /dev/null; echo ${done}\n`);
    await this.until(() => this.output.includes(`${done}\n`), timeoutMs, script);
    return this.output.slice(0, this.output.indexOf(done));
  }

  /** Starts a block in the background (with --port 0) and returns its first `lines` lines of output. */
  async start(script: string, lines: number, timeoutMs: number): Promise<string> {
    const command = `exec 2>&1; ${script.trim()} --port 0`;
    const child = spawn('bash', ['-c', command], {
      cwd: this.cwd,
      env: this.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    this.background.push(child);
    let text = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    await this.until(() => text.split('\n').length > lines || child.exitCode !== null, timeoutMs, script);
    this.port = /127\.0\.0\.1:(\d+)/.exec(text)?.[1];
    return text;
  }

  private async until(done: () => boolean, timeoutMs: number, script: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline)
        throw new Error(`no end after ${timeoutMs} ms of:\n${script}\noutput so far:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async readFile(file: string): Promise<string> {
    return readFile(join(this.cwd, file), 'utf8');
  }

  async writeFile(file: string, text: string): Promise<void> {
    await mkdir(dirname(join(this.cwd, file)), { recursive: true });
    await writeFile(join(this.cwd, file), text);
  }

  async close(): Promise<void> {
    this.bash.stdin?.end();
    for (const child of this.background) {
      if (child.exitCode !== null || child.pid === undefined) continue;
      process.kill(-child.pid, 'SIGTERM');
      await once(child, 'exit');
    }
  }
}
