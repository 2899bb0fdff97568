import { realpath } from 'node:fs/promises';
import * as path from 'node:path';

/**
 * The real path of `absolute` (symbolic links resolved), or of its nearest existing folder
 * with the rest joined on: where a file that does not exist yet would land once written.
 */
export async function realExisting(absolute: string): Promise<string> {
  const rest: string[] = [];
  for (let current = absolute; ;) {
    try {
      return path.join(await realpath(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}
