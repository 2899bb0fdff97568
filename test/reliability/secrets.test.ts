/**
 * Secrets: plan and apply at `--log-level debug` with a known password, TOTP
 * secret, the access and refresh tokens the platform issues during the run (the clock is
 * moved so they are renewed) and two manifest values from `${VAR}`. None of them may appear
 * in stdout, stderr, the plan file, the markdown, the journal or the last-applied record.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { cli, simEnv } from './support/cli.js';
import { estateDir } from './support/estate.js';
import { advanceClock, control, simState } from './support/sim-tools.js';

const PASSWORD = 'Pw-Xq7!zK2#secret-9f7c1e';
const TOTP_SECRET = 'KRSXG5CTMVRXEZLUMFZWK4TFONSXG3DF';
const BILLING_SECRET = 'T-SECRET-BILLING-5e1d07';
const BILLING_SECRET_2 = 'T-SECRET-BILLING-a93c44';

let sim: RunningSimulator;
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
  ];
  await control(sim.url, 'POST', 'reset', seed);
});
afterAll(async () => {
  await sim.close();
});

describe('reliability: secrets never leak', () => {
  it('docs/manifests.md ${VAR} + §4 + Doc1 §5: no password, TOTP secret, token or ${VAR} value in stdout, stderr, plan file, markdown, journal or last-applied record at --log-level debug', async () => {
    const dir = await estateDir(0, { examples: false });
    const manifests = join(dir, 'manifests');
    await writeFile(
      join(manifests, 'tenants.yaml'),
      `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: secret-co, reseller: north }
spec:
  billingId: \${SB_BILLING}
  markup: 2
  admins:
    - { email: it@secret-co.example, firstName: Sec, lastName: Ret }
  subscriptions:
    - { name: main, billingId: T-SECRET-MAIN, uc: uc_alpha }
---
apiVersion: switchboard/v1
kind: Tenant
metadata: { name: acme-corp, reseller: north }
spec:
  billingId: \${SB_BILLING_2}
`,
    );
    const env = {
      ...simEnv(sim.url),
      SWITCHBOARD_USERNAME: 'ci-bot',
      SWITCHBOARD_PASSWORD: PASSWORD,
      SWITCHBOARD_TOTP_SECRET: TOTP_SECRET,
      SB_BILLING: BILLING_SECRET,
      SB_BILLING_2: BILLING_SECRET_2,
    };
    // Every token the platform hands out while the commands run (sessions end at logout).
    const tokens = new Set<string>();
    let polling = true;
    const poller = (async () => {
      for (let i = 0; polling; i++) {
        const state = await simState(sim.url);
        for (const s of state.tables['sessions'] ?? [])
          for (const k of ['accessToken', 'refreshToken']) if (typeof s[k] === 'string') tokens.add(s[k]);
        if (i % 10 === 9) await advanceClock(sim.url, 125); // expire the access token: the client renews it
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    const outputs: Record<string, string> = {};
    try {
      const debug = ['--log-level', 'debug'];
      const text = await cli(['plan', manifests, ...debug, '--out', join(dir, 'plan.json')], { cwd: dir, env });
      expect(text.code, text.stderr.slice(-1000)).toBe(0);
      expect(text.stdout).toContain('(sensitive)');
      const md = await cli(['plan', manifests, ...debug, '--format', 'markdown'], { cwd: dir, env });
      await writeFile(join(dir, 'plan.md'), md.stdout);
      const json = await cli(['plan', manifests, ...debug, '--format', 'json'], { cwd: dir, env });
      const applied = await cli(['apply', manifests, ...debug, '--yes'], { cwd: dir, env });
      expect(applied.code, applied.stdout.slice(-1500)).toBe(0);
      const saved = await cli(['apply', manifests, ...debug, '--plan', join(dir, 'plan.json'), '--yes'], {
        cwd: dir,
        env,
      });
      Object.assign(outputs, {
        textOut: text.stdout,
        textErr: text.stderr,
        mdErr: md.stderr,
        jsonOut: json.stdout,
        jsonErr: json.stderr,
        applyOut: applied.stdout,
        applyErr: applied.stderr,
        savedOut: saved.stdout,
        savedErr: saved.stderr,
      });
      expect(applied.stderr.length, 'debug logging is on').toBeGreaterThan(1000);
    } finally {
      polling = false;
      await poller;
    }
    for (const name of ['plan.json', 'plan.md']) outputs[name] = await readFile(join(dir, name), 'utf8');
    for (const name of await readdir(join(dir, '.switchboard')))
      outputs[`.switchboard/${name}`] = await readFile(join(dir, '.switchboard', name), 'utf8');
    expect(Object.keys(outputs).some((n) => n.includes('journal-'))).toBe(true);
    expect(Object.keys(outputs).some((n) => n.includes('last-applied'))).toBe(true);
    expect(tokens.size).toBeGreaterThanOrEqual(4);

    const secrets = {
      password: PASSWORD,
      totpSecret: TOTP_SECRET,
      billing: BILLING_SECRET,
      billing2: BILLING_SECRET_2,
      ...Object.fromEntries([...tokens].map((t, i) => [`token${i}`, t])),
    };
    const found: string[] = [];
    for (const [file, content] of Object.entries(outputs)) {
      for (const [what, secret] of Object.entries(secrets))
        if (content.includes(secret)) found.push(`${what} in ${file}`);
    }
    const bytes = Object.values(outputs).reduce((n, c) => n + c.length, 0);
    console.log(
      `[secrets] ${Object.keys(secrets).length} secrets (${tokens.size} tokens issued) searched in ${Object.keys(outputs).length} outputs (${bytes} bytes): ${found.length} found`,
    );
    expect(found).toEqual([]);
    // the platform did get the values: they were sent, just never shown
    const tenant = (await simState(sim.url)).tables['tenants']?.find((t) => t['name'] === 'secret-co');
    expect(tenant?.['billingId']).toBe(BILLING_SECRET);
  }, 120_000);
});
