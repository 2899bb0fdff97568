import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { kinds } from '../../src/kinds/index.js';
import type { KindDefinition } from '../../src/kinds/types.js';
import { fieldsOf, kindPlans } from '../../src/manifest/kind-plans.js';

/**
 * Manifests as data for the kind contract: the documents of a folder (an export), the
 * objects they declare found through the kind table's collections, and a kind's sample put
 * where it belongs, under an existing parent or a parent made from its own sample.
 */

export type Json = Record<string, unknown>;

/** One manifest file: its path in the folder and its documents. */
export interface ManifestFile {
  file: string;
  docs: Json[];
}

/** An object a document declares: its kind, the item (a document's spec), where it sits. */
export interface Declared {
  kind: KindDefinition;
  item: Json;
  doc: Json;
  /** A map item's key (a number, a branding type). */
  key?: string;
  /** The list or map holding it; absent for a document's object. */
  holder?: Json[] | Json;
  /** The item (or spec) of its parent, when known. */
  parent?: Json;
}

export async function readManifests(dir: string): Promise<ManifestFile[]> {
  const out: ManifestFile[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const entry of (await readdir(at, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.yaml'))
        out.push({
          file: relative(dir, path),
          docs: parseAllDocuments(await readFile(path, 'utf8')).map((d) => d.toJS() as Json),
        });
    }
  };
  await walk(dir);
  return out;
}

export async function writeManifests(dir: string, files: readonly ManifestFile[]): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  for (const { file, docs } of files) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), docs.map((doc) => stringify(doc)).join('---\n'));
  }
}

/** Every object the documents declare, parents before children. */
export function declared(files: readonly ManifestFile[]): Declared[] {
  const out: Declared[] = [];
  for (const doc of files.flatMap((f) => f.docs)) {
    const kind = kinds.find((k) => k.kind === doc['kind'] && k.manifest.document);
    if (!kind) continue;
    doc['spec'] ??= {};
    out.push({ kind, item: doc['spec'] as Json, doc });
    children(kind, doc['spec'] as Json, doc, out);
  }
  return out;
}

function children(kind: KindDefinition, node: Json, doc: Json, out: Declared[]): void {
  for (const child of kinds.filter((k) => k.parentKinds.includes(kind.kind) && k.collection !== undefined)) {
    const holder = node[child.collection as string];
    if (Array.isArray(holder)) {
      for (const item of holder as Json[]) {
        out.push({ kind: child, item, doc, holder, parent: node });
        children(child, item, doc, out);
      }
    } else if (holder && typeof holder === 'object') {
      for (const [key, item] of Object.entries(holder as Json)) {
        out.push({ kind: child, item: item as Json, doc, key, holder: holder as Json, parent: node });
        children(child, item as Json, doc, out);
      }
    }
  }
}

/** The identity of a declared object, as its kind forms it. */
export function identityOf(object: Pick<Declared, 'kind' | 'item' | 'key' | 'doc'>): string {
  const plan = kindPlans().get(object.kind.kind);
  if (!plan) throw new Error(`no walker plan for ${object.kind.kind}`);
  const metadata = object.kind.manifest.document ? (object.doc['metadata'] as Json) : undefined;
  return object.kind.identity(fieldsOf(plan, object.item as never, object.key, metadata as never));
}

/** A kind's sample as a manifest item: a map item without its key. */
export function sampleItem(
  kind: KindDefinition,
  values: Json = kind.contract.sample as Json,
): { item: Json; key?: string } {
  if (kind.manifest.shape !== 'map') return { item: structuredClone(values) };
  const keyField = kind.manifest.identity[0] as string;
  const { [keyField]: key, ...rest } = structuredClone(values);
  return { item: rest, key: String(key) };
}

/** Adds `item` to the collection of its kind in `parent` (a list, or a map by `key`). */
export function addTo(parent: Json, kind: KindDefinition, item: Json, key?: string): Declared['holder'] {
  const collection = kind.collection as string;
  if (kind.manifest.shape === 'map') {
    const holder = (parent[collection] ??= {}) as Json;
    holder[key as string] = item;
    return holder;
  }
  const holder = (parent[collection] ??= []) as Json[];
  holder.push(item);
  return holder;
}

/** Takes a declared object out of its collection. */
export function remove(object: Declared): void {
  if (Array.isArray(object.holder)) object.holder.splice(object.holder.indexOf(object.item), 1);
  else if (object.holder && object.key !== undefined) delete object.holder[object.key];
}
