import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { DiagnosticsError } from '../core/errors.js';
import type { KindSettings } from '../kinds/types.js';
import { loadManifests } from '../manifest/index.js';
import { manifestsRoot } from '../manifest/manifest-root.js';
import { schemaModeline, schemasDirFor } from '../manifest/schema-location.js';
import { createReferenceData, type RefsClient } from '../state/refs.js';
import type { ListingClient } from '../state/types.js';
import { compare, type ExportWarning } from './documents.js';
import { fileWriter } from './file-writer.js';
import { checkOutDir, EXPORT_MARKER, fileNames, finishOutDir, prepareOutDir } from './files.js';
import { documentRoot, planDocuments, specPosOf, type PlannedDocument } from './org-documents.js';
import { OrgWalker } from './org.js';
import { ExportReader } from './reader.js';
import { findScope, visibleRoots, type MayGet } from './scope.js';
import { readTree } from './tree.js';
import { renderDocument } from './yaml-writer.js';

/** What export needs of the API client (ApiClient satisfies it). */
export type ExportClient = ListingClient &
  RefsClient & {
    paths: { P: string };
    permissions: { check(method: string, path: string): { allowed: boolean } };
    /** The caller's profile: `permissions` may be used once it has answered. */
    profile(): Promise<unknown>;
  };

export interface ExportOptions {
  /** `group/<name>`, `reseller/<name>`, `tenant/<name>`; empty = everything visible. */
  scopes: readonly string[];
  outDir: string;
  force: boolean;
  /** Connection settings the kinds need (the branding read path). */
  settings?: KindSettings;
  /**
   * Documents read at once (default 64): enough to keep every request slot of the client
   * busy (a tenant waits for its subscriptions before it lists what is under them), few
   * enough that memory holds a few documents, not the estate.
   */
  documentsInFlight?: number;
  /** Ctrl-C or SIGTERM: no document is started after it; the export rejects with its reason. */
  signal?: AbortSignal;
  /** Said at once, before the reads (stderr): the folder holds an export that did not finish. */
  onNote?: (note: string) => void;
  /** Each file written, with the number of files this export writes. */
  onFile?: (written: number, total: number) => void;
}

export interface ExportResult {
  /** Files written, absolute, sorted. */
  files: string[];
  /** Documents written by kind (`Tenant: 3`). */
  counts: Record<string, number>;
  /** Sorted by address and message: the same live state gives the same warnings in the same order. */
  warnings: ExportWarning[];
}

const DEFAULT_DOCUMENTS_IN_FLIGHT = 64;

/**
 * `switchboard export`: finds the organisation objects in scope, then reads each one's
 * document (everything below it, through the kind table) and writes it as soon as it is
 * read, a bounded number at a time: files appear while the export runs, and memory holds
 * the documents in flight, not the estate. Each file is written whole or not at all (a
 * temporary file renamed), and the folder is marked unfinished until the last file is
 * written and the files written pass the manifest loader (what `plan` will read), so an
 * interrupted export run again gives the same files. The folder must be empty (or
 * `force`, or an unfinished export's).
 */
export async function exportManifests(client: ExportClient, options: ExportOptions): Promise<ExportResult> {
  const outDir = resolve(options.outDir);
  const outState = await checkOutDir(outDir, options.force); // refuse early, before the estate is read
  if (outState.unfinished)
    options.onNote?.(`${outDir} holds an export that did not finish: continuing it (files are rewritten)`);
  const ctx = {
    P: client.paths.P,
    refs: createReferenceData(client, client.paths.P),
    ...(options.settings ? { settings: options.settings } : {}),
  };
  const reader = new ExportReader(client, ctx);
  await client.profile();
  const mayGet: MayGet = (path) => client.permissions.check('GET', path).allowed;
  const roots =
    options.scopes.length > 0
      ? await Promise.all(options.scopes.map((s) => findScope(reader, mayGet, s)))
      : await visibleRoots(reader, mayGet);
  const walker = new OrgWalker(reader);
  await walker.walk(roots);
  const warnings: ExportWarning[] = [];
  const documents = planDocuments([...walker.entries.values()], warnings);
  const names = fileNames(outDir, documents);
  options.signal?.throwIfAborted();
  await prepareOutDir(outDir, new Set(names.values()));
  const { written, folders } = await writeDocuments(reader, names, options, warnings);
  const files = [...written.keys()].sort(compare);
  // Each folder's root once (manifest-root.ts), not found again from each of 50,000 files.
  const folderRoots = new Map<string, string>();
  for (const folder of folders) folderRoots.set(folder, await manifestsRoot(folder));
  // The files as written, checked from memory: reading 50,000 files back one by one was
  // most of the check's time, and the bytes are the same. Each text is let go once the
  // loader has it (it keeps its own copy for positions); asked again, the disk answers.
  const source = {
    has: (file: string) => written.has(file),
    read: async (file: string) => {
      const bytes = bufferOf(written, file);
      written.delete(file);
      return bytes;
    },
    rootOf: (file: string) => folderRoots.get(dirname(file)),
  };
  // Export writes groups, resellers and tenants, never a Baseline: each tenant is built as its file is read.
  const loaded = await loadManifests(files, { env: {}, source, noBaselines: true });
  if (!loaded.ok) throw new DiagnosticsError(loaded.diagnostics);
  await finishOutDir(outDir);
  const counts: Record<string, number> = {};
  for (const doc of documents) counts[doc.kind] = (counts[doc.kind] ?? 0) + 1;
  warnings.sort((a, b) => compare(a.address, b.address) || compare(a.message, b.message));
  return { files, counts, warnings };
}

