import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { SwitchboardError } from '../../src/core/errors.js';
import { assertSecureTransport, interpolate, isLoopbackHost, loadConnection } from '../../src/config/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-config-'));
});

async function write(text: string): Promise<void> {
  await writeFile(join(dir, 'switchboard.config.yaml'), text);
}

const failure = (p: Promise<unknown>): Promise<SwitchboardError> =>
  p.then(
    () => {
      throw new Error('expected failure');
    },
    (e: unknown) => e as SwitchboardError,
  );

describe('docs/connecting.md: switchboard.config.yaml', () => {
  it('reads the named environment, interpolating ${VAR} after parsing', async () => {
    await write(`environments:
  prod:
    url: https://provisioning.example.net
    instance: main
    auth: { username: \${SB_USER}, password: \${SB_PASSWORD}, totpSecret: \${SB_TOTP} }
    routingEngine:
      url: https://em.example.net:5000
      auth: { username: \${RE_USER}, password: \${RE_PASSWORD} }
      caFile: ./em-ca.pem
  lab:
    url: http://10.0.0.5:8080
    insecure: true
    auth: { token: \${SB_TOKEN} }
`);
    await writeFile(join(dir, 'em-ca.pem'), 'pem');
    const env = {
      SB_USER: 'ops',
      SB_PASSWORD: 'p: #"quoted',
      SB_TOTP: 'JBSWY3DPEHPK3PXP',
      RE_USER: 'routing',
      RE_PASSWORD: 'r',
      SB_TOKEN: 'tok',
    };
    const prod = await loadConnection({ env, envName: 'prod', cwd: dir });
    expect(prod).toMatchObject({
      url: 'https://provisioning.example.net',
      instance: 'main',
      auth: { username: 'ops', password: 'p: #"quoted', totpSecret: 'JBSWY3DPEHPK3PXP' },
      routingEngine: {
        url: 'https://em.example.net:5000',
        auth: { username: 'routing', password: 'r' },
        caFile: join(dir, 'em-ca.pem'),
      },
    });
    expect(prod.source).toContain('(env prod)');
    const lab = await loadConnection({ env, envName: 'lab', cwd: dir });
    expect(lab).toMatchObject({ url: 'http://10.0.0.5:8080', insecure: true, auth: { token: 'tok' } });
  });

  it('reads a variable whose name holds __ or ends in _ as named, not a shorter one', async () => {
    await write(
      'environments:\n  prod:\n    url: https://p.example.net\n    auth: { username: ${SB__USER}, password: ${SB_PW_} }\n',
    );
    const env = { SB__USER: 'ops', SB_PW_: 'right', SB: 'wrong', SB_PW: 'wrong' };
    expect(await loadConnection({ env, cwd: dir })).toMatchObject({ auth: { username: 'ops', password: 'right' } });
  });

  it("a file reading SWITCHBOARD_TOKEN (init's) logs in as the user the variables name when the token is not set", async () => {
    await write(
      'environments:\n  production:\n    url: https://p.example.net\n    auth: { token: ${SWITCHBOARD_TOKEN} }\n',
    );
    const user = { SWITCHBOARD_USERNAME: 'ops', SWITCHBOARD_PASSWORD: 'pw' };
    for (const token of [{}, { SWITCHBOARD_TOKEN: '' }]) {
      const connection = await loadConnection({ env: { ...user, ...token }, cwd: dir });
      expect(connection.auth).toEqual({ username: 'ops', password: 'pw' });
    }
    // Set, the token is what the file chose.
    const chosen = await loadConnection({ env: { ...user, SWITCHBOARD_TOKEN: 'tok' }, cwd: dir });
    expect(chosen.auth).toEqual({ token: 'tok' });
  });

  it('a file reading the user and password variables, one of them unset, is an error, not a token login', async () => {
    await write(
      'environments:\n  production:\n    url: https://p.example.net\n' +
        '    auth: { username: ${SWITCHBOARD_USERNAME}, password: ${SWITCHBOARD_PASSWORD} }\n',
    );
    const error = await failure(
      loadConnection({ env: { SWITCHBOARD_USERNAME: 'ops', SWITCHBOARD_TOKEN: 'tok' }, cwd: dir }),
    );
    expect(error.message).toContain('SWITCHBOARD_PASSWORD');
    // Neither set: the token is the credential.
    expect((await loadConnection({ env: { SWITCHBOARD_TOKEN: 'tok' }, cwd: dir })).auth).toEqual({ token: 'tok' });
  });

  it("the routing engine's credentials in the environment are ignored when the file declares no engine", async () => {
    await write('environments:\n  prod:\n    url: https://p.example.net\n    auth: { token: t }\n');
    const env = { SWITCHBOARD_RE_USERNAME: 'routing', SWITCHBOARD_RE_PASSWORD: 'routing' };
    const connection = await loadConnection({ env, cwd: dir });
    expect(connection).toMatchObject({ url: 'https://p.example.net', auth: { token: 't' } });
    expect(connection.routingEngine).toBeUndefined();
    // With the engine's URL set too, they make one.
    const both = await loadConnection({ env: { ...env, SWITCHBOARD_RE_URL: 'https://em.example.net' }, cwd: dir });
    expect(both.routingEngine).toMatchObject({ url: 'https://em.example.net', auth: { username: 'routing' } });
  });

  it('refuses a URL with a user or password in it, and never echoes them', async () => {
    await write('environments:\n  prod:\n    url: https://bob:UrlS3cret@p.example.net\n    auth: { token: t }\n');
    const error = await failure(loadConnection({ env: {}, cwd: dir }));
    expect(error.message).toContain('a URL with a user or password in it is refused');
    expect(error.message).not.toContain('UrlS3cret');
    await write('environments:\n  prod:\n    url: "https://bob:UrlS3cret@p.example.net:x"\n    auth: { token: t }\n');
    const unparsed = await failure(loadConnection({ env: {}, cwd: dir }));
    expect(unparsed.message).toContain('is not a URL');
    expect(unparsed.message).not.toContain('UrlS3cret');
    // A password holding a slash is still a password.
    await write('environments:\n  prod:\n    url: "https://bob:Url/S3cret@p.example.net:x"\n    auth: { token: t }\n');
    const slashed = await failure(loadConnection({ env: {}, cwd: dir }));
    expect(slashed.message).toContain('is not a URL');
    expect(slashed.message).not.toContain('S3cret');
  });

  it('reports every problem at once: unset variables, unknown keys, bad TOTP secret, plain http', async () => {
    await write(`environments:
  prod:
    url: http://provisioning.example.net
    auth: { username: ops, password: \${MISSING}, totpSecret: "not base32!" }
    insecur: true
`);
    const error = await failure(loadConnection({ env: {}, envName: 'prod', cwd: dir }));
    expect(error.code).toBe('SB_CONFIG');
    expect(error.message).toContain('environments.prod.auth.password: environment variable MISSING is not set');
    expect(error.message).toContain('environments.prod.insecur: unknown setting');
    expect(error.message).toContain('totpSecret: not a base32 secret');
    expect(error.message).toContain('uses plain http');
    expect(error.message).not.toContain('not base32!');
  });

  it('asks for --env when several environments exist, and names the known ones for a wrong name', async () => {
    await write(
      'environments:\n  a: { url: "https://a", auth: { token: t } }\n  b: { url: "https://b", auth: { token: t } }\n',
    );
    expect((await failure(loadConnection({ env: {}, cwd: dir }))).message).toContain('choose one with --env NAME');
    expect((await failure(loadConnection({ env: {}, envName: 'c', cwd: dir }))).message).toContain(
      'environment "c" not found (defined: a, b)',
    );
  });

  it('refuses token and username together, and a missing caFile', async () => {
    await write(
      'environments:\n  a: { url: "https://a", caFile: nope.pem, auth: { token: t, username: u, password: p } }\n',
    );
    const error = await failure(loadConnection({ env: {}, cwd: dir }));
    expect(error.message).toContain('not both');
    expect(error.message).toContain('nope.pem not found');
  });

  it('an explicit --config that does not exist is an error', async () => {
    expect((await failure(loadConnection({ env: {}, configPath: 'other.yaml', cwd: dir }))).message).toContain(
      'other.yaml not found',
    );
  });
});

