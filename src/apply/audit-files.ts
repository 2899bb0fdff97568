/** The journal files `audit` reads (files as given, folders walked), and its address globs. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SwitchboardError } from '../core/errors.js';
import type { AuditProblem } from './audit.js';

/**
 * The journal files `paths` name: a file as given (whatever its name), a folder's `*.jsonl`
 * files at any depth. Symbolic links inside a folder are not followed (a committed history
 * folder is data from the repository; a link could point anywhere): each is reported.
 */
export async function journalFiles(paths: readonly string[], problems: AuditProblem[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      throw new SwitchboardError('SB_AUDIT', `cannot read the journal ${path}: ${(error as Error).message}`);
    }
    if (info.isFile()) files.push(path);
    else if (info.isDirectory()) {
      const found = await walk(path, problems);
      if (found.length === 0)
        throw new SwitchboardError('SB_AUDIT', `no journal (*.jsonl) in the folder ${path} or below it`);
      files.push(...found);
    } else throw new SwitchboardError('SB_AUDIT', `${path} is neither a journal file nor a folder of journals`);
  }
  return [...new Set(files)];
}

async function walk(dir: string, problems: AuditProblem[]): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new SwitchboardError('SB_AUDIT', `cannot read the folder ${dir}: ${(error as Error).message}`);
  }
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) problems.push({ file: path, line: 0, reason: 'a symbolic link: not followed' });
    else if (entry.isDirectory()) found.push(...(await walk(path, problems)));
    else if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push(path);
  }
  return found;
}

/** `*` any run of characters (slashes too: `tenant/acme*` takes its subtree), `?` one. */
export function globPattern(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 's');
}
