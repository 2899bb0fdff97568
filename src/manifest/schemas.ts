import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import type { Ajv2020, ValidateFunction, AnySchemaObject } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import { PACKAGE_ROOT } from '../core/package.js';
import { kinds } from '../kinds/index.js';
import { SCHEMA_FILES } from './document-kinds.js';
import type { ManifestKind } from './types.js';
import { requireWithCodeCache } from '../core/code-cache.js';

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
 * - `x-not-null: "<reason>"`: `null` is refused there (the type says so); the reason, with
 *   what to write instead, is the validation message.
 * - `markdownDescription`: the hover text of yaml-language-server and VS Code (a field's
 *   description and what its change and traits mean).
 * `writeOnly: true` (standard) marks fields the API never returns.
 */

/** The schemas folder of the package. */
export const SCHEMAS_DIR = `${PACKAGE_ROOT}schemas/`;

export { SCHEMA_FILES };
const SHARED_FILES = ['definitions.schema.json', 'manifest.schema.json'];

export interface SchemaSet {
  /** The ajv instance with every schema added (made on first use when the validators were compiled ahead). */
  readonly ajv: Ajv2020;
  validators: Record<ManifestKind, ValidateFunction>;
  schemas: Record<string, AnySchemaObject>;
  /** The validator of a schema or of a definition in one (`tenant.schema.json#/$defs/address`). */
  validator(id: string): ValidateFunction | undefined;
  /** The schema (or definition in one) at an id such as `tenant.schema.json#/$defs/address`. */
  schemaAt(id: string): AnySchemaObject | undefined;
  /** Whether the validators are the ones `npm run build` compiled ahead (PRECOMPILED_VALIDATORS). */
  precompiled: boolean;
}

let cached: SchemaSet | undefined;

/** Reads one schema file of `schemas/`. */
export function readSchema(file: string): AnySchemaObject {
  return JSON.parse(readFileSync(SCHEMAS_DIR + file, 'utf8')) as AnySchemaObject;
}

/** Every schema file, shared ones first: what a validator may refer to. */
export const ALL_SCHEMA_FILES: readonly string[] = [...SHARED_FILES, ...Object.values(SCHEMA_FILES)];

/**
 * The validators compiled ahead by `npm run build` (scripts/build/validators.mjs): ajv's
 * standalone code of the very validators {@link newAjv} compiles (with ajv's optimising passes,
 * which cost nothing at run time there), one export per schema id and the digest of the
 * schema files they were compiled from. Compiling them at every start
 * cost 70-100 ms, a quarter of a small estate's `validate`. When the file is missing (a run
 * from the sources) or was compiled from other schema files (`schemas:generate` since the
 * last build), the validators are compiled at run time as before: same code, same errors.
 */
export const PRECOMPILED_VALIDATORS = `${PACKAGE_ROOT}dist/manifest/validators.generated.cjs`;
/** The export of the precompiled module that holds its schemas' digest (schema ids never start with `$`). */
export const PRECOMPILED_DIGEST_EXPORT = '$schemasDigest';

/** `sha256:` of the schema files' texts, in ALL_SCHEMA_FILES order: what precompiled validators must match. */
export function schemasDigest(texts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(`${text.length}\u0000${text}`);
  return `sha256:${hash.digest('hex')}`;
}

/** The ids a manifest load validates with: each kind's schema, and each CSV source's row schema. */
export function validatorIds(): string[] {
  const rows = kinds.flatMap((kind) => (kind.manifest?.csv ? [kind.manifest.csv.rowSchema] : []));
  return [...Object.values(SCHEMA_FILES), ...new Set(rows)];
}

/**
 * An ajv instance configured as every validator of switchboard is, with our keywords and no
 * schema added. `source`: keep the generated code (for ajv's standalone module, build only).
 */
