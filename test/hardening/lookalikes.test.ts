/**
 * Keys spelt two ways (`xyz`, `XYZ`, `xyz `) are most likely one object written twice. The
 * plan warns whatever the pair: a created key next to a live one, and created keys next to
 * each other with nothing live; and when the same plan deletes the live spelling (prune),
 * it says the object changes spelling, not that the table (or platform) will hold both.
 * Routing rows and platform objects alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookalikeWarnings } from '../../src/plan/lookalikes.js';
import type { PlanPart } from '../../src/plan/part.js';
import type { Change } from '../../src/plan/types.js';
import { diffRows } from '../../src/routing/diff.js';
import { startRoutingEngineSim, type RoutingSimServer } from '../../src/sim/routing/index.js';
import { manifestDir, runCli } from '../e2e/cli-helpers.js';

describe('routing rows (the row diff)', () => {
  const row = (uri: string, source: string) => ({ values: { uri, weight: 1 }, source });

  it('created keys alike among themselves, nothing live: one group, in manifest order', () => {
    const diff = diffRows(
      [
        row('sip:xyz@x', 'u.csv:2'),
        row('SIP:XYZ@X', 'u.csv:3'),
        row('sip:xyz@x ', 'u.csv:4'),
        row('sip:abc@x', 'u.csv:5'),
      ],
      [],
      { key: ['uri'], fieldTypes: { uri: 'string', weight: 'integer' }, prune: false },
    );
    expect(diff.creates).toHaveLength(4);
    expect(diff.spelledAlike).toEqual([
      [
        { key: 'uri=sip:xyz@x', source: 'u.csv:2' },
        { key: 'uri=SIP:XYZ@X', source: 'u.csv:3' },
        { key: 'uri=sip:xyz@x ', source: 'u.csv:4' },
      ],
    ]);
  });

  it('a created key next to a live one that prune deletes is marked so; one prune keeps is not', () => {
    const live = [{ id: 7, uri: 'SIP:XYZ@X', weight: 1 }];
    const options = { key: ['uri'], fieldTypes: { uri: 'string' as const, weight: 'integer' as const } };
    const pruned = diffRows([row('sip:xyz@x', 'u.csv:2')], live, { ...options, prune: true });
    expect(pruned.deletes.map((d) => d.id)).toEqual([7]);
    expect(pruned.lookalikes).toEqual([
      { key: 'uri=sip:xyz@x', source: 'u.csv:2', liveKey: 'uri=SIP:XYZ@X', liveId: 7, liveDeleted: true },
    ]);
    const kept = diffRows([row('sip:xyz@x', 'u.csv:2')], live, { ...options, prune: false });
    expect(kept.lookalikes[0]?.liveDeleted).toBeUndefined();
  });
  it('keys differing only by invisible characters or compatibility forms are lookalikes; the keys stay exact', () => {
    const live = [{ id: 3, uri: 'sip:globex@x', weight: 1 }];
    const options = { key: ['uri'], fieldTypes: { uri: 'string' as const, weight: 'integer' as const }, prune: false };
    const diff = diffRows(
      [row('sip:glo\u00adbex@x', 'u.csv:2'), row('ｓｉｐ:new@x', 'u.csv:3'), row('sip:new\u{e0020}@x', 'u.csv:4')],
      live,
      options,
    );
    expect(diff.creates.map((c) => c.key)).toEqual([
      'uri=sip:glo\u00adbex@x',
      'uri=ｓｉｐ:new@x',
      'uri=sip:new\u{e0020}@x',
    ]);
    expect(diff.lookalikes).toEqual([
      { key: 'uri=sip:glo\u00adbex@x', source: 'u.csv:2', liveKey: 'uri=sip:globex@x', liveId: 3 },
    ]);
    expect(diff.spelledAlike).toEqual([
      [
        { key: 'uri=ｓｉｐ:new@x', source: 'u.csv:3' },
        { key: 'uri=sip:new\u{e0020}@x', source: 'u.csv:4' },
      ],
    ]);
  });
});

describe('routing rows (the plan, through the CLI)', () => {
  let engine: RoutingSimServer;
  beforeAll(async () => {
    engine = await startRoutingEngineSim({
      seed: {
        credentials: { basic: [{ username: 'routing', password: 'routing' }] },
        services: {
          uc: {
            active: {
              empty: {
                fields: { uri: { type: 'string', unique: true, nullable: false }, weight: { type: 'integer' } },
              },
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
  const table = (name: string, prune: boolean, records: string[]) => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: ${name}, service: uc, version: active, prune: ${prune} }
spec:
  key: [uri]
  fields: { uri: string, weight: integer }
  records:
${records.map((r) => `    - { uri: ${JSON.stringify(r)}, weight: 1 }`).join('\n')}
`;

  it('three spellings declared into an empty table: warned, the table will hold 3 rows', async () => {
    const dir = await manifestDir({ 't.yaml': table('empty', false, ['xyz', 'XYZ', 'xyz ']) });
    const run = await runCli(['plan', dir, '--no-color'], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /SB_KEY_LOOKALIKE routing\/uc\/active\/empty\/uri=xyz: created \(\S*t\.yaml:\d+\), and so "uri=XYZ" \(\S*t\.yaml:\d+\), "uri=xyz " \(\S*t\.yaml:\d+\): the keys differ only by case, surrounding spaces, invisible characters or compatibility forms \(NFKC\)\. If they are one row, declare it once; otherwise the table will hold 3 rows/,
    );
  });

  it('with prune, the live spelling is deleted: the warning says the row changes spelling, not that both stay', async () => {
    const dir = await manifestDir({ 't.yaml': table('users', true, ['sip:alice@x.example']) });
    const run = await runCli(['plan', dir, '--no-color', '--max-delete-percent', '100'], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const warning = run.stdout.split('\n').find((l) => l.includes('SB_KEY_LOOKALIKE')) ?? '';
    expect(warning).toContain('next to the live row uri=SIP:ALICE@X.EXAMPLE (id 1)');
    expect(warning).toContain('this plan deletes the live row (prune): the row changes spelling');
    expect(warning).not.toContain('will hold both');
  });
});

describe('platform objects (every kind: the plan part)', () => {
  const change = (action: Change['action'], address: string, source?: string): Change => ({
    address,
    kind: 'Tenant',
    provider: 'platform',
    action,
    before: null,
    after: {},
    patch: [],
    reason: '',
    dependsOn: [],
    requests: [],
    ...(source ? { source } : {}),
  });
  const part = (changes: Change[], live: string[]): PlanPart =>
    ({ changes, liveAddresses: () => live }) as unknown as PlanPart;

  it('created addresses alike among themselves, nothing live: warned once, children not again', () => {
    const warnings = lookalikeWarnings(
      part(
        [
          change('create', 'tenant/xyz', 'a.yaml:1:1'),
          change('create', 'tenant/XYZ', 'b.yaml:1:1'),
          change('create', 'tenant/xyz ', 'c.yaml:1:1'),
          change('create', 'tenant/XYZ/subscription/main'),
          change('create', 'tenant/other'),
        ],
        [],
      ),
    );
    expect(warnings).toEqual([
      {
        code: 'SB_KEY_LOOKALIKE',
        address: 'tenant/xyz',
        message:
          'created (a.yaml:1:1), and so "tenant/XYZ" (b.yaml:1:1), "tenant/xyz " (c.yaml:1:1): the addresses differ ' +
          'only by case, surrounding spaces, invisible characters or compatibility forms (NFKC). If they are one ' +
          'object, declare it once; otherwise the platform will hold 3',
      },
    ]);
  });

  it('addresses differing only by invisible characters or compatibility forms: warned, the addresses kept exact', () => {
    const created = [
      'tenant/acme-corp\u{e0020}\u{e0041}',
      'tenant/globex\u3164',
      'tenant/glo\u00adbex',
      'tenant/acme\ufe0f-corp',
      'tenant/acme-c\u034forp',
      'tenant/ｇｌｏｂｅｘ',
      'tenant/x\u061cy',
    ];
    const warnings = lookalikeWarnings(
      part(
        created.map((a) => change('create', a)),
        ['tenant/acme-corp', 'tenant/globex'],
      ),
    );
    expect(warnings.map((w) => [w.address, w.message.split(':')[0]])).toEqual([
      ['tenant/acme-corp\u{e0020}\u{e0041}', 'created next to the live tenant/acme-corp'],
      ['tenant/globex\u3164', 'created next to the live tenant/globex'],
      ['tenant/glo\u00adbex', 'created next to the live tenant/globex'],
      ['tenant/acme\ufe0f-corp', 'created next to the live tenant/acme-corp'],
      ['tenant/acme-c\u034forp', 'created next to the live tenant/acme-corp'],
      ['tenant/ｇｌｏｂｅｘ', 'created next to the live tenant/globex'],
    ]);
  });

  it('the live spelling deleted by the same plan: the object changes spelling, not "both"', () => {
    const [warning] = lookalikeWarnings(
      part([change('create', 'tenant/acme', 'a.yaml:1:1'), change('delete', 'tenant/Acme')], ['tenant/Acme']),
    );
    expect(warning?.message).toContain('next to the live tenant/Acme');
    expect(warning?.message).toContain('this plan deletes the live one (prune): the object changes spelling');
    expect(warning?.message).not.toContain('will hold both');
  });
});
