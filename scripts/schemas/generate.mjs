#!/usr/bin/env node
/**
 * `npm run schemas:generate` (which builds first): writes `schemas/*.json` from the kind
 * table (src/kinds/, through dist/manifest/schema-generate.js) and removes any other
 * `*.schema.json` there; `npm run docs:generate` then renders the field reference of
 * docs/manifests.md from them. With `--check` it writes nothing and exits 1, naming each
 * file that is not what the kind table gives.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = join(import.meta.dirname, '../..');
const DIR = join(ROOT, 'schemas');
const { generateSchemas, schemaText, staleSchemaFiles } = await import(join(ROOT, 'dist/manifest/schema-generate.js'));
const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });

const generated = generateSchemas();
if (values.check) {
  const stale = staleSchemaFiles(DIR, generated);
  for (const message of stale) console.error(message);
  process.exit(stale.length > 0 ? 1 : 0);
}
for (const [file, schema] of generated) {
  const text = schemaText(schema);
  if ((await readFile(join(DIR, file), 'utf8').catch(() => undefined)) === text) continue;
  await writeFile(join(DIR, file), text);
  console.log(`schemas/${file} written from the kind table`);
}
for (const file of await readdir(DIR)) {
  if (!file.endsWith('.schema.json') || generated.has(file)) continue;
  await rm(join(DIR, file));
  console.log(`schemas/${file} removed: the kind table has no such schema`);
}
