/**
 * docs/export.md: files without the export header are never touched. `--force` lets an export
 * write into a folder that holds files, and removes or overwrites only those a previous export
 * wrote; a hand-written file where a document goes refuses the export (SB_WRITE_TARGET) and
 * stays as it was.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { runCli, scratchDir, simEnv } from '../e2e/cli-helpers.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

describe('export --force', () => {
  it('overwrites what an export wrote, never a hand-written file', async () => {
    const out = join(await scratchDir(), 'manifests');
    const env = simEnv(sim.url);
    expect((await runCli(['export', '--out', out], { env })).code).toBe(0);
    // Again over its own files: each is replaced.
    const again = await runCli(['export', '--out', out, '--force'], { env });
    expect(again.code, again.stderr).toBe(0);
    const mine = join(out, 'tenants', 'acme-corp.yaml');
    // Outside a checkout with schemas: the schema's bare name, not a path into the installation.
    expect((await readFile(mine, 'utf8')).split('\n')[0]).toBe('# yaml-language-server: $schema=tenant.schema.json');
    const handWritten = '# kept by hand\napiVersion: switchboard/v1\n';
    await writeFile(mine, handWritten);
    await mkdir(join(out, 'tenants'), { recursive: true });
    const refused = await runCli(['export', '--out', out, '--force'], { env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('an export did not write it (it has no export header)');
    expect(await readFile(mine, 'utf8')).toBe(handWritten);
  }, 60_000);
});
