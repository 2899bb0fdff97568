/**
 * docs/manifests.md "Secrets: `${VAR}`": a manifest never sends switchboard's own credentials
 * to the platform. `${SWITCHBOARD_PASSWORD}` is refused by name at validate; a variable the
 * configuration file names for the password (`password: ${CORP_PASSWORD}`), read by a
 * manifest too, is refused by value when plan or apply connect: exit 1 at the field's
 * position, the value in no output, nothing written to the platform.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { runCli } from '../e2e/cli-helpers.js';
import { control, simState } from '../reliability/support/sim-tools.js';

const PASSWORD = 'corp-Pw-7c1e-2026';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  const seed = defaultSeed();
  seed.users = [
    ...(seed.users ?? []),
    { username: 'ci-bot', password: PASSWORD, adminOf: { level: 'system' }, rules: 'all' },
  ];
  await control(sim.url, 'POST', 'reset', seed);
});
afterAll(async () => sim.close());

const reseller = (firstName: string) =>
  'apiVersion: switchboard/v1\nkind: Reseller\nmetadata: { name: cred-probe, group: demo-group }\n' +
  `spec:\n  admins:\n    - { email: ops@cred.example, firstName: "${firstName}" }\n`;

async function repository(firstName: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-manifest-credentials-'));
  await writeFile(
    join(dir, 'switchboard.config.yaml'),
    'environments:\n  lab:\n    url: ${SWITCHBOARD_URL}\n    instance: demo\n' +
      '    auth: { username: ci-bot, password: ${CORP_PASSWORD} }\n    insecure: true\n',
  );
  await writeFile(join(dir, 'reseller.yaml'), reseller(firstName));
  return dir;
}

describe("a manifest reading switchboard's own credential", () => {
  it('by its SWITCHBOARD_* name: refused at validate, at its position', async () => {
    const dir = await repository('x ${SWITCHBOARD_PASSWORD}');
    const result = await runCli(['validate', 'reseller.yaml'], { cwd: dir, env: { SWITCHBOARD_PASSWORD: PASSWORD } });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(
      /reseller\.yaml:6:\d+: error SB_ENV_CREDENTIAL: .*\(auth\.password\)/,
    );
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);
  });

  it('through the config file password variable: plan and apply refuse it, nothing is sent', async () => {
    const dir = await repository('support ${CORP_PASSWORD}');
    const env = { SWITCHBOARD_URL: sim.url, CORP_PASSWORD: PASSWORD };
    const validated = await runCli(['validate', 'reseller.yaml'], { cwd: dir, env });
    expect(validated.code).toBe(0); // validate connects to nothing: it cannot know the value is the password
    for (const command of [['plan'], ['apply', '--yes']]) {
      const result = await runCli([...command, 'reseller.yaml'], { cwd: dir, env });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout + result.stderr).toMatch(
        new RegExp(
          'reseller\\.yaml:6:\\d+: error SB_ENV_CREDENTIAL: ' +
            '"firstName" of reseller/cred-probe/admin/ops@cred\\.example is read from the environment',
        ),
      );
      expect(result.stdout + result.stderr).not.toContain(PASSWORD);
    }
    expect(JSON.stringify(await simState(sim.url))).not.toContain('cred-probe');
  });
});