export function newAjv(options: { validateSchema?: boolean; source?: boolean } = {}): Ajv2020 {
  // Loaded here, not imported: with the validators compiled ahead, a run never needs ajv's compiler (20 ms to load).
  const require = createRequire(import.meta.url);
  const { Ajv2020, _ } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    verbose: true,
    allowUnionTypes: true,
    // The optimising passes over the generated code cost 45 % of compiling (all kinds: ~155 ms →
    // ~87 ms) and saved no measurable validation time (5,000 tenant documents: 26–36 ms either way).
    // Compiled ahead (`source`, at build time), the passes cost nothing at run time: the code is smaller to load.
    code: {
      optimize: options.source === true,
      ...(options.source ? { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } : {}),
    },
    validateSchema: options.validateSchema ?? false,
  });
  const addFormats = require('ajv-formats') as FormatsPlugin;
  addFormats(ajv, ['email']);
  ajv.addKeyword({ keyword: 'x-immutable', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'x-sensitive', schemaType: 'boolean' });
  // Annotation: the type error of a `null` there says this instead (schema-errors.ts).
  ajv.addKeyword({ keyword: 'x-not-null', schemaType: 'string' });
  // Editor annotations (yaml-language-server, VS Code): no effect on validation.
  ajv.addKeyword({ keyword: 'doNotSuggest', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'deprecationMessage', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'markdownDescription', schemaType: 'string' });
  // Always fails, with the reason as the message. Generated code (not a validate function), so
  // that ajv's standalone module can hold it.
  ajv.addKeyword({
    keyword: 'x-ignored',
    schemaType: 'string',
    error: { message: (cxt) => _`${cxt.schemaCode}` },
    code: (cxt) => cxt.fail(_`true`),
  });
  return ajv;
}

/**
 * The schemas and their validators, once per process. The validators are those `npm run build`
 * compiled ahead when they match the schema files; otherwise each is compiled in strict mode
 * when it is first needed (10-60 ms per kind: a run that declares only tenants never
 * compiles the others). The schemas are not checked against the JSON Schema meta-schema
 * here (38 ms at every start): they ship with the package, and test/manifest/schemas.test.ts
 * checks them, with `validateSchema: true` (which always compiles). Throws on a broken schema.
 */
export function schemaSet(options: { validateSchema?: boolean } = {}): SchemaSet {
  if (cached && options.validateSchema === undefined) return cached;
  const texts = ALL_SCHEMA_FILES.map((file) => readFileSync(SCHEMAS_DIR + file, 'utf8'));
  const schemas: Record<string, AnySchemaObject> = {};
  ALL_SCHEMA_FILES.forEach((file, i) => (schemas[file] = JSON.parse(texts[i] as string) as AnySchemaObject));
  const ahead =
    options.validateSchema === undefined ? loadPrecompiled(PRECOMPILED_VALIDATORS, schemasDigest(texts)) : undefined;
  let ajv: Ajv2020 | undefined;
  const compiler = (): Ajv2020 => {
    if (ajv) return ajv;
    ajv = newAjv(options);
    for (const file of ALL_SCHEMA_FILES) ajv.addSchema(schemas[file] as AnySchemaObject);
    return ajv;
  };
  const validator = (id: string): ValidateFunction | undefined => ahead?.[id] ?? compiler().getSchema(id);
  const validators = {} as Record<ManifestKind, ValidateFunction>;
  for (const [kind, file] of Object.entries(SCHEMA_FILES) as [ManifestKind, string][]) {
    Object.defineProperty(validators, kind, { enumerable: true, get: () => validator(file) as ValidateFunction });
  }
  const set: SchemaSet = {
    get ajv() {
      return compiler();
    },
    validators,
    schemas,
    validator,
    schemaAt: (id) => schemaAt(schemas, id),
    precompiled: ahead !== undefined,
  };
  if (options.validateSchema === undefined) cached = set;
  return set;
}

/** The precompiled validators in `file`, when it exists and was compiled from the schema files of `digest`. */
export function loadPrecompiled(file: string, digest: string): Readonly<Record<string, ValidateFunction>> | undefined {
  let exports: Record<string, unknown>;
  try {
    exports = requireWithCodeCache(file)?.exports ?? (createRequire(import.meta.url)(file) as Record<string, unknown>);
  } catch (error) {
    // Not built (a run from the sources): compiled at run time.
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
  if (exports[PRECOMPILED_DIGEST_EXPORT] !== digest) return undefined;
  return exports as Record<string, ValidateFunction>;
}

function schemaAt(schemas: Record<string, AnySchemaObject>, id: string): AnySchemaObject | undefined {
  const [file = '', fragment = ''] = id.split('#');
  let node: unknown = schemas[file];
  for (const token of fragment.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node !== null && typeof node === 'object' ? (node as AnySchemaObject) : undefined;
}
