import { existsSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The top of the git working tree holding `dir` (the nearest folder, `dir` included, with a
 * `.git` folder or file), or undefined outside any. A file walk, not `git rev-parse`: it
 * needs no git on PATH and costs a few `stat`s.
 */
export function findRepositoryRoot(dir: string): string | undefined {
  for (let current = path.resolve(dir); ;) {
    if (existsSync(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}
