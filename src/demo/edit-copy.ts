/**
 * The demo's "edit a manifest" step: copies the manifest folder to a temporary place and
 * changes one numeric field of one document there, keeping the file's comments and layout
 * (the yaml package's Document API), so the user's examples/ are never touched.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { yamlPackage } from '../core/yaml-package.js';
import { SwitchboardError } from '../core/errors.js';

/** Which value the demo changes: `spec.<field>` of the `kind`/`name` document in `file`. */
export interface DemoEdit {
  /** Relative to the manifest folder. */
  file: string;
  kind: string;
  name: string;
  field: string;
}

export interface EditedCopy {
  dir: string;
  before: number;
  after: number;
}

/** Copies `from` into `into` and adds 1 to the edit's field in the copy. */
export async function editedCopy(from: string, into: string, edit: DemoEdit): Promise<EditedCopy> {
  await cp(from, into, { recursive: true });
  const file = join(into, edit.file);
  const text = await readFile(file, 'utf8').catch((error: Error) => {
    throw new SwitchboardError('SB_DEMO', `cannot read ${edit.file} in the copy of the examples: ${error.message}`);
  });
  const { isMap, parseAllDocuments } = yamlPackage();
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) throw new SwitchboardError('SB_DEMO', `${edit.file} holds no YAML document`);
  const doc = docs.find((d) => d.get('kind') === edit.kind && d.getIn(['metadata', 'name']) === edit.name);
  const before = doc?.getIn(['spec', edit.field]);
  if (!doc || !isMap(doc.get('spec')) || typeof before !== 'number') {
    throw new SwitchboardError(
      'SB_DEMO',
      `${edit.file} has no ${edit.kind} ${edit.name} with a numeric spec.${edit.field} to change`,
    );
  }
  const after = before + 1;
  doc.setIn(['spec', edit.field], after);
  await writeFile(file, docs.map((d) => d.toString()).join(''));
  return { dir: into, before, after };
}