function bufferOf(texts: ReadonlyMap<string, string>, file: string): Buffer | null {
  const text = texts.get(file);
  return text === undefined ? null : Buffer.from(text, 'utf8');
}

/**
 * Reads and writes the documents, `documentsInFlight` at a time, each as soon as its
 * objects are read; returns each file's text by its path. After a failure or a signal no
 * document is started; those in flight finish (a file is written whole or not at all),
 * then the first failure is thrown. Also returns the folders the files went into.
 */
async function writeDocuments(
  reader: ExportReader,
  names: ReadonlyMap<PlannedDocument, string>,
  options: ExportOptions,
  warnings: ExportWarning[],
): Promise<{ written: Map<string, string>; folders: string[] }> {
  const queue = [...names];
  const written = new Map<string, string>();
  const headers = new HeaderLines();
  const writer = fileWriter(queue.length);
  const writes: Promise<void>[] = [];
  // Each folder once, and whether this export made it: a folder it made held nothing, so
  // no link can be planted where its files go (one lstat less per file). One that was there
  // was checked to be inside the output folder before the estate was read (checkOutDir).
  const folders = new Map<string, Promise<boolean>>();
  let next = 0;
  let failure: { error: unknown } | undefined;
  const stopped = () => failure !== undefined || options.signal?.aborted === true;
  const worker = async (): Promise<void> => {
    while (next < queue.length && !stopped()) {
      const [doc, file] = queue[next++] as [PlannedDocument, string];
      try {
        const tree = await readTree(reader, doc.entry.kind, doc.entry.live, specPosOf(doc.kind));
        const text = renderDocument(documentRoot(doc, tree, warnings), headers.of(file, doc.schemaFile));
        const folder = dirname(file);
        let made = folders.get(folder);
        if (!made) {
          made = mkdir(folder, { recursive: true }).then((first) => first !== undefined);
          folders.set(folder, made);
        }
        // Written beside the reads (file-writer.ts): this document's slot goes on to the next one.
        const writing = writer.write(file, text, await made).then(
          () => {
            written.set(file, text);
            options.onFile?.(written.size, queue.length);
          },
          (error: unknown) => {
            failure ??= { error };
          },
        );
        writes.push(writing);
        await writer.ready();
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const workers = Math.max(1, Math.min(options.documentsInFlight ?? DEFAULT_DOCUMENTS_IN_FLIGHT, queue.length));
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    // The last files are sent at once, and written before the export goes on (or fails).
    await writer.close();
  }
  await Promise.all(writes);
  // A signal cancels the reads in flight: their failures are the signal's, not the export's.
  options.signal?.throwIfAborted();
  if (failure) throw failure.error;
  return { written, folders: [...folders.keys()] };
}

/** The header comment lines of a file: its schema modeline and the marker, made once per folder and schema. */
class HeaderLines {
  private readonly byDir = new Map<string, string[]>();

  of(file: string, schemaFile: string): string[] {
    const dir = dirname(file);
    const key = `${dir}\0${schemaFile}`;
    let lines = this.byDir.get(key);
    if (!lines) {
      // The modeline is a path relative to the file's folder: the same for every file of it.
      // No checkout's schemas around: the schema's bare name (docs/export.md), never a path into
      // this installation, which would make the same export's bytes depend on where it ran.
      lines = [schemaModeline(file, schemasDirFor(dir, schemaFile, dir), schemaFile), EXPORT_MARKER];
      this.byDir.set(key, lines);
    }
    return lines;
  }
}
