import { randomBytes } from 'node:crypto';
import { DiagnosticsError, SwitchboardError } from '../core/errors.js';
import { loadManifests, type DesiredObject, type DesiredSet } from '../manifest/index.js';

/** One side of a comparison, loaded. */
export interface LoadedTree {
  paths: string[];
  set: DesiredSet;
  files: string[];
  digest: string;
}

/**
 * `${NAME}` stays `${NAME}`: compare reads no environment and needs no credential, so a
 * reference is compared by the variable it names (two trees reading the same variable at
 * the same place are the same there). The loader marks such a field sensitive, so its text
 * is shown masked like any value from the environment.
 */
const REFERENCE_MARK = `\u0000${randomBytes(12).toString('hex')}\u0000`;

const UNRESOLVED_ENVIRONMENT: Record<string, string | undefined> = new Proxy(
  {},
  // Marked off by a nonce drawn for this run: the literal text `${NAME}` (written `$${NAME}`),
  // or any text a manifest can spell (a double-quoted YAML string can hold NULs), is another
  // value, neither equal to the reference nor masked as one. Both trees share the run's nonce.
  { get: (_target, name) => (typeof name === 'string' ? `${REFERENCE_MARK}\${${name}}${REFERENCE_MARK}` : undefined) },
);

/**
 * Loads one side with the manifest loader, as `validate` does (every mistake reported at
 * once, file:line:col; nothing sent anywhere). A tree with errors cannot be compared.
 */
export async function loadTree(paths: string[], side: string, cwd = process.cwd()): Promise<LoadedTree> {
  if (paths.length === 0) throw new SwitchboardError('SB_USAGE', `compare: ${side} names no manifest file or folder`);
  const loaded = await loadManifests(paths, { env: UNRESOLVED_ENVIRONMENT, cwd });
  if (!loaded.ok) throw new DiagnosticsError(loaded.diagnostics.filter((d) => d.severity === 'error'));
  return { paths, set: loaded.set, files: loaded.files, digest: loaded.digest };
}

/** Every object of a tree, routing rows included (materialised one by one from their tables). */
export function* objectsOf(set: DesiredSet): Generator<DesiredObject> {
  yield* set.objects;
  for (const table of set.routingTables) for (let i = 0; i < table.rows.length; i++) yield set.row(table, i);
}
