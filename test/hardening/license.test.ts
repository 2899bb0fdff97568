/**
 * The licence package.json declares is the one shipped: a LICENSE file at the repository's
 * root holding that licence's text, and in the tarball `npm pack` makes (what a user of the
 * package receives).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** The first line of each licence's text, by its SPDX identifier. */
const LICENCE_TITLES: Record<string, string> = { MIT: 'MIT License' };

describe('the licence', () => {
  it('package.json names a licence whose text is LICENSE at the root', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { license?: string };
    const title = LICENCE_TITLES[pkg.license ?? ''];
    expect(title, `a licence this test knows, not ${pkg.license}`).toBeDefined();
    const text = await readFile(join(ROOT, 'LICENSE'), 'utf8');
    expect(text.split('\n')[0]).toBe(title);
    expect(text).toMatch(/^Copyright \(c\) \d{4} \S.*$/m);
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  it('ships in the tarball npm pack makes', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? ROOT },
      maxBuffer: 64 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    expect(packed.files.map((f) => f.path)).toContain('LICENSE');
  }, 60_000);
});
