/**
 * Secrets echoed by a hostile or careless platform: login, 2FA and profile calls answered
 * 400/401/500 with a message quoting the request (body and headers), list answers whose
 * values quote the bearer token, a create refused with the request body in its message,
 * the simulator's own "billingId X is already used" for a `${VAR}` billingId, and a routing
 * engine quoting its Basic header. Every secret is planted; none may reach stdout, stderr,
 * the log (at the default level and at debug), the plan file, the markdown or the journal.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { defaultRoutingSeed } from '../../src/sim/routing/default-seed.js';
import { manifestDir, runCli, type CliResult } from '../e2e/cli-helpers.js';
import { control } from '../reliability/support/sim-tools.js';
import {
  startHookProxy,
  type HookProxy,
  type ProxiedRequest,
  type ProxyAnswer,
  type ProxyHook,
} from './support/hook-proxy.js';

const P = '/api/v01/draas/demo';
const PASSWORD = 'Pw-Echoed!7c2e9a41';
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const M2M_TOKEN = 'm2m-echoed-token-3f9a1c7b';
const RE_PASSWORD = 'Re-Echoed#4b8d2e77';
const RE_TOKEN = 're-echoed-token-91c3aa';
const BILLING = 'T-ECHOED-VAR-77d1e0'; // ${SB_BILLING}: a sensitive value
const TAKEN_BILLING = 'T-ECHOED-TAKEN-5a0c'; // ${SB_TAKEN}: already used, the simulator says so
const RE_BASIC = Buffer.from(`re-bot:${RE_PASSWORD}`).toString('base64');

let sim: RunningSimulator;
let proxy: HookProxy;
let hook: ProxyHook = () => undefined;
/** Access token → refresh token, for every pair the platform issued through the proxy. */
const issued = new Map<string, string>();

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  const seed = defaultSeed();
  seed.users = [
    ...(seed.users ?? []),
    {
      username: 'ci-bot',
      password: PASSWORD,
      adminOf: { level: 'system' },
      rules: 'all',
      twoFactor: 'totp',
      alwaysTwoFactor: true,
      totpSecret: TOTP_SECRET,
    },
    { username: 'm2m-bot', adminOf: { level: 'system' }, rules: 'all', m2mToken: M2M_TOKEN },
  ];
  const routing = defaultRoutingSeed();
  routing.credentials = { basic: [{ username: 're-bot', password: RE_PASSWORD }], tokens: [RE_TOKEN] };
  seed.routing = routing;
  await control(sim.url, 'POST', 'reset', seed);
  // Tokens travel through the proxy: it notes every pair the platform issues.
  proxy = await startHookProxy(
    sim.url,
    (request) => hook(request),
    (_request, _status, body) => {
      const access = /"access_token"\s*:\s*"([^"]+)"/.exec(body)?.[1];
      const refresh = /"refresh_token"\s*:\s*"([^"]+)"/.exec(body)?.[1];
      if (access) issued.set(access, refresh ?? '');
    },
  );
});
afterAll(async () => {
  await proxy.close();
  await sim.close();
});

/**
 * A message quoting the request whole, headers included, the refresh token that goes with
 * its bearer token, and every configured secret.
 */
function echo(request: ProxiedRequest): string {
  const bearer = String(request.headers['authorization'] ?? '').replace(/^Bearer /, '');
  return (
    `rejected ${request.method} ${request.path} body=${request.body} authorization=${request.headers['authorization'] ?? ''} ` +
    `known: ${[PASSWORD, TOTP_SECRET, M2M_TOKEN, RE_PASSWORD, RE_TOKEN, RE_BASIC, BILLING, issued.get(bearer) ?? ''].join(' ')}`
  );
}

function echoed(status: number, request: ProxiedRequest): ProxyAnswer {
  return {
    status,
    body: JSON.stringify({ message: echo(request), request: { headers: request.headers, body: request.body } }),
  };
}

const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  SWITCHBOARD_URL: proxy.url,
  SWITCHBOARD_INSTANCE: 'demo',
  SWITCHBOARD_USERNAME: 'ci-bot',
  SWITCHBOARD_PASSWORD: PASSWORD,
  SWITCHBOARD_TOTP_SECRET: TOTP_SECRET,
  SWITCHBOARD_RE_URL: proxy.url,
  SWITCHBOARD_RE_USERNAME: 're-bot',
  SWITCHBOARD_RE_PASSWORD: RE_PASSWORD,
  SB_BILLING: BILLING,
  SB_TAKEN: TAKEN_BILLING,
  ...extra,
});

