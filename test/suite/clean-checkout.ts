/**
 * Tests write only in temporary folders: vitest's global setup notes what `git status` shows
 * (ignored files included: `.switchboard/` is ignored, and a journal left there is still a
 * journal in the checkout), and the teardown fails the run when a file appeared or changed.
 * `UPDATE_GOLDEN=1` rewrites the case folders' expected outputs on purpose: not checked then.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** `git status` lines of the checkout, ignored files one by one, without the installed and built trees. */
export function checkoutStatus(root = ROOT): Set<string> | undefined {
  try {
    const out = execFileSync(
      'git',
      [
        'status',
        '--porcelain',
        '--ignored',
        '--untracked-files=all',
        '--',
        '.',
        ':(exclude)node_modules',
        ':(exclude)dist',
        ':(exclude)coverage',
      ],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    return new Set(out.split('\n').filter((l) => l !== ''));
  } catch {
    return undefined; // not a git checkout (an unpacked package): nothing to compare
  }
}

/** What the run left behind: status lines that were not there before it. */
export function leftBehind(before: ReadonlySet<string>, after: ReadonlySet<string>): string[] {
  return [...after].filter((line) => !before.has(line)).sort();
}

/**
 * Each project inherits the root's global setup, and vitest runs it once per project in one
 * process: the first call notes the status, the first teardown compares, the others do nothing.
 */
const run = globalThis as { switchboardCheckout?: { before?: Set<string>; checked: boolean } };

export default function setup(): () => void {
  run.switchboardCheckout ??= { before: checkoutStatus(), checked: false };
  const state = run.switchboardCheckout;
  return () => {
    if (state.checked || !state.before || process.env['UPDATE_GOLDEN'] === '1') return;
    state.checked = true;
    const after = checkoutStatus();
    const added = after ? leftBehind(state.before, after) : [];
    if (added.length === 0) return;
    // vitest reports an error thrown here but still exits 0: the exit code is set here.
    process.exitCode = 1;
    process.stderr.write(
      `\nFAIL the tests wrote into the checkout (tests write only in temporary folders, e.g. mkdtemp(join(tmpdir(), …))):\n` +
        `${added.map((l) => `  ${l}`).join('\n')}\n` +
        'A CLI run without a cwd writes its journal into <cwd>/.switchboard/: give it a temporary cwd.\n',
    );
  };
}
