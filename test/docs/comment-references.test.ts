/**
 * Comments, test names and messages in src/, test/ and scripts/ point readers at the docs
 * as `docs/<page>.md "Heading"` (or README.md's headings as `README "Heading"`): the page
 * must exist and hold that heading. Sections that move between pages leave no stale pointer
 * behind (the README's sections moved to docs/ once, and 17 comments kept pointing there).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './markdown.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TREES = ['src', 'test', 'scripts'];
/** Data, and this file's own examples. */
const SKIPPED = new Set(['test/fixtures', 'test/docs/comment-references.test.ts']);
const REFERENCE = /\b(README|docs\/[a-z-]+\.md)(?:,)? (?:"([^"\n]+)"|“([^”\n]+)”)?/g;

function filesUnder(dir: string): string[] {
  if (SKIPPED.has(dir) || !existsSync(resolve(ROOT, dir))) return [];
  return readdirSync(resolve(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(path);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) && !SKIPPED.has(path) ? [path] : [];
  });
}

const headings = new Map<string, Set<string>>();
function headingsOf(page: string): Set<string> | undefined {
  if (!existsSync(resolve(ROOT, page))) return undefined;
  let found = headings.get(page);
  if (!found) {
    found = new Set();
    for (const item of parseMarkdown(readFileSync(resolve(ROOT, page), 'utf8')))
      if (item.type === 'heading') {
        // A heading may be cited without its parenthesis: "Saved plans" for "Saved plans (`--plan FILE`)".
        for (const text of [item.text, item.text.replace(/`/g, '')]) {
          found.add(text);
          found.add(text.replace(/\s*\(.*\)$/, ''));
        }
      }
    headings.set(page, found);
  }
  return found;
}

/** What is wrong with the references of one file's text: a missing page, or a heading the page lacks. */
function brokenReferences(file: string, text: string): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const match of line.matchAll(REFERENCE)) {
      const page = match[1] === 'README' ? 'README.md' : (match[1] ?? '');
      const heading = match[2] ?? match[3];
      const known = headingsOf(page);
      if (!known) problems.push(`${file}:${i + 1}: ${page} does not exist`);
      else if (heading !== undefined && /^[A-Z]/.test(heading) && !known.has(heading))
        problems.push(`${file}:${i + 1}: ${page} has no heading "${heading}"`);
    }
  });
  return problems;
}

describe('references from the code to the docs', () => {
  it('name pages that exist and headings those pages hold', () => {
    const files = TREES.flatMap(filesUnder);
    expect(files.length).toBeGreaterThan(300);
    const problems = files.flatMap((file) => brokenReferences(file, readFileSync(resolve(ROOT, file), 'utf8')));
    expect(problems).toEqual([]);
  });

  it('catch a stale pointer (mutation)', () => {
    const text = [
      '// see README "Writing manifests", docs/apply.md "Saved plans"',
      '// see docs/simulator.md "Seed file format", and docs/connecting.md "Retries"',
      '/** docs/nowhere.md explains it */',
      "it('docs/commands.md apply: exits 0', () => {});",
    ].join('\n');
    expect(brokenReferences('planted.ts', text)).toEqual([
      'planted.ts:1: README.md has no heading "Writing manifests"',
      'planted.ts:3: docs/nowhere.md does not exist',
    ]);
  });
});
