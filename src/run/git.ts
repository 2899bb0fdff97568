import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { SwitchboardError } from '../core/errors.js';

/** The error of every `--changed-since` problem that stops a plan before it starts (exit 1). */
export const CHANGED_SINCE_ERROR = 'SB_CHANGED_SINCE';

/**
 * Runs git for switchboard (`--changed-since`, the journal's provenance): plumbing commands
 * whose output does not depend on the user's configuration (`-z`, no renames, no external
 * diff), no optional lock on the index (a CI job's other git commands never wait for us),
 * no file-system monitor hook, no prompt. Fails with {@link GitError}; `missing` when git
 * is not on PATH.
 */
export function runGit(cwd: string, args: readonly string[], timeoutMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'core.fsmonitor=false', '-c', 'core.quotePath=false', ...args],
      { cwd, env: gitEnv(), maxBuffer: 512 * 1024 * 1024, encoding: 'utf8', timeout: timeoutMs },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        reject(new GitError(args, stderr.trim() || error.message, missing));
      },
    );
  });
}

/** {@link runGit} for `--changed-since`: no git at all is the user's to fix, said as such. */
async function git(cwd: string, args: readonly string[]): Promise<string> {
  try {
    return await runGit(cwd, args);
  } catch (error) {
    if (error instanceof GitError && error.missing)
      throw changedSinceError('--changed-since needs git, and git is not on PATH');
    throw error;
  }
}

/** Exit 1, the code first in the message (the command line prints the message alone). */
function changedSinceError(message: string): SwitchboardError {
  return new SwitchboardError(CHANGED_SINCE_ERROR, `${CHANGED_SINCE_ERROR}: ${message}`);
}

function gitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
}

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    readonly missing = false,
  ) {
    super(`git ${args[0] ?? ''}: ${stderr}`);
  }
}

/** How a path differs from the commit (git's status letters): A added, D deleted, M modified, T type changed, U unmerged. */
export type ChangeStatus = 'A' | 'D' | 'M' | 'T' | 'U';

/** The repository holding the manifests, and what its working tree changed since a commit. */
export interface GitChanges {
  /** The working tree's top folder (its real path). */
  root: string;
  /** The ref as given and the commit it names. */
  ref: string;
  commit: string;
  /** Paths (relative to `root`, with `/`) that differ between the commit and the working tree (index included). */
  changed: ReadonlyMap<string, ChangeStatus>;
  /** Those of them that are a symbolic link at the commit or now (git's mode 120000). */
  links: ReadonlySet<string>;
  /** Paths git tracks (the index): any other file is unknown to git and counts as changed. */
  tracked: ReadonlySet<string>;
  /** The content of a path at the commit, or null when it had none. */
  blob(path: string): Promise<Buffer | null>;
  close(): void;
}

/**
 * Opens the repository around `dir` and lists what changed since `ref`: git's own
 * comparison of the commit with the working tree (`git diff --name-status`), renames as a
 * deletion plus an addition, and every untracked or ignored file as new.
 */
export async function gitChangesSince(dir: string, ref: string): Promise<GitChanges> {
  let root: string;
  try {
    root = await realpath((await git(dir, ['rev-parse', '--show-toplevel'])).trim());
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    throw changedSinceError(
      `--changed-since ${ref}: the manifests (${dir}) are not in a git working tree (${error.stderr}); plan without --changed-since`,
    );
  }
  const commit = await resolveCommit(root, ref);
  const [diff, listed] = await Promise.all([
    git(root, ['diff', '--raw', '-z', '--no-renames', '--no-ext-diff', '--ignore-submodules', commit, '--']),
    git(root, ['ls-files', '-z']),
  ]);
  const blobs = new BlobReader(root, commit);
  return {
    root,
    ref,
    commit,
    ...parseRawDiff(diff),
    tracked: new Set(listed.split('\0').filter((p) => p !== '')),
    blob: (path) => blobs.read(path),
    close: () => blobs.close(),
  };
}

