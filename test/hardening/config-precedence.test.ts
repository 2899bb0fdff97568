/**
 * The environment and switchboard.config.yaml together (docs/connecting.md "Precedence"):
 * every SWITCHBOARD_* variable that is set overrides the file's value of its setting, for
 * every setting that has a variable (derived from the table of variables, so a setting added
 * later is covered); credentials override as a kind, a part that cannot complete the
 * file's credentials is an error naming both; an optional setting written as an unset
 * `${VAR}` is simply not given (init's username line, for a user without a second factor).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConnection } from '../../src/config/index.js';
import { ENVIRONMENT_VARIABLES } from '../../src/config/naming.js';
import { configYaml } from '../../src/init/templates.js';

async function configDir(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-precedence-'));
  await writeFile(join(dir, 'switchboard.config.yaml'), text);
  for (const ca of ['file-ca.pem', 're-file-ca.pem', 'env-caFile-value', 'env-routingEngine-caFile-value'])
    await writeFile(join(dir, ca), 'a CA bundle\n');
  return dir;
}

const FILE = `environments:
  lab:
    url: https://file.example.net
    instance: file-instance
    auth: { username: file-user, password: file-password-123 }
    caFile: ./file-ca.pem
    insecure: false
    timeoutMs: 1000
    brandingReadPath: file/pages
    routingEngine:
      url: https://re-file.example.net
      auth: { username: re-file-user, password: re-file-password-1 }
      caFile: ./re-file-ca.pem
      insecure: false
      timeoutMs: 1000
`;

/** A value of the variable's setting that the file does not hold, and how it reads back. */
function valueFor(key: string): { env: string; read: unknown } {
  if (key.endsWith('url')) return { env: `https://${key.replace(/\W/g, '-')}.env.example.net`, read: undefined };
  if (key.endsWith('insecure')) return { env: 'true', read: true };
  if (key.endsWith('timeoutMs')) return { env: '2500', read: 2500 };
  if (key.endsWith('totpSecret')) return { env: 'JBSWY3DPEHPK3PXP', read: 'JBSWY3DPEHPK3PXP' };
  if (key === 'brandingReadPath') return { env: 'env/pages', read: 'env/pages' };
  return { env: `env-${key.replace(/\W/g, '-')}-value`, read: undefined };
}

function settingOf(config: Record<string, unknown>, key: string): unknown {
  return key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], config);
}

describe('a SWITCHBOARD_* variable that is set overrides the file', () => {
  it.each(Object.entries(ENVIRONMENT_VARIABLES))('%s (%s)', async (key, variable) => {
    const dir = await configDir(FILE);
    const { env, read } = valueFor(key);
    const config = await loadConnection({ env: { [variable]: env }, cwd: dir, routing: true });
    const expected = read ?? (key.endsWith('caFile') ? join(dir, env) : env);
    expect(settingOf(config as unknown as Record<string, unknown>, key)).toEqual(expected);
    expect(config.source).toContain(`${variable} override`);
  });

  it('a token replaces the file user; a password completes it; a username alone against a file token is an error', async () => {
    const dir = await configDir(FILE);
    expect((await loadConnection({ env: { SWITCHBOARD_TOKEN: 'env-token-12345' }, cwd: dir })).auth).toEqual({
      token: 'env-token-12345',
    });
    expect((await loadConnection({ env: { SWITCHBOARD_PASSWORD: 'env-password-1' }, cwd: dir })).auth).toEqual({
      username: 'file-user',
      password: 'env-password-1',
    });
    const tokenFile = await configDir(
      'environments:\n  lab:\n    url: https://x.example.net\n    auth: { token: file-token-1 }\n',
    );
    await expect(loadConnection({ env: { SWITCHBOARD_USERNAME: 'someone' }, cwd: tokenFile })).rejects.toThrow(
      /SWITCHBOARD_USERNAME is set, but environments\.lab\.auth is a token: set SWITCHBOARD_USERNAME and SWITCHBOARD_PASSWORD/,
    );
  });
});

describe('optional settings are optional', () => {
  it("init's configuration, with a user and no second factor: no SWITCHBOARD_TOTP_SECRET needed", async () => {
    const dir = await configDir(
      configYaml()
        .replace(/^ {4}auth: \{ token: .*$/m, '')
        .replace('# auth: { username:', 'auth: { username:')
        .replace('# instance:', 'instance:'),
    );
    const config = await loadConnection({
      env: { SWITCHBOARD_URL: 'https://x.example.net', SWITCHBOARD_USERNAME: 'ci', SWITCHBOARD_PASSWORD: 'pw-123456' },
      cwd: dir,
    });
    expect(config.auth).toEqual({ username: 'ci', password: 'pw-123456' });
    expect(config.instance).toBeUndefined();
  });

  it('a required setting whose variable is unset is still an error naming it', async () => {
    const dir = await configDir(
      'environments:\n  lab:\n    url: ${SB_NO_SUCH_URL}\n    auth: { token: t-123456789 }\n',
    );
    await expect(loadConnection({ env: {}, cwd: dir })).rejects.toThrow(
      'environments.lab.url: environment variable SB_NO_SUCH_URL is not set',
    );
  });
});
