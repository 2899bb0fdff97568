/**
 * The parts of the case runner that decide what a case means (case-folder.ts): how a seed is
 * laid over the default data set, what is normalised out of the outputs, which requests are
 * writes, and that a case.yaml with a mistake says which.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalise, normalisePlan, overlaySeed, readCases, writesOf } from './case-folder.js';

describe('a case seed over the default data set', () => {
  const base = {
    instance: 'demo',
    groups: [{ name: 'demo-group', enabledUcs: ['uc_alpha', 'uc_beta'] }],
    tenants: [
      {
        name: 'acme-corp',
        markup: 4,
        subscriptions: [{ name: 'main', entitlements: [{ type: 'BE geo', entitlement: 10 }] }],
      },
    ],
  };

  it('merges an item naming a default item, appends new items, replaces values and lists of values', () => {
    const seed = overlaySeed(base, {
      groups: [{ name: 'demo-group', enabledUcs: ['uc_alpha'] }],
      tenants: [
        {
          name: 'acme-corp',
          markup: 7.5,
          subscriptions: [{ name: 'main', entitlements: [{ type: 'BE geo', assigned: 19 }] }],
        },
        { name: 'new-co', owner: { reseller: 'north' } },
      ],
    });
    expect(seed).toEqual({
      instance: 'demo',
      groups: [{ name: 'demo-group', enabledUcs: ['uc_alpha'] }],
      tenants: [
        {
          name: 'acme-corp',
          markup: 7.5,
          subscriptions: [{ name: 'main', entitlements: [{ type: 'BE geo', entitlement: 10, assigned: 19 }] }],
        },
        { name: 'new-co', owner: { reseller: 'north' } },
      ],
    });
    expect(base.tenants[0]?.markup).toBe(4); // the default is not changed
  });
});

describe('normalised outputs', () => {
  const where = { dir: '/tmp/sb-cases-x/drift', url: 'http://127.0.0.1:40123' };

  it('names the folder, the simulator (also as the markdown escapes it), digests, times and uuids', () => {
    const text = [
      'Journal: /tmp/sb-cases-x/drift/.switchboard/journal.jsonl',
      'Target: http://127.0.0.1:40123 and <code>http&#58;//127&#46;0&#46;0&#46;1&#58;40123</code> or http&#58;//127.0.0.1:40123',
      'Plan digest: sha256:' + 'a'.repeat(64),
      'at 2026-11-26T18:38:05Z and 2026-11-26T18:38:05.123Z',
      '~ tenant/acme-corp (Tenant, id 72df1785-55a8-40a1-aeb6-4fc75735e141)',
      'location id 5 stays',
    ].join('\n');
    expect(normalise(text, where)).toBe(
      [
        'Journal: <case>/.switchboard/journal.jsonl',
        'Target: <simulator> and <code><simulator></code> or <simulator>',
        'Plan digest: sha256:<digest>',
        'at <time> and <time>',
        '~ tenant/acme-corp (Tenant, id <uuid>)',
        'location id 5 stays',
      ].join('\n'),
    );
    expect(
      normalisePlan('{"tool":{"name":"switchboard","version":"0.1.0"},"createdAt":"2026-11-26T18:38:05Z"}', where),
    ).toBe(
      '{\n  "tool": {\n    "name": "switchboard",\n    "version": "<version>"\n  },\n  "createdAt": "<time>"\n}\n',
    );
  });

  it('counts as writes what changes something, not reads, logins or logouts', () => {
    expect(
      writesOf({
        'GET /api/v01/draas/:instance/tenants': 9,
        'POST /api/v01/auth/login': 1,
        'POST /api/v01/auth/logout': 1,
        'PUT /api/v01/draas/:instance/tenants/:uuid': 2,
        'DELETE /api/v01/draas/:instance/tenants/:uuid': 1,
        'PATCH /draas/active/routes': 1,
      }),
    ).toBe(4);
  });
});

describe('a case.yaml', () => {
  async function folder(caseYaml: string): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'sb-case-spec-'));
    await mkdir(join(root, 'one', 'manifests'), { recursive: true });
    await writeFile(join(root, 'one', 'case.yaml'), caseYaml);
    return root;
  }

  it('is read with its defaults, and a mistake names the file and the key', async () => {
    const good = await folder('title: t\nargs: [plan, manifests]\nexitCode: 2\n');
    expect(readCases(good)).toEqual([
      { name: 'one', dir: join(good, 'one'), title: 't', args: ['plan', 'manifests'], user: 'admin', exitCode: 2 },
    ]);
    const noExit = await folder('title: t\nargs: [plan, manifests]\n');
    expect(() => readCases(noExit)).toThrow('test/cases/one/case.yaml: exitCode is required');
    const misspelt = await folder('title: t\nargs: [plan]\nexitCode: 0\nexit: 1\n');
    expect(() => readCases(misspelt)).toThrow('test/cases/one/case.yaml: unknown keys exit');
  });
});
