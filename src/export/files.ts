import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { SwitchboardError } from '../core/errors.js';
import { schemaModeline, schemasDirFor } from '../manifest/schema-location.js';
import type { ExportDocument } from './org-documents.js';
import { renderDocument } from './yaml-writer.js';

/** The second header line of every exported file; `--force` only ever removes files carrying it. */
export const EXPORT_MARKER =
  'Exported by `switchboard export`: `switchboard plan` on these files reports "No changes." until live state moves.';

/**
 * Refuses a non-empty output folder unless `force`: an export never mixes with files it
 * did not write by accident. With `clean` (once the new documents are known), the files a
 * previous export wrote that this one does not write again are removed, so a re-export into a git checkout diffs cleanly: a tenant deleted
 * on the platform shows as a deleted file. Files without the export marker are kept.
 */
export async function prepareOutDir(
  outDir: string,
  force: boolean,
  clean?: { keep: ReadonlySet<string> },
): Promise<void> {
  const entries = await readdir(outDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw new SwitchboardError('SB_EXPORT_OUT', `cannot read ${outDir}: ${error.message}`);
  });
  if (entries.length === 0) return;
  if (!force) {
    throw new SwitchboardError(
      'SB_EXPORT_NOT_EMPTY',
      `${outDir} is not empty: export writes into an empty or new folder; add --force to overwrite the files a previous export wrote there`,
    );
  }
  if (!clean) return;
  for (const folder of ['groups', 'resellers', 'tenants']) {
    const dir = path.join(outDir, folder);
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files) {
      const full = path.join(dir, file);
      if (!file.endsWith('.yaml') || clean.keep.has(full)) continue;
      const head = (await readFile(full, 'utf8').catch(() => '')).slice(0, 1000);
      if (head.includes(EXPORT_MARKER)) await rm(full);
    }
  }
}

/** File names for the documents: `<folder>/<name>.yaml`, made safe and unique per folder. */
export function fileNames(outDir: string, documents: readonly ExportDocument[]): Map<ExportDocument, string> {
  const out = new Map<ExportDocument, string>();
  const taken = new Set<string>();
  for (const doc of documents) {
    let base = safeName(doc.name);
    // Case-insensitive file systems would merge "Acme" and "acme".
    if (taken.has(`${doc.folder}/${base}`.toLowerCase()))
      base = `${base}-${createHash('sha256').update(doc.name).digest('hex').slice(0, 8)}`;
    taken.add(`${doc.folder}/${base}`.toLowerCase());
    out.set(doc, path.join(outDir, doc.folder, `${base}.yaml`));
  }
  return out;
}

function safeName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  return safe === '' ? `object-${createHash('sha256').update(name).digest('hex').slice(0, 8)}` : safe;
}

/** Writes the documents; returns the paths written. */
export async function writeDocuments(files: ReadonlyMap<ExportDocument, string>): Promise<string[]> {
  const written: string[] = [];
  const schemasByDir = new Map<string, string>();
  for (const [doc, file] of files) {
    await mkdir(path.dirname(file), { recursive: true });
    const key = `${path.dirname(file)}\0${doc.schemaFile}`;
    const schemas = schemasByDir.get(key) ?? schemasDirFor(path.dirname(file), doc.schemaFile);
    schemasByDir.set(key, schemas);
    const header = [schemaModeline(file, schemas, doc.schemaFile), EXPORT_MARKER];
    await writeFile(file, renderDocument(doc.root, header));
    written.push(file);
  }
  return written;
}
