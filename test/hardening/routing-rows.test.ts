/**
 * Routing-table rows (docs/routing.md): an untyped CSV column of an empty table is refused
 * rather than guessed as text, and a created row whose key differs from a live one only by
 * case or spaces is named in a plan warning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/sim/index.js';
import { startRoutingEngineSim, type RoutingSimServer } from '../../src/sim/routing/index.js';
import { adminApi, manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';

let engine: RoutingSimServer;

beforeAll(async () => {
  engine = await startRoutingEngineSim({
    seed: {
      credentials: { basic: [{ username: 'routing', password: 'routing' }] },
      services: {
        uc: {
          active: {
            // empty: nothing to read the columns' types from
            flags: {
              fields: {
                number: { type: 'string', unique: true, nullable: false },
                enabled: { type: 'boolean' },
                weight: { type: 'integer' },
              },
            },
            // one row: its values type the columns
            users: {
              fields: { uri: { type: 'string', unique: true, nullable: false }, weight: { type: 'integer' } },
              rows: [{ uri: 'SIP:ALICE@X.EXAMPLE', weight: 1 }],
            },
          },
        },
      },
    },
  });
});
afterAll(async () => {
  await engine.close();
});

const env = () => ({
  SWITCHBOARD_RE_URL: engine.url,
  SWITCHBOARD_RE_USERNAME: 'routing',
  SWITCHBOARD_RE_PASSWORD: 'routing',
});

const flagsTable = (fields = '') => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: flags, service: uc, version: active }
spec:
  key: [number]
${fields}  recordsFrom: flags.csv
`;
const FLAGS_CSV = 'number,enabled,weight\n+3221000001,true,10\n+3221000002,false,20\n';

describe('an empty table without spec.fields (CSV cells are text)', () => {
  it('is refused with one error naming the untyped columns and asking for spec.fields; nothing is sent', async () => {
    const dir = await manifestDir({ 'flags.yaml': flagsTable(), 'flags.csv': FLAGS_CSV });
    const before = engine.sim.requests().length;
    const result = await runCli(['apply', dir, '--yes'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^routing\/uc\/active\/flags: error SB_ROUTING_UNTYPED: \S*flags\.csv:2: columns "number", "enabled", "weight" have no declared type .* Declare the types in spec\.fields/,
    );
    const writes = engine.sim
      .requests()
      .slice(before)
      .filter((r) => r.method !== 'GET');
    expect(writes).toEqual([]);
  });

  it('with spec.fields the rows go out typed, and the next plan is empty', async () => {
    const dir = await manifestDir({
      'flags.yaml': flagsTable('  fields: { number: string, enabled: boolean, weight: integer }\n'),
      'flags.csv': FLAGS_CSV,
    });
    const applied = await runCli(['apply', dir, '--yes'], { env: env() });
    expect(applied.code, applied.stderr).toBe(0);
    const rows = engine.sim.state().services['uc']?.['active']?.['flags']?.rows ?? [];
    expect(rows.map((r) => [r['enabled'], r['weight']])).toEqual([
      [true, 10],
      [false, 20],
    ]);
    const again = await runCli(['plan', dir, '--detailed-exitcode'], { env: env() });
    expect(again.stdout).toContain('No changes.');
  });
});

describe('a created row whose key matches a live key after trimming and case-folding', () => {
  it('is planned with a warning naming both rows (text and JSON)', async () => {
    const dir = await manifestDir({
      'users.yaml': `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: users, service: uc, version: active }
spec:
  key: [uri]
  fields: { weight: integer }
  records:
    - { uri: " sip:alice@x.example", weight: 1 }
    - { uri: "sip:bob@x.example", weight: 2 }
`,
    });
    const text = await runCli(['plan', dir], { env: env() });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /SB_KEY_LOOKALIKE routing\/uc\/active\/users\/uri= sip:alice@x\.example: created \(\S*users\.yaml:8\) next to the live row uri=SIP:ALICE@X\.EXAMPLE \(id 1\)/,
    );
    expect(text.stdout).not.toMatch(/bob@x\.example.*next to/);
    const json = JSON.parse((await runCli(['plan', dir, '--format', 'json'], { env: env() })).stdout) as {
      warnings: { code: string; address?: string }[];
    };
    expect(json.warnings).toEqual([
      expect.objectContaining({
        code: 'SB_KEY_LOOKALIKE',
        address: 'routing/uc/active/users/uri= sip:alice@x.example',
      }),
    ]);
  });
});

describe('a created platform object whose address matches a live one after trimming and case-folding', () => {
  it('is planned with a warning naming the live object (the class: every kind, not only rows)', async () => {
    const sim = await startSimulator({ port: 0 });
    try {
      const api = await adminApi(sim.url);
      const P = '/api/v01/draas/demo';
      const group = (await api('GET', `${P}/groups`)).body.groups[0].uuid as string;
      const north = (await api('GET', `${P}/resellers?parent=${group}`)).body.resellers.find(
        (r: { name: string }) => r.name === 'north',
      ).uuid as string;
      const owner = { type: 'reseller', uuid: north };
      expect((await api('POST', `${P}/tenants`, { name: 'LookAlike-Co', owner, billingId: 'T-LOOK' })).status).toBe(
        200,
      );
      const dir = await manifestDir({
        't.yaml': `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: lookalike-co, reseller: north }
spec:
  billingId: T-LOOK-2
  subscriptions:
    - { name: main, billingId: T-LOOK-2-MAIN, uc: uc_alpha }
`,
      });
      const plan = JSON.parse((await runCli(['plan', dir, '--format', 'json'], { env: simEnv(sim.url) })).stdout) as {
        warnings: { code: string; address?: string; message: string }[];
      };
      const lookalikes = plan.warnings.filter((w) => w.code === 'SB_KEY_LOOKALIKE');
      expect(lookalikes, 'one warning: the subscription below is not warned about again').toEqual([
        expect.objectContaining({ address: 'tenant/lookalike-co' }),
      ]);
      expect(lookalikes[0]?.message).toMatch(/^created \(\S*t\.yaml:\d+:\d+\) next to the live tenant\/LookAlike-Co/);
    } finally {
      await sim.close();
    }
  });
});
