import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPlatformCore } from '../../src/sim/platform/core.js';
import { defaultSeed, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { LOOSE_FIELDS } from '../../src/sim/platform/variants.js';
import { loginAs, P, uuidOf } from './helpers.js';

const sims: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function sim(options: Parameters<typeof startSimulator>[0] = {}): Promise<RunningSimulator> {
  const s = await startSimulator({ port: 0, ...options });
  sims.push(s);
  return s;
}

type Json = Record<string, any>;
const typeOf = (v: unknown) => (typeof v === 'number' ? 'integer' : typeof v);

/**
 * Asks every endpoint that serves a loosely typed field `rounds` times and records the form
 * of every answer: each field's forms must be documented ones, and every documented form
 * must show up.
 */
async function formsSeen(s: RunningSimulator, rounds: number): Promise<Map<string, Set<string>>> {
  const admin = await loginAs(s, 'admin');
  const group = await uuidOf(admin, 'groups', 'demo-group');
  const acme = await uuidOf(admin, 'tenants', 'acme-corp');
  const subs = await admin.get<{ subscriptions: { id: number }[] }>(`${P}/tenants/${acme}/subscriptions`);
  const T = `${P}/tenants/${acme}/subscriptions/${subs.body.subscriptions[0]?.id}`;
  const plan = await admin.post<{ id: number }>(`${P}/groups/${group}/block_list`, { name: 'p', isoCode: 'BE' });
  await admin.post(`${P}/groups/${group}/block_list/${plan.body.id}/prefixes`, { prefix: '+32900', isExact: true });
  await admin.post(`${P}/groups/${group}/block_list/${plan.body.id}/prefixes`, { prefix: '0800', isExact: 'false' });
  const seen = new Map<string, Set<string>>();
  const saw = (field: string, form: string) => {
    const set = seen.get(field) ?? new Set<string>();
    set.add(form);
    seen.set(field, set);
  };
  const spelling = (body: Json, plain: string, underscored: string) =>
    plain in body && underscored in body ? 'both' : plain in body ? plain : underscored in body ? underscored : 'none';
  for (let i = 0; i < rounds; i++) {
    const tenants = (await admin.get<Json>(`${P}/tenants?parent=${group}`)).body;
    const markups = new Set(
      (tenants['tenants'] as Json[]).filter((t) => 'markup' in t).map((t) => typeOf(t['markup'])),
    );
    expect(markups.size, 'one form per answer').toBe(1);
    saw('markup', [...markups][0] === 'string' ? 'string' : 'number');
    saw('page', typeOf(tenants['page']));
    const detail = (await admin.get<Json>(`${P}/tenants/${acme}`)).body;
    saw('markupEntry', typeOf(detail['markups'][0]['markup']) === 'string' ? 'string' : 'number');
    const g = (await admin.get<Json>(`${P}/groups/${group}`)).body;
    saw(
      'nbOfDistributors',
      'nbOfDistributors' in g ? 'nbOfDistributors' : 'nbOfDisributors' in g ? 'nbOfDisributors' : 'none',
    );
    const profile = (await admin.get<Json>('/api/v01/system/users/local')).body;
    saw('firstname', spelling(profile, 'firstname', 'first_name'));
    saw('lastname', spelling(profile, 'lastname', 'last_name'));
    saw('mobilenumber', spelling(profile, 'mobilenumber', 'mobile_number'));
    const mobile = profile['mobilenumber'] ?? profile['mobile_number'];
    saw('mobilenumberType', typeof mobile === 'string' && mobile.startsWith('+') ? 'string' : typeOf(mobile));
    saw(
      'registeredOn',
      typeof profile['registered_on'] === 'string' && /^\d{4}-\d\d-\d\dT/.test(profile['registered_on'])
        ? 'timestamp'
        : typeOf(profile['registered_on']),
    );
    saw('profileId', typeOf(profile['profile']['id']));
    saw('numbersPage', typeOf((await admin.get<Json>(`${T}/numbers`)).body['page']));
    const templates = (await admin.get<Json>(`${T}/uc_alpha/templates`)).body['templates'] as Json[];
    saw('templateId', typeOf(templates[0]?.['id']));
    const inventory = (await admin.get<Json>(`${T}/number_inventory?nsn=21234560`)).body['numbers'] as Json[];
    const assigned = inventory.find((n) => n['state'] === 'assigned') as Json;
    saw(
      'inventoryId',
      typeof assigned['id'] === 'string' && assigned['id'].startsWith('+') ? 'string' : typeOf(assigned['id']),
    );
    saw(
      'stateUpdatedOn',
      'stateUpdatedOn' in assigned ? 'stateUpdatedOn' : 'statusUpdatedOn' in assigned ? 'statusUpdatedOn' : 'none',
    );
    const prefixes = (await admin.get<Json>(`${P}/groups/${group}/block_list/${plan.body.id}/prefixes`)).body[
      'prefixes'
    ] as Json[];
    const exact = new Set(
      prefixes.map((p) =>
        typeof p['isExact'] === 'boolean' ? 'boolean' : `${typeof p['isExact']}:${String(p['isExact'])}`,
      ),
    );
    expect(
      [...exact].every((e) => e === 'boolean' || e === 'string:true' || e === 'string:false'),
      [...exact].join(),
    ).toBe(true);
    saw('isExact', exact.has('boolean') ? 'boolean' : 'string');
    expect(exact.size === 1 || (exact.size === 2 && !exact.has('boolean')), 'isExact: one form per answer').toBe(true);
  }
  return seen;
}

describe('variant mode (switchboard sim --variants SEED)', () => {
  it('without variants every loosely typed field keeps its default (first) form', async () => {
    const seen = await formsSeen(await sim(), 3);
    for (const [field, spec] of Object.entries(LOOSE_FIELDS)) {
      expect([...(seen.get(field) ?? [])], field).toEqual([spec.forms[0]]);
    }
  });

  it('Doc1 §1.8, §2.2, §2.3, §2.6; Doc2 §2.6, §2.10, §2.11, §4.4: with a seed, every field takes each of its documented forms, and no other', async () => {
    const s = await sim({ variants: 7 });
    expect(s.core.variantSeed).toBe(7);
    const seen = await formsSeen(s, 24);
    for (const [field, spec] of Object.entries(LOOSE_FIELDS)) {
      expect([...(seen.get(field) ?? [])].sort(), field).toEqual([...spec.forms].sort());
    }
  });

  it('is reproducible: the same seed and the same requests give the same answers; a reset starts the sequence again', async () => {
    const answers = async (s: RunningSimulator) => {
      const admin = await loginAs(s, 'admin');
      const group = await uuidOf(admin, 'groups', 'demo-group');
      const out: unknown[] = [];
      for (let i = 0; i < 12; i++)
        out.push(
          (await admin.get(`${P}/tenants?parent=${group}`)).body,
          (await admin.get(`${P}/groups/${group}`)).body,
        );
      return JSON.stringify(out).replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, 'uuid'); // uuids are random per simulator
    };
    const one = await sim({ variants: 'seed-a' });
    const two = await sim({ variants: 'seed-a' });
    const first = await answers(one);
    expect(await answers(two)).toBe(first);
    // A different seed draws differently; a reset of the first replays the first sequence after the same logins.
    expect(await answers(await sim({ variants: 'seed-b' }))).not.toBe(first);
    await fetch(`${one.url}/_sim/reset`, { method: 'POST' });
    expect(await answers(one)).toBe(first);
  });

  it("the seed file's `variants` switches it on; the option wins over it; a bad value is a seed error", async () => {
    const seeded = await sim({ seed: { ...defaultSeed(), variants: 3 } });
    expect(seeded.core.variantSeed).toBe(3);
    expect((await sim({ seed: { ...defaultSeed(), variants: 3 }, variants: 9 })).core.variantSeed).toBe(9);
    expect(() => createPlatformCore({ seed: { ...defaultSeed(), variants: { no: 1 } as never } })).toThrow(
      /seed variants: must be a number or a string/,
    );
  });
});

