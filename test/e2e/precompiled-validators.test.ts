/**
 * The build compiles the manifest validators ahead (scripts/build/validators.mjs), and the
 * built package uses them: its module matches the schema files it ships. That they judge as
 * the run-time ones do is test/manifest/precompiled-validators.test.ts.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliEnv, EXAMPLES, runCli, scratchDir } from './cli-helpers.js';

const SCHEMAS = pathToFileURL(resolve(import.meta.dirname, '../../dist/manifest/schemas.js')).href;

describe('precompiled validators in the build', () => {
  it('are the ones the built CLI validates with, and it reports mistakes through them', async () => {
    const script = `const m = await import(${JSON.stringify(SCHEMAS)}); process.stdout.write(String(m.schemaSet().precompiled));`;
    const dir = await scratchDir();
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: dir,
      env: cliEnv(),
    });
    expect(stdout).toBe('true');
    expect((await runCli(['validate', EXAMPLES])).code).toBe(0);
    const file = join(dir, 'tenant.yaml');
    await writeFile(
      file,
      'apiVersion: switchboard/v1\nkind: Tenant\nmetadata:\n  name: acme\n  reseller: r1\nspec:\n  uuid: x\n',
    );
    const refused = await runCli(['validate', file], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      'tenant.yaml:7:3: error SB_IGNORED_FIELD: "uuid" cannot be set here: `uuid` is assigned by the platform',
    );
  });
});
