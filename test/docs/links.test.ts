/**
 * README.md and docs/*.md stand alone: every relative link and `#anchor` resolves inside
 * the repository (GitHub's anchor rules), and nothing refers to what a user of the package
 * does not have (the team's shared folder, its contract, issue numbers).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { githubSlug, links, parseMarkdown, type Item } from './markdown.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGES = [
  'README.md',
  ...readdirSync(resolve(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const parsed = new Map<string, Item[]>();
function items(page: string): Item[] {
  let found = parsed.get(page);
  if (!found) {
    found = parseMarkdown(readFileSync(resolve(ROOT, page), 'utf8'));
    parsed.set(page, found);
  }
  return found;
}

/** Heading anchors, plus explicit `<a id="…">` / `<a name="…">` ones. */
function anchors(page: string): Set<string> {
  const found = new Set<string>();
  for (const item of items(page)) {
    if (item.type === 'heading') found.add(item.slug);
    if (item.type === 'prose') for (const m of item.text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(m[1] ?? '');
  }
  return found;
}

function brokenLinks(page: string): string[] {
  const problems: string[] = [];
  for (const { target, line } of links(items(page))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not checked (no network in tests)
    const [path = '', anchor] = target.split('#', 2);
    const file = path === '' ? resolve(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(path));
    const where = `${page}:${line}: ${target}`;
    if (relative(ROOT, file).startsWith('..')) problems.push(`${where}: leads outside the repository`);
    else if (!existsSync(file)) problems.push(`${where}: no such file`);
    else if (anchor !== undefined) {
      const targetPage = relative(ROOT, file);
      if (!targetPage.endsWith('.md')) problems.push(`${where}: an anchor into a file that is not markdown`);
      else if (!anchors(targetPage).has(decodeURIComponent(anchor))) {
        problems.push(`${where}: no heading with this anchor in ${targetPage}`);
      }
    }
  }
  return problems;
}

/** Text a user of the package cannot follow: the team's folders and contract, issue numbers. */
const OUTSIDE = [
  { pattern: /\.\.\/shared|\/work\//, what: 'a path outside the repository' },
  { pattern: /CONTRACT/, what: 'the team contract (say what it means instead)' },
  { pattern: /\bissues? #?\d+|(?<![&\w])#\d+\b/i, what: 'an issue number' },
];

/** Prose names the platform's API documents "Document N" (the short "Doc N" is what messages print). */
const SHORT_NAME = /\bDoc\s?[123]\b/;

describe('README.md and docs/*.md', () => {
  it.each(PAGES)('%s: every relative link and anchor resolves', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it.each(PAGES)('%s: refers to nothing outside the repository', (page) => {
    const problems: string[] = [];
    for (const item of items(page)) {
      const text = item.type === 'fence' ? item.body : item.text;
      for (const { pattern, what } of OUTSIDE) if (pattern.test(text)) problems.push(`${page}:${item.line}: ${what}`);
      if (item.type !== 'fence' && SHORT_NAME.test(text.replace(/`[^`]*`/g, ''))) {
        problems.push(`${page}:${item.line}: write "Document N" in prose ("Doc N" only inside quoted output)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(PAGES)('%s: explains the API documents it cites', (page) => {
    const cites = items(page).some((i) => (i.type === 'fence' ? i.body : i.text).match(/\bDoc(ument)?\s?[123]\b/));
    const explains =
      page === 'docs/design-decisions.md' ||
      links(items(page)).some((l) => l.target.endsWith('#the-platforms-api-documents'));
    expect(
      !cites || explains,
      'cites "Document N" without a link to design-decisions.md#the-platforms-api-documents',
    ).toBe(true);
  });

  it('computes anchors as GitHub does', () => {
    expect(githubSlug('Saved plans (`--plan FILE`)')).toBe('saved-plans---plan-file');
    expect(githubSlug("The platform's API documents")).toBe('the-platforms-api-documents');
    expect(githubSlug('GitOps: plan on pull requests, apply on merge')).toBe(
      'gitops-plan-on-pull-requests-apply-on-merge',
    );
    expect(githubSlug('Number → address links, §4.4 × 2')).toBe('number--address-links-44--2');
    const repeated = parseMarkdown('# A\n## Options\n## Options\n```\n# not a heading\n```\n');
    const slugs = repeated.flatMap((i) => (i.type === 'heading' ? [i.slug] : []));
    expect(slugs).toEqual(['a', 'options', 'options-1']);
  });
});

/** The repository's own files, beyond the pages: code comments and test names are read by users too. */
const TREES = ['src', 'test', 'scripts', 'schemas', 'examples', '.github', '.ci'];
// Fixtures are data.
const SKIPPED = new Set(['test/fixtures', 'test/docs/links.test.ts']);

function filesUnder(dir: string): string[] {
  if (SKIPPED.has(dir) || !existsSync(resolve(ROOT, dir))) return [];
  return readdirSync(resolve(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(path) : SKIPPED.has(path) ? [] : [path];
  });
}

/** In code an issue number is spelt "issue #N" (`#123` alone is a colour, an anchor, a private field). */
const IN_FILES = [
  // A GitHub runner's checkout (/home/runner/work/…) is a user's path, not ours.
  { pattern: /\.\.\/shared|(?<!\w)\/work\//, what: 'a path outside the repository' },
  OUTSIDE[1]!,
  // The drift workflow's own GitHub issue is what it prints, not a reference to ours.
  { pattern: /\b(?<!drift )issues? #\d+/i, what: 'an issue number' },
];

describe('the repository beyond its pages', () => {
  it('no source, test, script, schema, example or workflow refers to what a user of the package does not have', () => {
    const problems: string[] = [];
    for (const file of TREES.flatMap(filesUnder)) {
      const lines = readFileSync(resolve(ROOT, file), 'utf8').split('\n');
      lines.forEach((text, i) => {
        for (const { pattern, what } of IN_FILES) if (pattern.test(text)) problems.push(`${file}:${i + 1}: ${what}`);
      });
    }
    expect(problems).toEqual([]);
  });
});
