#!/usr/bin/env node
/**
 * `npm run docs:generate`: rewrites the generated sections of docs/ from their sources
 * (benchmark results, the kind table, JSON Schemas), between `<!-- generated: NAME -->` and
 * `<!-- end generated: NAME -->`. With `--check` it writes nothing and exits 1 when a page
 * is not what its sources give (the test suite runs it so). `--root DIR` reads and writes
 * another checkout (the test's copies).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { renderKinds } from './kinds.mjs';
import { loadSchemas, renderFields } from './manifest-fields.mjs';
import { renderPerformance } from './performance.mjs';

const SECTIONS = [
  {
    page: 'docs/performance.md',
    name: 'performance',
    source: 'test/bench/results.json',
    render: async (root) =>
      renderPerformance(JSON.parse(await readFile(join(root, 'test/bench/results.json'), 'utf8'))),
  },
  {
    page: 'docs/plans.md',
    name: 'kinds',
    source: 'the kind table, src/kinds/',
    // The built kind table (npm run schemas:generate builds first).
    render: async () => renderKinds((await import('../../dist/kinds/index.js')).kinds),
  },
  {
    page: 'docs/manifests.md',
    name: 'fields',
    source: 'schemas/*.schema.json',
    render: async (root) => renderFields(await loadSchemas(join(root, 'schemas'))),
  },
];

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false }, root: { type: 'string' } } });
const root = resolve(values.root ?? join(import.meta.dirname, '../..'));

let stale = 0;
for (const section of SECTIONS) {
  const path = join(root, section.page);
  const text = await readFile(path, 'utf8');
  const begin = `<!-- generated: ${section.name} (npm run docs:generate, from ${section.source}; do not edit by hand) -->`;
  const end = `<!-- end generated: ${section.name} -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) {
    console.error(`${section.page}: the markers of the generated section are missing:\n${begin}\n${end}`);
    process.exit(1);
  }
  const next = `${text.slice(0, from + begin.length)}\n\n${await section.render(root)}\n\n${text.slice(to)}`;
  if (next === text) continue;
  stale++;
  if (values.check) {
    console.error(
      `${section.page}: the ${section.name} section is not what ${section.source} gives: run npm run docs:generate`,
    );
  } else {
    await writeFile(path, next);
    console.log(`${section.page}: ${section.name} section rewritten from ${section.source}`);
  }
}
process.exit(values.check && stale > 0 ? 1 : 0);