describe('docs/connecting.md: SWITCHBOARD_* environment variables without a config file', () => {
  it('reads URL, instance, credentials, TOTP secret and the routing engine', async () => {
    const config = await loadConnection({
      cwd: dir,
      env: {
        SWITCHBOARD_URL: 'https://p.example.net',
        SWITCHBOARD_INSTANCE: 'main',
        SWITCHBOARD_USERNAME: 'ops',
        SWITCHBOARD_PASSWORD: 'pw',
        SWITCHBOARD_TOTP_SECRET: 'JBSWY3DPEHPK3PXP',
        SWITCHBOARD_RE_URL: 'https://em.example.net',
        SWITCHBOARD_RE_TOKEN: 'routing-token',
      },
    });
    expect(config).toMatchObject({
      url: 'https://p.example.net',
      instance: 'main',
      auth: { username: 'ops', password: 'pw', totpSecret: 'JBSWY3DPEHPK3PXP' },
      routingEngine: { url: 'https://em.example.net', auth: { token: 'routing-token' } },
      source: 'environment variables',
    });
  });

  it('a machine token alone is enough; plain http to loopback is fine', async () => {
    const config = await loadConnection({
      cwd: dir,
      env: { SWITCHBOARD_URL: 'http://127.0.0.1:8080', SWITCHBOARD_TOKEN: 'm2m' },
    });
    expect(config.auth).toEqual({ token: 'm2m' });
  });

  it('without file and URL, says what to do; credentials over http to another host need SWITCHBOARD_INSECURE', async () => {
    expect((await failure(loadConnection({ cwd: dir, env: {} }))).message).toContain('SWITCHBOARD_URL is not set');
    const env = { SWITCHBOARD_URL: 'http://p.example.net', SWITCHBOARD_TOKEN: 't' };
    expect((await failure(loadConnection({ cwd: dir, env }))).message).toContain('plain http');
    await expect(loadConnection({ cwd: dir, env: { ...env, SWITCHBOARD_INSECURE: 'true' } })).resolves.toMatchObject({
      insecure: true,
    });
    expect(
      (await failure(loadConnection({ cwd: dir, env: { SWITCHBOARD_URL: 'https://p', SWITCHBOARD_USERNAME: 'u' } })))
        .message,
    ).toContain('SWITCHBOARD_PASSWORD: required');
  });
});

