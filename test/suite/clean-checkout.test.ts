/**
 * The global setup that keeps the checkout clean (clean-checkout.ts) sees what a test leaves
 * behind, ignored files included: a journal in `.switchboard/` is ignored by git and still a
 * file in the checkout. Runs git in a temporary repository (so: the e2e tier).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutStatus, leftBehind } from './clean-checkout.js';

describe('the clean-checkout guard', () => {
  it('names new untracked, ignored and modified files, not those that were there before the run', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'sb-checkout-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'ignore' });
    git('init', '-q');
    await writeFile(join(repo, '.gitignore'), '.switchboard/\nnode_modules/\n');
    await writeFile(join(repo, 'tracked.txt'), 'one\n');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'start');
    await mkdir(join(repo, '.switchboard'));
    await writeFile(join(repo, '.switchboard', 'journal-old.jsonl'), '{}\n'); // there before the run
    await mkdir(join(repo, 'node_modules'));
    const before = checkoutStatus(repo);
    expect(before).toEqual(new Set(['!! .switchboard/journal-old.jsonl']));

    await writeFile(join(repo, '.switchboard', 'journal-new.jsonl'), '{}\n');
    await writeFile(join(repo, 'node_modules', 'cache.json'), '{}\n'); // installed trees are not the tests'
    await writeFile(join(repo, 'tracked.txt'), 'two\n');
    await writeFile(join(repo, 'stray.txt'), 'x\n');
    expect(leftBehind(before!, checkoutStatus(repo)!)).toEqual([
      ' M tracked.txt',
      '!! .switchboard/journal-new.jsonl',
      '?? stray.txt',
    ]);
  });

  it('compares nothing outside a git checkout (an unpacked package)', async () => {
    expect(checkoutStatus(await mkdtemp(join(tmpdir(), 'sb-not-a-repo-')))).toBeUndefined();
  });
});
