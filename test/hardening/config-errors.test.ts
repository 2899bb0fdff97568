/**
 * Configuration errors speak the user's language: the SWITCHBOARD_* variables they set when
 * the connection comes from the environment, the config keys when it comes from
 * switchboard.config.yaml; and a second 401 for a password user is not blamed on a token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';
import { startHookProxy, type HookProxy } from './support/hook-proxy.js';

const TENANT =
  'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: cfg-co, reseller: north }\nspec: { billingId: T-CFG-CO }\n';
const ROUTES =
  'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: routes, service: draas, version: standby }\nspec:\n  key: [number]\n  records:\n    - { number: "+3220000009", route: trunk-1 }\n';
const CONFIG_KEYS = /auth\.username|auth\.password|routingEngine|insecure: true|SWITCHBOARD_\* /;

let dir: string;
beforeAll(async () => {
  dir = await manifestDir({ 'tenant.yaml': TENANT, 'routes.yaml': ROUTES });
});

async function plan(env: Record<string, string>, cwd = dir): Promise<string> {
  const result = await runCli(['plan', '.'], { env, cwd });
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  return result.stderr;
}

describe('configuration from SWITCHBOARD_* variables: errors name the variables (docs/connecting.md)', () => {
  it('no credentials at all', async () => {
    const stderr = await plan({
      SWITCHBOARD_URL: 'https://platform.example',
      SWITCHBOARD_RE_URL: 'https://engine.example',
    });
    expect(stderr).toContain('no credentials: set SWITCHBOARD_USERNAME and SWITCHBOARD_PASSWORD, or SWITCHBOARD_TOKEN');
    expect(stderr).toContain(
      'no credentials: set SWITCHBOARD_RE_USERNAME and SWITCHBOARD_RE_PASSWORD, or SWITCHBOARD_RE_TOKEN',
    );
    expect(stderr).not.toMatch(CONFIG_KEYS);
  });

  it('a password without a user, and a token next to a user', async () => {
    expect(
      await plan({
        SWITCHBOARD_URL: 'https://p.example',
        SWITCHBOARD_PASSWORD: 'x',
        SWITCHBOARD_RE_URL: 'https://e.example',
        SWITCHBOARD_RE_TOKEN: 't',
      }),
    ).toContain('SWITCHBOARD_USERNAME: required');
    const both = await plan({
      SWITCHBOARD_URL: 'https://p.example',
      SWITCHBOARD_TOKEN: 't',
      SWITCHBOARD_USERNAME: 'u',
      SWITCHBOARD_RE_URL: 'https://e.example',
      SWITCHBOARD_RE_TOKEN: 't',
    });
    expect(both).toContain('give either SWITCHBOARD_TOKEN or SWITCHBOARD_USERNAME/SWITCHBOARD_PASSWORD, not both');
    expect(both).not.toMatch(CONFIG_KEYS);
  });

  it('plain http to another machine: set SWITCHBOARD_INSECURE=true (or SWITCHBOARD_RE_INSECURE=true)', async () => {
    const stderr = await plan({
      SWITCHBOARD_URL: 'http://10.1.2.3:8080',
      SWITCHBOARD_TOKEN: 't',
      SWITCHBOARD_RE_URL: 'http://10.1.2.4',
      SWITCHBOARD_RE_TOKEN: 't',
    });
    expect(stderr).toContain(
      'SWITCHBOARD_URL: http://10.1.2.3:8080 uses plain http, so credentials would travel unencrypted; use https, or set SWITCHBOARD_INSECURE=true if you accept that',
    );
    expect(stderr).toContain(
      'SWITCHBOARD_RE_URL: http://10.1.2.4 uses plain http, so credentials would travel unencrypted; use https, or set SWITCHBOARD_RE_INSECURE=true if you accept that',
    );
    expect(stderr).not.toMatch(CONFIG_KEYS);
  });

  it('SWITCHBOARD_INSECURE=on: a clear message naming the variable and its value', async () => {
    const stderr = await plan({
      SWITCHBOARD_URL: 'https://p.example',
      SWITCHBOARD_TOKEN: 't',
      SWITCHBOARD_INSECURE: 'on',
      SWITCHBOARD_RE_URL: 'https://e.example',
      SWITCHBOARD_RE_TOKEN: 't',
    });
    expect(stderr).toContain('SWITCHBOARD_INSECURE=on: expected true or false (1/0 and yes/no are accepted too)');
    expect(stderr).not.toMatch(CONFIG_KEYS);
  });

  it('routing tables declared, no routing engine: SWITCHBOARD_RE_URL and its credentials', async () => {
    const stderr = await plan({ SWITCHBOARD_URL: 'https://p.example', SWITCHBOARD_TOKEN: 't' });
    expect(stderr).toContain(
      'the manifests declare RoutingTable documents: set SWITCHBOARD_RE_URL, and SWITCHBOARD_RE_USERNAME and SWITCHBOARD_RE_PASSWORD or SWITCHBOARD_RE_TOKEN',
    );
    expect(stderr).not.toMatch(CONFIG_KEYS);
  });
});

describe('configuration from switchboard.config.yaml: errors name the keys', () => {
  it('missing password, plain http, routing engine missing', async () => {
    const cwd = await manifestDir({
      'switchboard.config.yaml': 'environments:\n  prod:\n    url: http://10.1.2.3\n    auth: { username: ci }\n',
    });
    const result = await runCli(['plan', dir], { env: {}, cwd });
    expect(result.code).toBe(1);
    const stderr = result.stderr;
    expect(stderr).toContain('environments.prod.auth.password: required');
    expect(stderr).toContain('set environments.prod.insecure: true if you accept that');
    expect(stderr).toContain(
      'environments.prod.routingEngine: required, as { url, auth } (the manifests declare RoutingTable documents)',
    );
    expect(stderr).not.toContain('SWITCHBOARD_');
  });
});

describe('a second 401 for a password user (Document 1 §5)', () => {
  let sim: RunningSimulator;
  let proxy: HookProxy;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    // Logins succeed; every other call is refused, as for a user disabled after its login.
    proxy = await startHookProxy(sim.url, (request) =>
      request.path.startsWith('/api/v01/auth/') ? undefined : { status: 401, body: '{"message":"unauthorized"}' },
    );
  });
  afterAll(async () => {
    await proxy.close();
    await sim.close();
  });

  it('is not described as a machine token', async () => {
    const cwd = await manifestDir({ 'tenant.yaml': TENANT });
    const result = await runCli(['plan', '.'], { env: simEnv(proxy.url), cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'GET /api/v01/system/users/local → 401: credentials refused: the access token renewed after a first 401 was rejected too (the user may have been disabled or its sessions revoked)',
    );
    expect(result.stderr).not.toContain('machine');
  });
});