const ALL = { PASSWORD, TOTP_SECRET, M2M_TOKEN, RE_PASSWORD, RE_TOKEN, RE_BASIC, BILLING, TAKEN_BILLING };
type SecretName = keyof typeof ALL;
/** What a run with env() knows: the password user's credentials and the engine's. */
const PASSWORD_RUN: SecretName[] = ['PASSWORD', 'TOTP_SECRET', 'RE_PASSWORD', 'RE_BASIC'];

interface Run extends CliResult {
  /** The access and refresh tokens the platform issued to this run. */
  tokens: string[];
}

/** Runs the CLI; `tokens` are those the platform issued meanwhile (one run at a time). */
async function run(args: string[], options: { env: Record<string, string>; cwd?: string }): Promise<Run> {
  const before = new Set(issued.keys());
  const result = await runCli(args, options);
  const tokens = [...issued]
    .filter(([access]) => !before.has(access))
    .flat()
    .filter((t) => t !== '');
  return { ...result, tokens };
}

/**
 * The secrets a run was given (`known`) and the tokens it was issued, found in an output. A
 * secret a run was never given cannot be known to it, so it is not looked for there.
 */
function leaks(outputs: Record<string, string>, known: SecretName[], tokens: string[]): string[] {
  const secrets: Record<string, string> = Object.fromEntries(known.map((name) => [name, ALL[name]]));
  tokens.forEach((t, i) => (secrets[`token${i}`] = t));
  const found: string[] = [];
  for (const [where, text] of Object.entries(outputs)) {
    for (const [what, secret] of Object.entries(secrets)) if (text.includes(secret)) found.push(`${what} in ${where}`);
  }
  return found;
}

const outputsOf = (name: string, result: CliResult) => ({
  [`${name} stdout`]: result.stdout,
  [`${name} stderr`]: result.stderr,
});