describe('the branding read path (Document 1 §4.2: not shown)', () => {
  it('is brandingReadPath in the file or SWITCHBOARD_BRANDING_READ_PATH, a path below the group; absent by default', async () => {
    await write(`environments:
  prod:
    url: https://p.example.net
    auth: { token: t }
    brandingReadPath: /configurations/branding/
`);
    expect(await loadConnection({ env: {}, cwd: dir })).toMatchObject({ brandingReadPath: 'configurations/branding' });
    const env = { SWITCHBOARD_URL: 'https://p.example.net', SWITCHBOARD_TOKEN: 't' };
    const other = await mkdtemp(join(tmpdir(), 'sb-config-'));
    expect(await loadConnection({ cwd: other, env })).not.toHaveProperty('brandingReadPath');
    expect(
      await loadConnection({ cwd: other, env: { ...env, SWITCHBOARD_BRANDING_READ_PATH: 'pages' } }),
    ).toMatchObject({ brandingReadPath: 'pages' });
    for (const bad of ['../tenants', 'pages?type=font', 'a//b']) {
      const error = await failure(loadConnection({ cwd: other, env: { ...env, SWITCHBOARD_BRANDING_READ_PATH: bad } }));
      expect(error.message, bad).toMatch(/SWITCHBOARD_BRANDING_READ_PATH: expected a path below the group/);
    }
  });
});

describe('helpers', () => {
  it('interpolation: $$ is a literal dollar; non-strings pass through', () => {
    expect(interpolate({ a: 'x-${A}-$${A}', n: 3, l: ['${A}'] }, { A: '1' })).toEqual({
      value: { a: 'x-1-${A}', n: 3, l: ['1'] },
      missing: [],
    });
  });

  it('loopback detection and the plain-http rule', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'app.localhost'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['10.0.0.1', 'example.net', '[::2]', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
    expect(() => assertSecureTransport(new URL('http://example.net'), false, 'url')).toThrow(/plain http/);
    expect(() => assertSecureTransport(new URL('http://example.net'), true, 'url')).not.toThrow();
  });
});

describe('reference placeholders', () => {
  it('${VAR} in a YAML flow mapping parses, and $$ stays a literal dollar', async () => {
    const { protectReferences, restoreReferences } = await import('../../src/config/interpolate.js');
    const { parse } = await import('yaml');
    const parsed = restoreReferences(parse(protectReferences('a: { u: ${U_1}, p: "x$${Y}" }\n')));
    expect(parsed).toEqual({ a: { u: '${U_1}', p: 'x$${Y}' } });
    expect(interpolate(parsed, { U_1: 'v' }).value).toEqual({ a: { u: 'v', p: 'x${Y}' } });
  });
});

describe('from a connection to a client', () => {
  it('docs/connecting.md: a loaded environment connects to a platform (here the fake, on loopback)', async () => {
    const { FakePlatform } = await import('../api/fake-platform.js');
    const { ApiClient, clientOptionsFor } = await import('../../src/api/index.js');
    const fake = await new FakePlatform().start();
    try {
      await write(`environments:\n  local:\n    url: ${fake.url}\n    auth: { username: \${U}, password: \${PW} }\n`);
      const connection = await loadConnection({ env: { U: 'admin', PW: 'admin' }, cwd: dir });
      const client = await ApiClient.connect(clientOptionsFor(connection, { concurrency: 2 }));
      expect(client.paths.P).toBe('/api/v01/draas/demo');
      await client.close();
    } finally {
      await fake.stop();
    }
  });
});
