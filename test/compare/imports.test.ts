/**
 * The layer rows of docs/architecture.md for src/compare and src/notify: what each may
 * import. compare is a pure comparison of two loaded trees (no network, no run layer);
 * notify knows nothing of the commands or the run layer that call it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** `src/<folder>/` of every relative import of the files under `folder`. */
function importedFolders(folder: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  for (const file of walk(join(ROOT, 'src', folder))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const target = relative(join(ROOT, 'src'), resolve(dirname(file), match[1] as string)).split(/[\\/]/)[0] ?? '';
      const list = found.get(target) ?? [];
      list.push(relative(ROOT, file));
      found.set(target, list);
    }
  }
  return found;
}

describe('layers of compare/ and notify/', () => {
  it.each([
    ['compare', ['compare', 'core', 'kinds', 'manifest', 'plan', 'apply']],
    ['notify', ['notify', 'core', 'config', 'plan', 'apply']],
  ])('src/%s imports only %j', (folder, allowed) => {
    const folders = importedFolders(folder as string);
    expect(folders.size).toBeGreaterThan(1);
    const outside = [...folders].filter(([target]) => !(allowed as string[]).includes(target));
    expect(outside.map(([target, files]) => `${target}: ${files.join(', ')}`)).toEqual([]);
  });
});
