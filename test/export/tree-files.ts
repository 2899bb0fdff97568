import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Every file under a folder (hidden ones included), by path relative to it, with its bytes as text. */
export async function treeFiles(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, string>();
  for (const entry of entries.filter((e) => e.isFile()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(entry.parentPath, entry.name);
    files.set(relative(dir, full), await readFile(full, 'utf8'));
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The paths whose bytes differ between two trees (or exist in one only), for a readable failure. */
export function differingFiles(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): string[] {
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  return paths.filter((p) => a.get(p) !== b.get(p));
}
