import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject, type ValidateFunction, type AnySchemaObject } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import { PACKAGE_ROOT } from '../core/package.js';
import { SCHEMA_FILES } from './document-kinds.js';
import type { ManifestKind } from './types.js';

/**
 * The JSON Schemas in `schemas/` say what a manifest may contain: editors read them for
 * completion and hover help, `validate` checks with them and export lays its files out by
 * them. They are generated from the kind table (`npm run schemas:generate`, schema-generate.ts)
 * and compiled once per process, in ajv's strict mode.
 *
 * Annotation keywords of our own (registered below so strict mode accepts them):
 * - `x-immutable: true`: the API cannot change the field; a change means a replace.
 * - `x-sensitive: true`: the value is secret (shown as `(sensitive)`, stored as a digest).
 * - `x-ignored: "<reason>"`: a field of the API's read view (or one the calls do not
 *   accept) that a manifest cannot set; it fails validation with the reason as the
 *   message. For editors, the same properties carry `doNotSuggest: true` (not offered by
 *   completion) and `deprecationMessage` (the warning yaml-language-server shows, saying
 *   why), and the read-only ones the standard `readOnly: true`.
 * - `markdownDescription`: the hover text of yaml-language-server and VS Code (a field's
 *   description and what its change and traits mean).
 * `writeOnly: true` (standard) marks fields the API never returns.
 */

/** The schemas folder of the package. */
export const SCHEMAS_DIR = `${PACKAGE_ROOT}schemas/`;

export { SCHEMA_FILES };
const SHARED_FILES = ['definitions.schema.json', 'manifest.schema.json'];

export interface SchemaSet {
  ajv: Ajv2020;
  validators: Record<ManifestKind, ValidateFunction>;
  schemas: Record<string, AnySchemaObject>;
}

let cached: SchemaSet | undefined;

/** Reads one schema file of `schemas/`. */
export function readSchema(file: string): AnySchemaObject {
  return JSON.parse(readFileSync(SCHEMAS_DIR + file, 'utf8')) as AnySchemaObject;
}

/**
 * The schemas in an ajv instance (once per process), each compiled in strict mode when it is
 * first needed: compiling costs 10-60 ms per kind, so a run that declares only tenants
 * never compiles the others. The schemas are not checked against the JSON Schema
 * meta-schema here (38 ms at every start): they ship with the package, and
 * test/manifest/schemas.test.ts checks them. Throws on a broken schema.
 */
export function schemaSet(options: { validateSchema?: boolean } = {}): SchemaSet {
  if (cached && options.validateSchema === undefined) return cached;
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    verbose: true,
    allowUnionTypes: true,
    // The optimising passes over the generated code cost 45 % of compiling (all kinds: ~155 ms →
    // ~87 ms) and saved no measurable validation time (5,000 tenant documents: 26–36 ms either way).
    code: { optimize: false },
    validateSchema: options.validateSchema ?? false,
  });
  const require = createRequire(import.meta.url);
  const addFormats = require('ajv-formats') as FormatsPlugin;
  addFormats(ajv, ['email']);
  ajv.addKeyword({ keyword: 'x-immutable', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'x-sensitive', schemaType: 'boolean' });
  // Editor annotations (yaml-language-server, VS Code): no effect on validation.
  ajv.addKeyword({ keyword: 'doNotSuggest', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'deprecationMessage', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'markdownDescription', schemaType: 'string' });
  ajv.addKeyword({
    keyword: 'x-ignored',
    schemaType: 'string',
    errors: true,
    validate: function ignored(reason: string): boolean {
      (ignored as unknown as { errors: Partial<ErrorObject>[] }).errors = [
        { keyword: 'x-ignored', message: reason, params: {} },
      ];
      return false;
    },
  });
  const schemas: Record<string, AnySchemaObject> = {};
  for (const file of [...SHARED_FILES, ...Object.values(SCHEMA_FILES)]) {
    schemas[file] = readSchema(file);
    ajv.addSchema(schemas[file]);
  }
  const validators = {} as Record<ManifestKind, ValidateFunction>;
  for (const [kind, file] of Object.entries(SCHEMA_FILES) as [ManifestKind, string][]) {
    Object.defineProperty(validators, kind, { enumerable: true, get: () => ajv.getSchema(file) as ValidateFunction });
  }
  const set = { ajv, validators, schemas };
  if (options.validateSchema === undefined) cached = set;
  return set;
}