async function resolveCommit(root: string, ref: string): Promise<string> {
  if (ref.startsWith('-') || ref.trim() === '')
    throw changedSinceError(`--changed-since ${JSON.stringify(ref)}: not a git revision`);
  try {
    return (await git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).trim();
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    throw changedSinceError(
      `--changed-since ${ref}: no such commit in ${root}. In a shallow clone, fetch it first ` +
        `(git fetch --depth=1 origin ${ref}, or actions/checkout with fetch-depth: 0)`,
    );
  }
}

/**
 * The files of a commit, read through one `git cat-file --batch` (the caller closes it):
 * the content of a path relative to the working tree's top, or null when the commit has none.
 */
export function commitFiles(
  root: string,
  commit: string,
): { read(path: string): Promise<Buffer | null>; close(): void } {
  const blobs = new BlobReader(root, commit);
  return { read: (path) => blobs.read(path), close: () => blobs.close() };
}

/**
 * `git diff --raw -z`: `:<old mode> <new mode> <old id> <new id> <status>\0<path>\0` per
 * path (with --no-renames every entry has one). Mode 120000 is a symbolic link.
 */
function parseRawDiff(output: string): { changed: Map<string, ChangeStatus>; links: Set<string> } {
  const parts = output.split('\0');
  const changed = new Map<string, ChangeStatus>();
  const links = new Set<string>();
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [oldMode = '', newMode = '', , , status = ''] = (parts[i] ?? '').replace(/^:/, '').split(' ');
    const letter = status.charAt(0);
    const path = parts[i + 1] ?? '';
    if (path === '') continue;
    changed.set(path, letter === 'A' || letter === 'D' || letter === 'T' || letter === 'U' ? letter : 'M');
    if (oldMode === '120000' || newMode === '120000') links.add(path);
  }
  return { changed, links };
}

/**
 * The files' content at the commit, through one `git cat-file --batch` for the whole run:
 * each question is a line on its stdin, each answer a header and the bytes on its stdout.
 */
class BlobReader {
  private process: ChildProcessWithoutNullStreams | undefined;
  private buffer = Buffer.alloc(0);
  private readonly waiting: { resolve: (b: Buffer | null) => void; reject: (e: Error) => void }[] = [];
  private readonly cache = new Map<string, Promise<Buffer | null>>();

  constructor(
    private readonly root: string,
    private readonly commit: string,
  ) {}

  read(path: string): Promise<Buffer | null> {
    let answer = this.cache.get(path);
    if (!answer) {
      answer = new Promise((resolve, reject) => {
        this.waiting.push({ resolve, reject });
        this.start().stdin.write(`${this.commit}:${path}\n`);
      });
      this.cache.set(path, answer);
    }
    return answer;
  }

  close(): void {
    this.process?.stdin.end();
    this.process = undefined;
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.process) return this.process;
    const child = spawn('git', ['-c', 'core.fsmonitor=false', 'cat-file', '--batch'], {
      cwd: this.root,
      env: gitEnv(),
    });
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    const fail = (error: Error) => {
      for (const w of this.waiting.splice(0)) w.reject(error);
    };
    child.on('error', fail);
    child.on('close', (code) => {
      if (this.waiting.length > 0) fail(new Error(`git cat-file ended (exit ${code ?? 'signal'}) before answering`));
    });
    this.process = child;
    return child;
  }

  /** Answers every complete reply in the buffer: `<oid> blob <size>\n<bytes>\n`, or `<name> missing\n`. */
  private drain(): void {
    for (;;) {
      const end = this.buffer.indexOf(0x0a);
      if (end < 0 || this.waiting.length === 0) return;
      const header = this.buffer.subarray(0, end).toString('utf8');
      const match = / (blob|tree|commit|tag) (\d+)$/.exec(header);
      if (!match) {
        // `missing` (no such path at the commit) or `ambiguous`: the file did not exist there.
        this.buffer = this.buffer.subarray(end + 1);
        this.waiting.shift()?.resolve(null);
        continue;
      }
      const size = Number(match[2]);
      if (this.buffer.length < end + 1 + size + 1) return;
      const body = Buffer.from(this.buffer.subarray(end + 1, end + 1 + size));
      this.buffer = this.buffer.subarray(end + 1 + size + 1);
      // A folder at that path at the commit is no file either.
      this.waiting.shift()?.resolve(match[1] === 'blob' ? body : null);
    }
  }
}
