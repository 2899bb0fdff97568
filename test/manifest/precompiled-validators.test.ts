/**
 * The validators `npm run build` compiles ahead (src/manifest/schemas-ahead.ts) must judge
 * every document as the ones compiled at run time do, errors and all: the CLI uses them
 * whenever they were compiled from the schema files it reads. Checked on every manifest
 * document of the repository, each against every kind's schema and every CSV row schema
 * (so that most keywords fail somewhere), and again with every `x-ignored` field set.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import {
  ALL_SCHEMA_FILES,
  PRECOMPILED_DIGEST_EXPORT,
  loadPrecompiled,
  readSchema,
  schemaSet,
  schemasDigest,
  validatorIds,
} from '../../src/manifest/schemas.js';
import { precompiledValidatorsModule } from '../../src/manifest/schemas-ahead.js';

const root = path.resolve(import.meta.dirname, '../..');

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.git')) continue;
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yamlFiles(file, out);
    else if (/\.ya?ml$/.test(name)) out.push(file);
  }
  return out;
}

/** Every YAML document of examples/ and the test cases and fixtures that parses. */
function corpus(): unknown[] {
  const documents: unknown[] = [];
  for (const dir of ['examples', 'test/cases', 'test/fixtures']) {
    for (const file of yamlFiles(path.join(root, dir))) {
      try {
        documents.push(...loadAll(readFileSync(file, 'utf8')).filter((d) => d !== null && d !== undefined));
      } catch {
        // A fixture that is broken YAML on purpose: the schema never sees it.
      }
    }
  }
  return documents;
}

/** The names of the properties the schemas mark `x-ignored`. */
function ignoredNames(): string[] {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [name, prop] of Object.entries(value as object))
          if (prop && typeof prop === 'object' && 'x-ignored' in prop) names.add(name);
      }
      walk(value);
    }
  };
  for (const file of ALL_SCHEMA_FILES) walk(readSchema(file));
  return [...names];
}

/** The module's exports, as requiring the file `npm run build` writes (`text`) gives them. */
function precompiled(text: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const evaluate = new Function('exports', 'require', 'module', text);
  evaluate(module.exports, createRequire(import.meta.url), module);
  return module.exports;
}

function verdict(validate: ValidateFunction, document: unknown): unknown {
  const valid = validate(document);
  return { valid, errors: validate.errors ?? null };
}

describe('precompiled manifest validators', () => {
  // Compiled once for every test: generating the standalone code compiles every schema.
  const moduleText = precompiledValidatorsModule();
  const ahead = precompiled(moduleText);
  // The run-time compiler the CLI falls back to (validateSchema set: never the module).
  const { ajv } = schemaSet({ validateSchema: false });

  it('exports a validator for each schema id a load uses, and the digest of the schema files', () => {
    expect(Object.keys(ahead).sort()).toEqual([PRECOMPILED_DIGEST_EXPORT, ...validatorIds()].sort());
    expect(ahead[PRECOMPILED_DIGEST_EXPORT]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(validatorIds()).toContain('tenant.schema.json#/$defs/address');
  });

  it('judges every document as the validators compiled at run time do, errors included', () => {
    const documents = corpus();
    expect(documents.length).toBeGreaterThan(100);
    const ignored = ignoredNames();
    expect(ignored.length).toBeGreaterThan(5);
    const extra = Object.fromEntries(ignored.map((name) => [name, 'x']));
    const withIgnored = (document: unknown): unknown => {
      if (document === null || typeof document !== 'object') return document;
      const spec = (document as Record<string, unknown>)['spec'];
      return { ...document, spec: { ...(spec && typeof spec === 'object' ? spec : {}), ...extra } };
    };
    let failures = 0;
    let ignoredErrors = 0;
    for (const id of validatorIds()) {
      const runtime = ajv.getSchema(id)!;
      const compiled = ahead[id] as ValidateFunction;
      for (const document of documents) {
        for (const input of [document, withIgnored(document)]) {
          const expected = verdict(runtime, input);
          expect(verdict(compiled, input)).toEqual(expected);
          const errors = (expected as { errors: { keyword: string; message?: string }[] | null }).errors ?? [];
          failures += errors.length;
          for (const error of errors) if (error.keyword === 'x-ignored') ignoredErrors++;
        }
      }
    }
    // The comparison covers failures, not only documents that pass.
    expect(failures).toBeGreaterThan(1000);
    expect(ignoredErrors).toBeGreaterThan(100);
  });

  it('reports an x-ignored field with its reason as the message, at the field', () => {
    const schema = readSchema('tenant.schema.json') as { properties: { spec: { properties: Record<string, object> } } };
    const reason = (schema.properties.spec.properties['uuid'] as { 'x-ignored': string })['x-ignored'];
    const document = { apiVersion: 'switchboard/v1', kind: 'Tenant', metadata: { name: 'a' }, spec: { uuid: 'x' } };
    for (const validate of [ajv.getSchema('tenant.schema.json')!, ahead['tenant.schema.json'] as ValidateFunction]) {
      expect(validate(document)).toBe(false);
      const error = validate.errors?.find((e) => e.keyword === 'x-ignored');
      expect(error).toMatchObject({ message: reason, params: {}, instancePath: '/spec/uuid' });
    }
  });

  it('are used only from a module compiled from the schema files read', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-precompiled-'));
    try {
      const file = path.join(dir, 'validators.generated.cjs');
      // What the module requires (ajv's runtime, ajv-formats), found as from the package.
      symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
      writeFileSync(file, moduleText);
      const digest = ahead[PRECOMPILED_DIGEST_EXPORT] as string;
      expect(Object.keys(loadPrecompiled(file, digest) ?? {})).toContain('tenant.schema.json');
      // Schema files generated again since the build: compiled at run time instead.
      expect(loadPrecompiled(file, `sha256:${'0'.repeat(64)}`)).toBeUndefined();
      expect(loadPrecompiled(path.join(dir, 'absent.cjs'), digest)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('digest every schema file the validators are compiled from', () => {
    const texts = ALL_SCHEMA_FILES.map((file) => readFileSync(path.join(root, 'schemas', file), 'utf8'));
    const digest = schemasDigest(texts);
    expect(ahead[PRECOMPILED_DIGEST_EXPORT]).toBe(digest);
    texts.forEach((text, i) => {
      const changed = texts.map((t, j) => (j === i ? text.replace('"description"', '"description" ') : t));
      expect(schemasDigest(changed)).not.toBe(digest);
    });
  });
});
