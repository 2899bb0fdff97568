/**
 * The manifests' root: the folder inside which every file a manifest names (a CSV of
 * `addressesFrom` or `recordsFrom`) must be, after resolving symbolic links. It is the top
 * of the git working tree holding the path given on the command line (the repository's
 * files, wherever in it the manifests are), or, outside any working tree, the folder given
 * (a file's own folder). Its `.git` folder is not part of it. A path outside is refused
 * before anything is read from it: a pull request naming `/proc/self/environ` or
 * `../../.ssh/id_rsa` gets an error that names the setting, never a line of that file.
 */
import { lstatSync, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { findRepositoryRoot } from '../core/repository-root.js';
import { realExisting } from '../core/real-existing.js';
import { relativeLeadsInside } from '../core/path-inside.js';

/**
 * The root of the manifests found under `given` (an absolute path), as a real path.
 * `roots`: the roots already found by folder, for a load given many files (export checks its
 * 50,000 files): the walk up to the repository's top is made once per folder, not per file,
 * and a file that is not a symbolic link costs one `lstat` (its real path is its folder's).
 */
export async function manifestsRoot(given: string, roots?: Map<string, string>): Promise<string> {
  if (roots) {
    // Synchronous: one system call of microseconds, where the promise's trip through the thread pool cost more.
    const info = lstatOrNothing(given);
    if (info?.isFile()) {
      const folder = path.dirname(given);
      const known = roots.get(`given:${folder}`);
      if (known !== undefined) return known;
      const root = await manifestsRoot(folder, roots);
      roots.set(`given:${folder}`, root);
      return root;
    }
  }
  const real = await realpath(given).catch(() => given);
  const dir = (await stat(real).catch(() => undefined))?.isDirectory() ? real : path.dirname(real);
  let root = roots?.get(dir);
  if (root === undefined) {
    root = findRepositoryRoot(dir) ?? dir;
    roots?.set(dir, root);
  }
  return root;
}

function lstatOrNothing(file: string): Stats | undefined {
  try {
    return lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined; // a path through a file, or one we may not look at: rooted the long way
  }
}

/** Why `absolute` may not be read as a file of the manifests under `root`; undefined when it may. */
export async function outsideRoot(absolute: string, root: string): Promise<string | undefined> {
  const realRoot = await realpath(root).catch(() => root);
  const real = await realExisting(absolute);
  const where = real === absolute || !(await isLink(absolute)) ? '' : ` (${real}, through a symbolic link)`;
  // Compared as real paths: the root and the file may be named through links (a checkout reached by a link).
  const relative = path.relative(realRoot, real);
  if (relative === '' || !relativeLeadsInside(relative)) return `it is outside the manifests' root ${realRoot}${where}`;
  if (relative.split(path.sep)[0] === '.git') return `it is inside the repository's .git folder${where}`;
  return undefined;
}

/** Whether the path itself, or a folder on it, is a symbolic link (for the message only). */
async function isLink(absolute: string): Promise<boolean> {
  const parent = await realExisting(path.dirname(absolute));
  return path.join(parent, path.basename(absolute)) !== (await realExisting(absolute));
}
