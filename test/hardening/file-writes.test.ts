/**
 * Every file switchboard writes (plan --out, the journal, export --out, the last-applied
 * record, the simulator's state file, the files of init) is written as a regular file in
 * its own folder: a symbolic link (to a file outside the folder), a FIFO, a device node or
 * a folder at the target's path is refused, never replaced and never written through. And
 * init merges into an existing repository: the team's .gitignore lines and README stay,
 * --dry-run writes nothing, a link planted in the repository refuses the run.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/apply/journal.js';
import { scaffold } from '../../src/init/scaffold.js';
import { writePlanFile } from '../../src/plan/plan-file.js';
import type { Plan } from '../../src/plan/types.js';
import { writeFileAtomic } from '../../src/sim/persistence.js';
import { writeLastApplied } from '../../src/state/last-applied.js';
import { EXAMPLES, runCli } from '../e2e/cli-helpers.js';

let top: string;
let plan: Plan;
const OUTSIDE = 'the file outside the folder\n';

/** Each kind of path that is not a regular file, made in a fresh folder; the device only as root (mknod). */
const TARGETS: Record<string, (file: string) => Promise<void>> = {
  'a symbolic link to a file outside the folder': async (file) => {
    const outside = join(await mkdtemp(join(tmpdir(), 'switchboard-outside-')), 'victim');
    await writeFile(outside, OUTSIDE);
    await symlink(outside, file);
  },
  'a FIFO': async (file) => void execFileSync('mkfifo', [file]),
  'a folder': async (file) => mkdir(file),
  ...(process.getuid?.() === 0
    ? { 'a device node': async (file: string) => void execFileSync('mknod', [file, 'c', '1', '7']) }
    : {}),
};

/** Each writer, given the path it must write. */
const WRITERS: Record<string, (file: string) => Promise<unknown>> = {
  'plan --out': (file) => writePlanFile(file, plan),
  '--journal': async (file) => (await Journal.open(file)).close(),
  'the last-applied record': (file) => writeLastApplied(file, { baseUrl: 'http://x', instance: 'i' }, new Map()),
  "the simulator's state file": (file) => writeFileAtomic(file, '{}'),
};

async function kindOf(file: string): Promise<string> {
  const info = await lstat(file);
  return info.isSymbolicLink()
    ? 'link'
    : info.isFIFO()
      ? 'fifo'
      : info.isDirectory()
        ? 'dir'
        : info.isFile()
          ? 'file'
          : 'device';
}

beforeAll(async () => {
  top = await mkdtemp(join(tmpdir(), 'switchboard-writes-'));
  const out = join(top, 'plan.json');
  const made = await runCli(['plan', EXAMPLES, '--sim', '--out', out]);
  expect(made.code, made.stderr).toBe(0);
  plan = JSON.parse(await readFile(out, 'utf8')) as Plan;
}, 60_000);

describe('a target that is not a regular file is refused, not replaced', () => {
  for (const [writer, write] of Object.entries(WRITERS)) {
    it.each(Object.keys(TARGETS))(`${writer}: %s`, async (target) => {
      const dir = await mkdtemp(join(top, 'case-'));
      const file = join(dir, 'target');
      await TARGETS[target]!(file);
      const before = await kindOf(file);
      await expect(write(file)).rejects.toThrow(/is (a symbolic link|a FIFO|a device|a folder)/);
      expect(await kindOf(file)).toBe(before);
      if (before === 'link') expect(await readFile(file, 'utf8')).toBe(OUTSIDE);
      expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    });
  }

  it('export --out: a symbolic link where a manifest goes is refused; the file it leads to is untouched', async () => {
    const dir = await mkdtemp(join(top, 'export-'));
    const outside = join(await mkdtemp(join(tmpdir(), 'switchboard-outside-')), 'victim');
    await writeFile(outside, OUTSIDE);
    await mkdir(join(dir, 'tenants'), { recursive: true });
    await symlink(outside, join(dir, 'tenants', 'acme-corp.yaml'));
    const result = await runCli(['export', '--sim', '--out', dir, '--force']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/acme-corp\.yaml is a symbolic link: switchboard writes only regular files/);
    expect(await readFile(outside, 'utf8')).toBe(OUTSIDE);
  }, 60_000);

  it('export --out: a folder export writes into, planted as a link outside, refuses the run before anything is written', async () => {
    const dir = await mkdtemp(join(top, 'export-'));
    const elsewhere = await mkdtemp(join(tmpdir(), 'switchboard-outside-'));
    await symlink(elsewhere, join(dir, 'tenants'));
    const result = await runCli(['export', '--sim', '--out', dir, '--force']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/tenants leads to .*, not a folder inside .* \(through a symbolic link\)/);
    expect(await readdir(elsewhere)).toEqual([]);
    expect(await readdir(dir)).toEqual(['tenants']);
  }, 60_000);

  it('export --out: a link to a folder inside --out (even one named `..data`) is written through', async () => {
    const dir = await mkdtemp(join(top, 'export-'));
    await mkdir(join(dir, '..data'));
    await symlink(join(dir, '..data'), join(dir, 'tenants'));
    const result = await runCli(['export', '--sim', '--out', dir, '--force']);
    expect(result.stderr).not.toContain('SB_WRITE_TARGET');
    expect(result.code).toBe(0);
    expect((await readdir(join(dir, '..data'))).some((f) => f.endsWith('.yaml'))).toBe(true);
  }, 60_000);
});

