/**
 * Adding a kind is its module and one line in the kind list (docs/architecture.md "Adding a
 * kind"): a made-up kind, a subscription's voicemail boxes, is added to a copy of the
 * table, and with no other edit the schema generator writes its schema (and the field
 * reference its section), the manifest loader reads and checks it at file:line:col, and the
 * planner plans its create with the request its module builds. (The simulator's routes and
 * the generated files are the rest of the dry run; the kind contract then runs over it.)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KindDefinition, LiveObject } from '../../src/kinds/types.js';

/** The schema files the loader reads: the generated ones, in place of those on disk. */
const generatedFiles = vi.hoisted(() => new Map<string, string>());

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readFileSync = ((path: Parameters<typeof fs.readFileSync>[0], ...rest: unknown[]) =>
    generatedFiles.get(String(path)) ??
    (fs.readFileSync as (...args: unknown[]) => unknown)(path, ...rest)) as typeof fs.readFileSync;
  return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});

vi.mock('../../src/kinds/index.js', async (importOriginal) => {
  const table = await importOriginal<typeof import('../../src/kinds/index.js')>();
  const { voicemailKind } = await import('./voicemail-kind.js');
  // The one line a new kind adds to the list: after its parent.
  const kinds = [...table.kinds, voicemailKind];
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  return {
    ...table,
    kinds,
    kindOf: (name: string) => {
      const kind = byName.get(name);
      if (!kind) throw new Error(`unknown kind ${name}`);
      return kind;
    },
    hasKind: (name: string) => byName.has(name),
  };
});

// The unit tier shares a worker's modules between files (vitest.config.ts): what another file
// imported before holds the real table, so this file imports its modules afresh under the mocks,
// and leaves none of them behind for the next file (afterAll below).
vi.resetModules();
const { kinds } = await import('../../src/kinds/index.js');
const { generateSchemas, schemaText } = await import('../../src/manifest/schema-generate.js');
const { loadManifests, SCHEMAS_DIR } = await import('../../src/manifest/index.js');
const { computeChanges } = await import('../../src/plan/planner.js');
const { ctx, subscription } = await import('./context.js');
// @ts-expect-error: a plain ES module of scripts/, without types
const { renderFields } = (await import('../../scripts/docs/manifest-fields.mjs')) as {
  renderFields(schemas: Record<string, unknown>): string;
};

const voicemail = kinds.at(-1) as KindDefinition;
const schemas = generateSchemas();
let dir: string;

beforeAll(async () => {
  for (const [file, schema] of schemas) generatedFiles.set(join(SCHEMAS_DIR, file), schemaText(schema));
  dir = await mkdtemp(join(tmpdir(), 'switchboard-new-kind-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  generatedFiles.clear();
  vi.resetModules();
});

const tenant = (boxes: string) => `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: acme, reseller: north }
spec:
  subscriptions:
    - name: main
      billingId: T-MAIN
      voicemails:
${boxes}`;

describe('a kind added to the table, and nothing else', () => {
  it('gets its schema and its section of the field reference from the generator', () => {
    expect(voicemail.kind).toBe('Voicemail');
    const tenantSchema = schemas.get('tenant.schema.json') as { $defs: Record<string, Record<string, unknown>> };
    const subscriptionDef = tenantSchema.$defs['subscription'] as { properties: Record<string, unknown> };
    expect(subscriptionDef.properties['voicemails']).toEqual({
      description: `${voicemail.manifest.doc} Declaring the list makes it a collection for prune.`,
      type: 'array',
      items: { $ref: '#/$defs/voicemail' },
    });
    const def = tenantSchema.$defs['voicemail'] as { properties: Record<string, Record<string, unknown>> };
    expect(def.properties['pin']).toMatchObject({ writeOnly: true, 'x-sensitive': true, pattern: '^[0-9]{4}$' });
    expect(def.properties['id']?.['x-ignored']).toBe('`id` is assigned by the platform');
    const reference = renderFields(Object.fromEntries(schemas));
    expect(reference).toContain('### Voicemail\n\nA voicemail box of the subscription');
    expect(reference).toContain('| `greeting` | `default` or `custom` |  | The greeting callers hear. |');
  });

  it('is read by the manifest loader, and its mistakes are reported at file:line:col', async () => {
    await writeFile(join(dir, 'acme.yaml'), tenant('        - { box: "100", greeting: custom, pin: "1234" }\n'));
    const good = await loadManifests([dir], { cwd: dir, env: {} });
    expect(good.diagnostics).toEqual([]);
    const box = good.set.objects.find((o) => o.kind === 'Voicemail');
    expect(box).toMatchObject({
      address: 'tenant/acme/subscription/main/voicemail/100',
      parentAddress: 'tenant/acme/subscription/main',
      fields: { box: '100', greeting: 'custom', pin: '1234' },
    });

    await writeFile(join(dir, 'acme.yaml'), tenant('        - { box: "1", greeting: loud, id: 4 }\n'));
    const bad = await loadManifests([dir], { cwd: dir, env: {} });
    expect(bad.diagnostics.map((d) => `${d.source?.line}:${d.source?.column} ${d.code} ${d.message}`)).toEqual([
      '9:18 SB_VALUE "box" has an invalid value "1" (must match ^[0-9]{3,6}$)',
      '9:33 SB_VALUE "greeting" must be one of default, custom, not "loud"',
      '9:39 SB_IGNORED_FIELD "id" cannot be set here: `id` is assigned by the platform',
    ]);
  });

  it('is planned by the planner with the request its module builds, after its parent', async () => {
    await writeFile(join(dir, 'acme.yaml'), tenant('        - { box: "100", greeting: custom }\n'));
    const { set } = await loadManifests([dir], { cwd: dir, env: {} });
    const desired = set.platformObjects().map((o) => ({
      kind: o.kind,
      address: o.address,
      fields: o.fields,
      ...(o.parentAddress ? { parentAddress: o.parentAddress } : {}),
      ...(o.parentRef ? { parentRef: o.parentRef } : {}),
      ...(o.declaredCollections ? { declaredCollections: o.declaredCollections } : {}),
    }));
    const tenantLive: LiveObject = { ...subscription, kind: 'Tenant', address: 'tenant/acme', id: 't-1' };
    const live = {
      byAddress: new Map<string, LiveObject>([
        ['tenant/acme', { ...tenantLive, ids: { Tenant: 't-1' }, fields: { name: 'acme' } }],
        [subscription.address, { ...subscription, fields: { name: 'main', billingId: 'T-MAIN' } }],
      ]),
      collections: [{ kind: 'Voicemail', parentAddress: subscription.address, addresses: [] }],
      problems: [],
    };
    const out = await computeChanges({ desired, live, lastApplied: new Map(), ctx, options: { prune: false } });
    expect(out.problems).toEqual([]);
    expect(out.changes.map((c) => [c.action, c.address, c.reasonCode])).toEqual([
      ['create', 'tenant/acme/subscription/main/voicemail/100', 'not-found-live'],
    ]);
    expect(out.changes[0]?.requests).toEqual([
      { method: 'POST', path: `${ctx.P}/tenants/t-1/subscriptions/3/voicemails`, role: 'voicemails.create' },
    ]);
  });
});
