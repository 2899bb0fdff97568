import { SCHEMA_FILES, type ManifestKind } from '../manifest/index.js';
import { compare, manifestString, specMap, type ExportWarning } from './documents.js';
import { documentKinds, type OrgEntry } from './org.js';
import { property, schemaAt, type SchemaPos } from './schema-shape.js';
import type { ExportNode } from './tree.js';
import { YamlMap } from './yaml-writer.js';

/** One manifest document to write, before its spec is read: `<folder>/<file name>.yaml`. */
export interface PlannedDocument {
  entry: OrgEntry;
  kind: string;
  name: string;
  /** `groups`, `resellers`, `tenants`. */
  folder: string;
  /** The schema file for the `$schema` line. */
  schemaFile: string;
  metadata: YamlMap;
}

const API_VERSION = 'switchboard/v1';

/** The schema file of a document kind. */
function schemaFileOf(kind: string): string {
  const file = SCHEMA_FILES[kind as ManifestKind];
  if (!file) throw new Error(`no manifest schema for ${kind}`);
  return file;
}

/** Where a document kind's spec lives in its schema. */
export function specPosOf(kind: string): SchemaPos {
  return schemaAt(`${schemaFileOf(kind)}#/properties/spec`);
}

/**
 * The documents of the exported organisation objects, sorted by kind (parents first) and
 * name, with their metadata: what can be decided before any spec is read, so that each
 * document is written as soon as its own objects are. A parent is named when it is
 * exported in the same run under a name no other exported object of its kind shares, else
 * given as `{uuid}` (distributors always are: they cannot be listed). Objects sharing a
 * name with one exported before them are left out with a warning: a manifest set names
 * each object once.
 */
export function planDocuments(entries: readonly OrgEntry[], warnings: ExportWarning[]): PlannedDocument[] {
  const order = (e: OrgEntry) => documentKinds.indexOf(e.kind);
  const sorted = [...entries].sort(
    (a, b) => order(a) - order(b) || compare(nameOf(a), nameOf(b)) || compare(a.live.id, b.live.id),
  );
  const named = new Map<string, OrgEntry>();
  const written: OrgEntry[] = [];
  for (const entry of sorted) {
    const key = `${entry.kind.kind}/${nameOf(entry)}`;
    const first = named.get(key);
    if (first) {
      warnings.push({
        address: entry.live.address,
        message: `${entry.kind.kind.toLowerCase()} ${entry.live.id} has the same name as ${first.live.id}; only the first is exported (rename one to manage both)`,
      });
      continue;
    }
    named.set(key, entry);
    written.push(entry);
  }
  const byId = new Map(written.map((e) => [`${e.kind.kind}:${e.live.id}`, e]));
  const documents: PlannedDocument[] = [];
  for (const entry of written) {
    const metadata = metadataOf(entry, byId, warnings);
    if (!metadata) continue;
    documents.push({
      entry,
      kind: entry.kind.kind,
      name: nameOf(entry),
      folder: `${entry.kind.kind.toLowerCase()}s`,
      schemaFile: schemaFileOf(entry.kind.kind),
      metadata,
    });
  }
  return documents;
}

/** The whole document of a planned one, once its objects are read. */
export function documentRoot(doc: PlannedDocument, tree: ExportNode, warnings: ExportWarning[]): YamlMap {
  const root = new YamlMap('block').set('apiVersion', API_VERSION).set('kind', doc.kind).set('metadata', doc.metadata);
  const spec = specMap(tree, warnings, 'block');
  if (spec.size > 0) root.set('spec', spec);
  return root;
}

function nameOf(entry: OrgEntry): string {
  return entry.kind.identity(entry.live.fields);
}

function metadataOf(
  entry: OrgEntry,
  exported: ReadonlyMap<string, OrgEntry>,
  warnings: ExportWarning[],
): YamlMap | undefined {
  const metadata = new YamlMap().set('name', manifestString(nameOf(entry)));
  const owner = entry.owner;
  if (!owner) return metadata;
  const key = owner.kind.toLowerCase();
  const metadataPos = schemaAt(`${schemaFileOf(entry.kind.kind)}#/properties/metadata`);
  if (!property(metadataPos, key)) {
    warnings.push({
      address: entry.live.address,
      message: `its owner is a ${key} (${owner.id}), which a ${entry.kind.kind} manifest cannot name: not exported`,
    });
    return undefined;
  }
  const parent = exported.get(`${owner.kind}:${owner.id}`);
  metadata.set(key, parent ? manifestString(nameOf(parent)) : new YamlMap().set('uuid', manifestString(owner.id)));
  return metadata;
}
