import { resolve } from 'node:path';
import { DiagnosticsError } from '../core/errors.js';
import type { KindSettings } from '../kinds/types.js';
import { loadManifests } from '../manifest/index.js';
import { createReferenceData, type RefsClient } from '../state/refs.js';
import type { ListingClient } from '../state/types.js';
import type { ExportWarning } from './documents.js';
import { fileNames, prepareOutDir, writeDocuments } from './files.js';
import { orgDocuments, specPosOf } from './org-documents.js';
import { OrgWalker, type OrgEntry } from './org.js';
import { ExportReader } from './reader.js';
import { findScope, visibleRoots, type MayGet } from './scope.js';
import { readTree, type ExportNode } from './tree.js';

/** What export needs of the API client (ApiClient satisfies it). */
export type ExportClient = ListingClient &
  RefsClient & {
    paths: { P: string };
    permissions: { check(method: string, path: string): { allowed: boolean } };
  };

export interface ExportOptions {
  /** `group/<name>`, `reseller/<name>`, `tenant/<name>`; empty = everything visible. */
  scopes: readonly string[];
  outDir: string;
  force: boolean;
  /** Connection settings the kinds need (the branding read path). */
  settings?: KindSettings;
}

export interface ExportResult {
  /** Files written, absolute. */
  files: string[];
  /** Documents written by kind (`Tenant: 3`). */
  counts: Record<string, number>;
  warnings: ExportWarning[];
}

/**
 * `switchboard export`: reads the organisation objects in scope and everything below them
 * through the kind table, writes one manifest per group, reseller and tenant, and checks
 * the result with the manifest loader (what `plan` will read). The folder must be empty
 * (or `force`).
 */
export async function exportManifests(client: ExportClient, options: ExportOptions): Promise<ExportResult> {
  const outDir = resolve(options.outDir);
  await prepareOutDir(outDir, options.force); // refuse early, before any request
  const ctx = {
    P: client.paths.P,
    refs: createReferenceData(client, client.paths.P),
    ...(options.settings ? { settings: options.settings } : {}),
  };
  const reader = new ExportReader(client, ctx);
  const mayGet: MayGet = (path) => client.permissions.check('GET', path).allowed;
  const roots =
    options.scopes.length > 0
      ? await Promise.all(options.scopes.map((s) => findScope(reader, mayGet, s)))
      : await visibleRoots(reader, mayGet);
  const walker = new OrgWalker(reader);
  await walker.walk(roots);
  const entries = [...walker.entries.values()];
  const trees = new Map<OrgEntry, ExportNode>();
  await Promise.all(
    entries.map(async (e) => trees.set(e, await readTree(reader, e.kind, e.live, specPosOf(e.kind.kind)))),
  );
  const warnings: ExportWarning[] = [];
  const documents = orgDocuments(entries, trees, warnings);
  const names = fileNames(outDir, documents);
  await prepareOutDir(outDir, options.force, { keep: new Set(names.values()) });
  const files = await writeDocuments(names);
  const loaded = await loadManifests([outDir], { env: {} });
  if (!loaded.ok) throw new DiagnosticsError(loaded.diagnostics);
  const counts: Record<string, number> = {};
  for (const doc of documents) counts[doc.kind] = (counts[doc.kind] ?? 0) + 1;
  return { files, counts, warnings };
}
