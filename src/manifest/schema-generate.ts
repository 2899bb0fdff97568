import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kinds as tableKinds } from '../kinds/index.js';
import { baselineKind } from '../kinds/baseline.js';
import { policyKind } from '../kinds/policy.js';
import { changeWindowKind } from '../kinds/change-window.js';
import { routingTableKind } from '../kinds/routing-table.js';
import { routingTestKind } from '../kinds/routing-test.js';
import type { KindDefinition } from '../kinds/types.js';
import { baselineSchema, baselineTarget } from './schema-baseline.js';
import { partialDocumentSchema } from './schema-partial.js';
import { documentSchema } from './schema-documents.js';
import {
  DEFINITIONS_FILE,
  ENVELOPE_DEFS,
  generatedComment,
  JSON_SCHEMA_DRAFT,
  type Schema,
} from './schema-envelope.js';
import { KindSchemas } from './schema-kinds.js';
import { POLICY_SCHEMA } from './schema-policy.js';
import { CHANGE_WINDOW_SCHEMA } from './schema-change-window.js';
import { ROUTING_TABLE_SCHEMA } from './schema-routing-table.js';
import { ROUTING_TEST_SCHEMA } from './schema-routing-test.js';

/**
 * Every file of `schemas/`, made from the kind table (src/kinds/) and the hand-written
 * envelope, routing-table, policy, routing-test and change-window schemas (the baselines' from the kind they
 * apply to): what `npm run schemas:generate` writes and
 * test/manifest/schema-generated.test.ts compares with the checked-in files. `validate`,
 * export and editors read the files; the field reference of docs/manifests.md is rendered
 * from them (scripts/docs/manifest-fields.mjs).
 */
export function generateSchemas(kinds: readonly KindDefinition[] = tableKinds): Map<string, Schema> {
  const schemas = new KindSchemas(kinds);
  const documents: [string, string, Schema][] = kinds.flatMap((kind) =>
    kind.manifest.document ? [[kind.kind, kind.manifest.document.schema, documentSchema(kind, schemas)]] : [],
  );
  documents.push(
    [
      routingTableKind.kind,
      routingTableKind.schema,
      handWritten(routingTableKind, ROUTING_TABLE_SCHEMA, 'routing-table'),
    ],
    [policyKind.kind, policyKind.schema, handWritten(policyKind, POLICY_SCHEMA, 'policy')],
  );
  documents.push([
    baselineKind.kind,
    baselineKind.schema,
    baselineSchema(
      kinds,
      schemas,
      documents.map((d) => d[2]),
    ),
  ]);
  // Documents a baseline cannot select: after it (document-kinds.ts lists them in this order).
  documents.push(
    [routingTestKind.kind, routingTestKind.schema, handWritten(routingTestKind, ROUTING_TEST_SCHEMA, 'routing-test')],
    [
      changeWindowKind.kind,
      changeWindowKind.schema,
      handWritten(changeWindowKind, CHANGE_WINDOW_SCHEMA, 'change-window'),
    ],
  );
  const files = new Map<string, Schema>();
  files.set('manifest.schema.json', dispatcher(documents.map(([kind, file]) => [kind, file])));
  files.set(DEFINITIONS_FILE, {
    $schema: JSON_SCHEMA_DRAFT,
    $id: DEFINITIONS_FILE,
    $comment: generatedComment('the kind table (src/kinds/) and src/manifest/schema-envelope.ts'),
    title: 'switchboard shared definitions',
    description:
      'Definitions shared by the switchboard manifest kinds: the document envelope, and the items that more than one document kind holds.',
    $defs: { ...ENVELOPE_DEFS, ...Object.fromEntries(schemas.defs.get(DEFINITIONS_FILE) ?? []) },
  });
  for (const [, file, schema] of documents) files.set(file, schema);
  // The editor's form of the documents baselines select (every spec field optional).
  const target = documents.find(([kind]) => kind === baselineTarget(kinds).kind)?.[2];
  if (target) {
    const partial = partialDocumentSchema(target);
    files.set(partial['$id'] as string, partial);
  }
  return files;
}

/**
 * The files of `dir` that are not what the kind table gives, each named with what to run:
 * changed or missing ones, and schemas the table no longer makes.
 */
export function staleSchemaFiles(dir: string, generated: ReadonlyMap<string, Schema> = generateSchemas()): string[] {
  const stale: string[] = [];
  for (const [file, schema] of generated) {
    let text: string | undefined;
    try {
      text = readFileSync(join(dir, file), 'utf8');
    } catch {
      text = undefined;
    }
    if (text !== schemaText(schema))
      stale.push(`schemas/${file} is not what the kind table gives: run npm run schemas:generate`);
  }
  for (const file of readdirSync(dir))
    if (file.endsWith('.schema.json') && !generated.has(file))
      stale.push(`schemas/${file} is no schema of the kind table: run npm run schemas:generate`);
  return stale;
}

/** A schema file's text as written to `schemas/`. */
export function schemaText(schema: Schema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** `manifest.schema.json`: any document, its `kind` selecting its schema. */
function dispatcher(documents: readonly (readonly [string, string])[]): Schema {
  const names = documents.map(([kind]) => kind);
  return {
    $schema: JSON_SCHEMA_DRAFT,
    $id: 'manifest.schema.json',
    $comment: generatedComment('the kind table (src/kinds/)'),
    title: 'switchboard manifest',
    description:
      'Any switchboard manifest document; kind selects the schema. Point editors here: # yaml-language-server: $schema=<path>/schemas/manifest.schema.json.',
    type: 'object',
    properties: { kind: { description: names.join(' | '), enum: names } },
    required: ['kind'],
    allOf: documents.map(([kind, file]) => ({
      if: { properties: { kind: { const: kind } } },
      then: { $ref: file },
    })),
  };
}

/** A hand-written document schema with its header, and its `kind` from src/kinds/. */
function handWritten(kind: { kind: string; schema: string }, body: Schema, source: string): Schema {
  const properties = structuredClone(body['properties']) as Record<string, Schema>;
  properties['kind'] = { ...properties['kind'], const: kind.kind };
  return {
    $schema: JSON_SCHEMA_DRAFT,
    $id: kind.schema,
    $comment: generatedComment(`src/manifest/schema-${source}.ts`),
    title: `switchboard ${kind.kind}`,
    ...body,
    properties,
  };
}