describe('docs/simulator.md lists the variant fields', () => {
  it('one table row per loosely typed field, each naming its document', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(new URL('../../docs/simulator.md', import.meta.url), 'utf8');
    const section = text.slice(
      text.indexOf('## Variant mode'),
      text.indexOf('\n## ', text.indexOf('## Variant mode') + 1),
    );
    const rows = section
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| field') && !l.startsWith('|---'));
    expect(rows).toHaveLength(Object.keys(LOOSE_FIELDS).length);
    const cited = rows.map((r) => r.split('|').at(-2)?.trim() ?? '');
    for (const [field, spec] of Object.entries(LOOSE_FIELDS)) {
      const first = spec.source.split(', ')[0] ?? '';
      expect(
        cited.some((c) => c.includes(first)),
        `${field}: ${first}`,
      ).toBe(true);
    }
  });
});

describe('switchboard sim --variants SEED', () => {
  it('starts the simulator in variant mode and says so', async () => {
    const { Command } = await import('commander');
    const { runCli } = await import('../../src/cli/program.js');
    let out = '';
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    try {
      const run = runCli(['node', 'switchboard', 'sim', '--port', '0', '--variants', 'ci-7'], new Command());
      await vi.waitFor(() => expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/), { timeout: 60_000 }); // a wait for start-up, not a budget
      expect(out).toContain('variants:       seed ci-7');
      process.emit('SIGINT');
      expect(await run).toBe(0);
    } finally {
      write.mockRestore();
    }
  });
});