describe('no secret in any output when the platform echoes requests (Document 1 §5, §7)', () => {
  it('login, 2FA and machine-token calls answered 400, 401 and 500 quoting the request: an error without the platform words', async () => {
    const dir = await manifestDir({
      't.yaml':
        'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: echo-co, reseller: north }\nspec: { billingId: T-ECHO-CO }\n',
    });
    const found: string[] = [];
    for (const [path, status] of [
      ['/api/v01/auth/login', 400],
      ['/api/v01/auth/login', 401],
      ['/api/v01/auth/login', 500],
      ['/api/v01/auth/2fa', 401],
    ] as const) {
      hook = (request) => (request.path === path ? echoed(status, request) : undefined);
      // A 500 is retried with backoff (5 attempts): once, at debug, is enough.
      for (const level of status === 500 ? ['debug'] : ['warn', 'debug']) {
        const result = await run(['plan', dir, '--log-level', level], { env: env() });
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toContain(`POST ${path} → ${status}`);
        expect(result.stderr, "an authentication call's own message is not shown").not.toContain('platform:');
        found.push(...leaks(outputsOf(`${path} ${status} ${level}`, result), PASSWORD_RUN, result.tokens));
      }
    }
    hook = (request) => (request.path === '/api/v01/system/users/local' ? echoed(401, request) : undefined);
    const m2m = await run(['plan', dir, '--log-level', 'debug'], {
      env: env({ SWITCHBOARD_USERNAME: '', SWITCHBOARD_PASSWORD: '', SWITCHBOARD_TOKEN: M2M_TOKEN }),
    });
    expect(m2m.code).toBe(1);
    expect(m2m.stderr).toContain('machine-to-machine token was refused');
    expect(m2m.stderr).toContain('[redacted]');
    found.push(...leaks(outputsOf('m2m 401', m2m), ['M2M_TOKEN', 'RE_PASSWORD', 'RE_BASIC'], []));
    hook = () => undefined;
    expect(found).toEqual([]);
  }, 60_000);

  it("list values, a refused create and the platform's own duplicate message quoting secrets: masked in stdout, stderr, log, plan file, markdown and journal", async () => {
    const tenant = (name: string, billingId: string) =>
      `apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: ${name}, reseller: north }\nspec:\n  billingId: ${billingId}\n`;
    const setup = await run(
      [
        'apply',
        '--yes',
        await manifestDir({
          't.yaml': [tenant('echo-live', 'T-ECHO-LIVE'), tenant('echo-taken', TAKEN_BILLING)].join('---\n'),
        }),
      ],
      { env: env() },
    );
    expect(setup.code, setup.stdout + setup.stderr).toBe(0);
    const dir = await manifestDir({
      't.yaml': [
        tenant('echo-live', 'T-ECHO-LIVE'),
        tenant('echo-new', '${SB_BILLING}'),
        tenant('echo-dup', '${SB_TAKEN}'),
      ].join('---\n'),
    });
    // The live tenant's billingId quotes the request (token included); creating echo-new is refused quoting its body.
    hook = async (request) => {
      if (request.method === 'GET' && request.path === `${P}/tenants`) {
        const upstream = await fetch(`${sim.url}${request.path}?${request.query.toString()}`, {
          headers: { authorization: String(request.headers['authorization']) },
        });
        const body = (await upstream.json()) as { tenants?: { name: string; billingId?: string }[] };
        const message = echo(request);
        for (const t of body.tenants ?? []) if (t.name === 'echo-live') t.billingId = message;
        return { status: upstream.status, body: JSON.stringify(body) };
      }
      if (request.method === 'POST' && request.path === `${P}/tenants` && request.body.includes(BILLING))
        return echoed(400, request);
      return undefined;
    };
    const debug = ['--log-level', 'debug'];
    const text = await run(['plan', dir, ...debug, '--out', join(dir, 'plan.json')], { cwd: dir, env: env() });
    expect(text.code, text.stderr.slice(-2000)).toBe(0);
    expect(text.stdout).toContain('[redacted]');
    const markdown = await run(['plan', dir, '--format', 'markdown'], { cwd: dir, env: env() });
    const json = await run(['plan', dir, '--format', 'json'], { cwd: dir, env: env() });
    const apply = await run(['apply', dir, ...debug, '--yes'], { cwd: dir, env: env() });
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('is already used');
    const applyQuiet = await run(['apply', dir, '--yes'], { cwd: dir, env: env() });
    hook = () => undefined;
    const outputs: Record<string, string> = {
      ...outputsOf('plan', text),
      ...outputsOf('markdown', markdown),
      ...outputsOf('json', json),
      ...outputsOf('apply', apply),
      ...outputsOf('apply (warn)', applyQuiet),
      'plan.json': await readFile(join(dir, 'plan.json'), 'utf8'),
    };
    const tokens = [text, markdown, json, apply, applyQuiet].flatMap((r) => r.tokens);
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    const journals = (await readdir(join(dir, '.switchboard'))).filter((f) => f.startsWith('journal-'));
    expect(journals.length).toBeGreaterThan(0);
    for (const file of journals) outputs[file] = await readFile(join(dir, '.switchboard', file), 'utf8');
    expect(Object.values(outputs).join('\n')).toContain('[redacted]');
    // The proxy plants a run's own session only, so every output is checked against every run's tokens.
    expect(leaks(outputs, [...PASSWORD_RUN, 'BILLING', 'TAKEN_BILLING'], tokens)).toEqual([]);
  }, 90_000);

  it('a routing engine quoting its Basic header or bearer token in an error: masked', async () => {
    const dir = await manifestDir({
      'routes.yaml': `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby }
spec:
  key: [number]
  records:
    - { number: "+3220000001", route: trunk-1 }
`,
    });
    hook = (request) => (request.path.startsWith('/draas/') ? echoed(400, request) : undefined);
    const basic = await run(['plan', dir, '--log-level', 'debug'], { env: env() });
    const bearer = await run(['plan', dir], {
      env: env({ SWITCHBOARD_RE_USERNAME: '', SWITCHBOARD_RE_PASSWORD: '', SWITCHBOARD_RE_TOKEN: RE_TOKEN }),
    });
    hook = () => undefined;
    for (const result of [basic, bearer]) {
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('GET /draas/standby/routes → 400');
      expect(result.stderr).toContain('[redacted]');
    }
    expect(leaks(outputsOf('basic', basic), PASSWORD_RUN, basic.tokens)).toEqual([]);
    expect(leaks(outputsOf('bearer', bearer), ['PASSWORD', 'TOTP_SECRET', 'RE_TOKEN'], bearer.tokens)).toEqual([]);
  });
});