describe('init in an existing repository', () => {
  it("merges: the team's .gitignore lines and README stay; --dry-run writes nothing", async () => {
    const dir = await mkdtemp(join(top, 'init-'));
    await writeFile(join(dir, '.gitignore'), 'secrets.env\n*.pem\nnode_modules/\n');
    await writeFile(join(dir, 'README.md'), '# Our platform\n\nOur words.\n');
    const dry = await scaffold(dir, { force: false, dryRun: true });
    expect(dry.files.find((f) => f.path === '.gitignore')).toMatchObject({ outcome: 'updated' });
    expect(await readdir(dir)).toEqual(['.gitignore', 'README.md']);
    const done = await scaffold(dir, { force: false });
    expect(done.files.filter((f) => f.outcome === 'replaced' || f.outcome === 'conflict')).toEqual([]);
    const ignore = await readFile(join(dir, '.gitignore'), 'utf8');
    expect(ignore.startsWith('secrets.env\n*.pem\nnode_modules/\n')).toBe(true);
    expect(ignore).toContain('.switchboard/*');
    expect(ignore.match(/^node_modules\/$/gm)).toHaveLength(1);
    const readme = await readFile(join(dir, 'README.md'), 'utf8');
    expect(readme.startsWith('# Our platform\n\nOur words.\n')).toBe(true);
    // Again: everything is kept, the section is not repeated.
    const again = await scaffold(dir, { force: false });
    expect(new Set(again.files.map((f) => f.outcome))).toEqual(new Set(['kept']));
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe(readme);
  });

  it('--dry-run exits as init would: 1 with a conflict (listed, nothing written), 0 with --force', async () => {
    const dir = await mkdtemp(join(top, 'init-dry-'));
    await writeFile(join(dir, 'switchboard.config.yaml'), '# ours\n');
    const dry = await runCli(['init', dir, '--dry-run']);
    expect(dry.code).toBe(1);
    expect(dry.stdout).toMatch(/conflict +switchboard\.config\.yaml/);
    expect(dry.stdout).toContain('Nothing was written. 1 file(s) differ');
    const real = await runCli(['init', dir]);
    expect(real.code, 'the run the dry run rehearsed').toBe(1);
    expect(await readdir(dir)).toEqual(['switchboard.config.yaml']);
    expect((await runCli(['init', dir, '--dry-run', '--force'])).code).toBe(0);
  }, 60_000);

  it('--force does not write through a link planted in the repository (a file, or a folder leading outside)', async () => {
    for (const [planted, link] of [
      ['README.md', 'file'],
      ['.github', 'folder'],
    ] as const) {
      const dir = await mkdtemp(join(top, 'init-link-'));
      const outside = await mkdtemp(join(tmpdir(), 'switchboard-outside-'));
      await writeFile(join(outside, 'victim'), OUTSIDE);
      await symlink(link === 'file' ? join(outside, 'victim') : outside, join(dir, planted));
      await expect(scaffold(dir, { force: true })).rejects.toMatchObject({ code: 'SB_INIT_TARGET' });
      expect(await readdir(dir)).toEqual([planted]);
      expect(await readdir(outside)).toEqual(['victim']);
      expect(await readFile(join(outside, 'victim'), 'utf8')).toBe(OUTSIDE);
    }
  });
});
