/**
 * `schemas/*.json` are generated from the kind table (`npm run schemas:generate`): the
 * checked-in files are what the table gives, and each field's `doc`, `change` and `manifest`
 * column comes out where `validate`, export and editors read it.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kinds } from '../../src/kinds/index.js';
import type { KindDefinition } from '../../src/kinds/types.js';
import { SCHEMAS_DIR } from '../../src/manifest/index.js';
import { generateSchemas, staleSchemaFiles } from '../../src/manifest/schema-generate.js';
import { defName } from '../../src/manifest/schema-kinds.js';

type Node = Record<string, unknown>;

const generated = generateSchemas();

/** A kind's item definition as generated, wherever it is placed. */
function itemDef(kind: KindDefinition): Node | undefined {
  for (const schema of generated.values()) {
    const def = (schema['$defs'] as Record<string, Node> | undefined)?.[defName(kind)];
    if (def) return def;
  }
  return undefined;
}

/**
 * The properties an item of `kind` may have: its definition's, or (one level down) a keyed
 * map's; for a document, its spec's with its metadata fields from its metadata.
 */
function propertiesOf(kind: KindDefinition): Record<string, Node> {
  const document = kind.manifest.document;
  if (document) {
    const root = generated.get(document.schema)?.['properties'] as Record<string, Node>;
    const metadata = (root['metadata'] as Node)['properties'] as Record<string, Node>;
    const spec = (root['spec'] as Node)['properties'] as Record<string, Node>;
    return { ...spec, ...Object.fromEntries(document.metadataFields.map((name) => [name, metadata[name] as Node])) };
  }
  const def = itemDef(kind) as Node;
  const properties = def['properties'] as Record<string, Node>;
  if (kind.manifest.shape === 'map' && Object.values(properties).every((p) => p['properties']))
    return Object.assign({}, ...Object.values(properties).map((p) => p['properties'] as Record<string, Node>));
  return properties;
}

const copies: string[] = [];
afterAll(async () => Promise.all(copies.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('schemas/ from the kind table', () => {
  it('is what the kind table gives (npm run schemas:generate has been run)', () => {
    expect(staleSchemaFiles(SCHEMAS_DIR, generated)).toEqual([]);
  });

  it('names a stale, a missing and an extra file, each with the command that writes them again', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'switchboard-schemas-'));
    copies.push(copy);
    await cp(SCHEMAS_DIR, copy, { recursive: true });
    const tenant = join(copy, 'tenant.schema.json');
    await writeFile(tenant, (await readFile(tenant, 'utf8')).replace('Markup in percent', 'Mark-up in percent'));
    await rm(join(copy, 'policy.schema.json'));
    await writeFile(join(copy, 'old.schema.json'), '{}');
    expect(staleSchemaFiles(copy, generated)).toEqual([
      'schemas/tenant.schema.json is not what the kind table gives: run npm run schemas:generate',
      'schemas/policy.schema.json is not what the kind table gives: run npm run schemas:generate',
      'schemas/old.schema.json is no schema of the kind table: run npm run schemas:generate',
    ]);
  });

  it("writes every field's doc as its description and its change as the schema's annotation", () => {
    const problems: string[] = [];
    for (const kind of kinds) {
      const properties = propertiesOf(kind);
      const keyField = kind.manifest.shape === 'map' ? kind.manifest.identity[0] : undefined;
      for (const spec of kind.fields) {
        if (spec.name === keyField) continue;
        const property = properties[spec.name];
        const at = `${kind.kind}.${spec.name}`;
        if (!property) {
          problems.push(`${at}: no property`);
          continue;
        }
        if (spec.change === 'readOnly') {
          if (property['x-ignored'] !== spec.doc) problems.push(`${at}: not refused with its doc`);
          continue;
        }
        if (property['description'] !== spec.doc) problems.push(`${at}: description is not its doc`);
        const identity = kind.manifest.identity.includes(spec.name);
        if ((property['x-immutable'] === true) !== (spec.change === 'replace' && !identity))
          problems.push(`${at}: x-immutable disagrees with change '${spec.change}'`);
        if ((property['writeOnly'] === true) !== (spec.change === 'writeOnly' || kind.unreadable === true))
          problems.push(`${at}: writeOnly disagrees with change '${spec.change}'`);
        if ((property['x-sensitive'] === true) !== (spec.sensitive === true))
          problems.push(`${at}: x-sensitive disagrees with the table`);
      }
      for (const [name, refusal] of Object.entries(kind.manifest.refused ?? {}))
        if (properties[name]?.['x-ignored'] !== refusal.why) problems.push(`${kind.kind}.${name}: not refused`);
    }
    expect(problems).toEqual([]);
  });

  it('gives editors a hover text that says what a change of the field does', () => {
    const subscription = kinds.find((k) => k.kind === 'Subscription') as KindDefinition;
    const uc = propertiesOf(subscription)['uc'] as Node;
    expect(uc['description']).toBe(subscription.fields.find((f) => f.name === 'uc')?.doc);
    expect(uc['markdownDescription']).toMatch(/a new value is a replace .*refused unless --allow-replace/);
  });

  it('places an item definition in the one document that holds it, else in definitions.schema.json', () => {
    const placed = (file: string) => Object.keys((generated.get(file)?.['$defs'] ?? {}) as Node);
    expect(placed('group.schema.json')).toEqual(expect.arrayContaining(['product', 'productItem', 'enabledUc']));
    expect(placed('tenant.schema.json')).toEqual(expect.arrayContaining(['subscription', 'address', 'trunkGroup']));
    // Held by groups and tenants (and resellers): shared.
    expect(placed('definitions.schema.json')).toEqual(
      expect.arrayContaining(['administrator', 'callingPlan', 'prefix']),
    );
    expect(placed('group.schema.json')).not.toContain('administrator');
    // The CSV rows of a kind are checked against its item definition.
    for (const kind of kinds) {
      const csv = kind.manifest.csv;
      if (!csv) continue;
      const [file = '', pointer = ''] = csv.rowSchema.split('#');
      expect(pointer).toBe(`/$defs/${defName(kind)}`);
      expect(placed(file)).toContain(defName(kind));
    }
  });

  it('lists every document kind in manifest.schema.json: the table, routing tables, policies, baselines, tests, windows', () => {
    const manifest = generated.get('manifest.schema.json') as Node;
    expect((manifest['properties'] as Record<string, Node>)['kind']?.['enum']).toEqual([
      ...kinds.filter((k) => k.manifest.document).map((k) => k.kind),
      'RoutingTable',
      'Policy',
      'Baseline',
      'RoutingTest',
      'ChangeWindow',
    ]);
  });
});
