/**
 * A seed file is read whole before the simulator starts: a file that is not a seed (a
 * manifest, a plan given to --seed by mistake) is refused naming its first unknown key,
 * instead of starting an empty simulator whose login then fails for no visible reason.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSeedFile } from '../../src/sim/platform/seed/load-seed.js';

async function seedFile(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'switchboard-seed-')), 'seed.yaml');
  await writeFile(file, text);
  return file;
}

describe('readSeedFile', () => {
  it('reads a seed holding only seed keys', async () => {
    const file = await seedFile('instance: lab\nrateLimit: 50\ngroups: []\n');
    expect(await readSeedFile(file)).toEqual({ instance: 'lab', rateLimit: 50, groups: [] });
  });

  it('refuses a file with a key no seed has, naming it and the keys a seed holds', async () => {
    const file = await seedFile('apiVersion: switchboard/v1\nkind: Tenant\n');
    await expect(readSeedFile(file)).rejects.toMatchObject({
      code: 'SB_SIM_SEED',
      message: expect.stringMatching(/unknown key apiVersion \(a seed holds instance, webhook, .*inventedEndpoints\)$/),
    });
  });

  it('refuses a top level that is not a mapping', async () => {
    await expect(readSeedFile(await seedFile('- a\n- b\n'))).rejects.toMatchObject({
      message: expect.stringContaining('the top level must be a mapping'),
    });
  });
});
