/**
 * An export interrupted by Ctrl-C, SIGTERM or a crash leaves no half-written file, and the
 * same command run again finishes it: the files are then those of an export that was never
 * interrupted (docs/export.md "Interrupted exports"). Files are written while the export
 * runs, so the interruption finds some written and others not. A large export writes its
 * files on a thread of its own (src/export/file-writer.ts), a small one on the main thread:
 * both are interrupted.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { estateSeed } from '../export/estate-seed.js';
import { differingFiles, treeFiles } from '../export/tree-files.js';
import { WRITER_THREAD_FROM_FILES } from '../../src/export/file-writer.js';
import { CLI, cliEnv, runCli, scratchDir, simEnv } from './cli-helpers.js';

const UNFINISHED = '.switchboard-export-unfinished';

/** An estate on a simulator, its export's reference files, and the environment to export it. */
interface Estate {
  sim: RunningSimulator;
  base: string;
  reference: Map<string, string>;
  env: Record<string, string>;
}

/** `tenants` tenants at 3 ms a request: exported at 2 requests at a time, seconds to interrupt. */
async function estate(tenants: number): Promise<Estate> {
  const sim = await startSimulator({
    port: 0,
    latencyMs: 3,
    seed: estateSeed({ tenants, subscriptionsPerTenant: 1, entitlementsPerSubscription: 3 }),
  });
  const env = { ...simEnv(sim.url), SWITCHBOARD_PROGRESS_INTERVAL_MS: '3600000' };
  const base = await mkdtemp(join(tmpdir(), 'switchboard-interrupt-'));
  const done = await runCli(['export', '--out', join(base, 'reference'), '--concurrency', '32'], { env });
  expect(done.code).toBe(0);
  return { sim, base, env, reference: await treeFiles(join(base, 'reference')) };
}

/** Starts an export, waits until it has written a few tenants' files, and sends `signal`. */
async function interrupt(
  { env }: Estate,
  out: string,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'export', '--out', out, '--concurrency', '2'], {
    cwd: await scratchDir(),
    env: cliEnv(env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, killed) => resolve(code ?? (killed ? null : -1))),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const written = await readdir(join(out, 'tenants')).catch(() => [] as string[]);
    if (written.filter((f) => f.endsWith('.yaml')).length >= 5) break;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the export ended before it was interrupted: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  child.kill(signal);
  return { code: await exited, stderr };
}

/** Every exported file left is complete (the reference's bytes); some are missing; no temporary file. */
function expectCompleteFilesOnly({ reference }: Estate, files: ReadonlyMap<string, string>): void {
  const yaml = [...files.keys()].filter((f) => f.endsWith('.yaml'));
  expect(yaml.length).toBeGreaterThan(0);
  expect(yaml.length).toBeLessThan(reference.size);
  for (const file of yaml) expect(files.get(file), file).toBe(reference.get(file));
  expect([...files.keys()].filter((f) => f.endsWith('.tmp'))).toEqual([]);
  expect(files.has(UNFINISHED)).toBe(true);
}

/** The same command again, without --force: it finishes the export. */
async function finish({ env, reference }: Estate, out: string): Promise<void> {
  const again = await runCli(['export', '--out', out], { env });
  expect(again.stderr).toContain('holds an export that did not finish: continuing it');
  expect(again.code).toBe(0);
  expect(differingFiles(reference, await treeFiles(out))).toEqual([]);
}

describe('an interrupted export, its files written on a thread of their own', () => {
  let large: Estate;
  beforeAll(async () => {
    large = await estate(WRITER_THREAD_FROM_FILES);
    expect(large.reference.size).toBeGreaterThan(WRITER_THREAD_FROM_FILES);
  }, 120_000);
  afterAll(async () => {
    await large.sim.close();
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: exit ${code}, only complete files left, and the same command finishes it`, async () => {
      const out = join(large.base, signal);
      const stopped = await interrupt(large, out, signal);
      expect(stopped.stderr).toContain(`Interrupted (${signal}) while exporting: every file written is complete`);
      expect(stopped.code).toBe(code);
      expectCompleteFilesOnly(large, await treeFiles(out));
      await finish(large, out);
    }, 120_000);
  }

  it('a crash (SIGKILL) between writing a file and renaming it: the next run removes the temporary file and finishes', async () => {
    const out = join(large.base, 'SIGKILL');
    const killed = await interrupt(large, out, 'SIGKILL');
    expect(killed.code).toBeNull();
    // Where a crash between the write and the rename would leave a half-written file: beside, not in place.
    await writeFile(join(out, 'tenants', '.estate-00999.yaml.4242.tmp'), 'apiVersion: switchboard/v1\nkind: Ten');
    const files = await treeFiles(out);
    for (const file of [...files.keys()].filter((f) => f.endsWith('.yaml')))
      expect(files.get(file), file).toBe(large.reference.get(file));
    await finish(large, out);
  }, 120_000);

  it('a complete export is not continued: the folder then needs --force as before', async () => {
    const refused = await runCli(['export', '--out', join(large.base, 'reference')], { env: large.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty');
  });
});

describe('an interrupted export, its files written on the main thread', () => {
  let small: Estate;
  beforeAll(async () => {
    small = await estate(300);
    expect(small.reference.size).toBeLessThan(WRITER_THREAD_FROM_FILES);
  }, 120_000);
  afterAll(async () => {
    await small.sim.close();
  });

  it('SIGTERM: exit 143, only complete files left, and the same command finishes it', async () => {
    const out = join(small.base, 'SIGTERM');
    const stopped = await interrupt(small, out, 'SIGTERM');
    expect(stopped.stderr).toContain('Interrupted (SIGTERM) while exporting: every file written is complete');
    expect(stopped.code).toBe(143);
    expectCompleteFilesOnly(small, await treeFiles(out));
    await finish(small, out);
  }, 120_000);
});
