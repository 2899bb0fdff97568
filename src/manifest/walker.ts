import * as path from 'node:path';
import type { DocumentForm, KindDefinition } from '../kinds/types.js';
import { csvDisplayName, emit } from './build-context.js';
import type { CsvJob, DocContext, DocumentBuilder, Json, ParentDecl } from './build-context.js';
import { addCsvItems } from './csv-items.js';
import {
  addressOf,
  fieldsOf,
  identityOf,
  kindPlans,
  PINNED_ID_KEY,
  previousAddressesOf,
  RENAMED_FROM_KEY,
  type ChildPlan,
  type KindPlan,
} from './kind-plans.js';
import type { DesiredObject, JsonValue } from './types.js';

/**
 * The one builder of the platform's desired objects. A document's spec, and recursively
 * every item in it, is walked key by key: a key that is a child kind's `collection` holds
 * that kind's items (a list, or a map keyed by identity), a key that is a child kind's
 * `csv.key` names a CSV file of its items, any other key is a field or nothing. Each item
 * becomes one object at `kind.address(parent, kind.identity(fields))`, the address the live
 * side builds for the same object. Everything kind-specific comes from the kind table.
 */

/** The document kinds of the kind table (`manifest.document`), each with its builder. */
export function platformDocuments(): [string, DocumentBuilder][] {
  const out: [string, DocumentBuilder][] = [];
  for (const plan of kindPlans().values()) {
    const document = plan.form.document;
    if (document) out.push([plan.kind.kind, documentBuilder(plan, document)]);
  }
  return out;
}

/** A document's object (fields from `spec`; from `metadata` for its name) and everything nested in its spec. */
function documentBuilder(plan: KindPlan, document: DocumentForm): DocumentBuilder {
  return {
    address: (metadata) => plan.kind.address(undefined, plan.kind.identity(fieldsOf(plan, {}, undefined, metadata))),
    build: (ctx, metadata, spec) => {
      const fields = fieldsOf(plan, spec, undefined, metadata);
      const place = {
        at: [],
        keysAt: ['spec'],
        metadataFields: document.metadataFields,
        formerNames: metadata[RENAMED_FROM_KEY],
      };
      const object = emitItem(ctx, plan, spec, fields, place);
      const pinned = metadata[PINNED_ID_KEY];
      if (document.pinnable && typeof pinned === 'string') object.pinnedId = pinned;
      const parent = parentDecl(plan.kind, metadata);
      if (parent) ctx.out.parents.set(object, parent);
    },
  };
}

/** The parent a document names in its metadata: the first of its parent kinds present. */
function parentDecl(kind: KindDefinition, metadata: Json): ParentDecl | undefined {
  for (const parentKind of kind.parentKinds) {
    const key = parentKind.toLowerCase();
    const ref = metadata[key];
    if (ref === undefined) continue;
    const path = ['metadata', key];
    if (typeof ref === 'string') return { kind: parentKind, name: ref, path };
    return { kind: parentKind, uuid: String((ref as Json)['uuid']), path };
  }
  return undefined;
}

/** Where an item is in its document. */
interface ItemPlace {
  /** The path of the object's node. */
  at: (string | number)[];
  /** The path of the node holding its fields and collections (a document's `spec`). */
  keysAt: (string | number)[];
  parentAddress?: string;
  /** Documents only: the fields under `metadata`. */
  metadataFields?: readonly string[];
  /** Documents only: `metadata.renamedFrom` (an item's own key otherwise). */
  formerNames?: JsonValue | undefined;
}

/** Emits one item's object, then the objects of the collections it declares. */
function emitItem(ctx: DocContext, plan: KindPlan, item: Json, fields: Json, place: ItemPlace): DesiredObject {
  const nested = plan.children && declaredChildren(plan.children, item);
  // One literal of a fixed shape: spreading a helper's result here doubled the build time (20,000 tenants).
  const object = emit(ctx, {
    kind: plan.kind.kind,
    address: addressOf(plan, fields, place.parentAddress),
    parentAddress: place.parentAddress,
    identity: identityOf(plan, fields),
    fields,
    path: place.at,
    collections: nested?.collections,
    metadataFields: place.metadataFields,
  });
  if (plan.renamableField !== undefined) {
    const formerNames = place.metadataFields ? place.formerNames : item[RENAMED_FROM_KEY];
    const previous = previousAddressesOf(plan, fields, place.parentAddress, formerNames);
    if (previous) object.previousAddresses = previous;
  }
  if (nested) for (const [key, child] of nested.entries) emitChildren(ctx, child, key, item[key], object, place.keysAt);
  return object;
}

/** `at` is kept by the object's origin: built with concat, it has no spare capacity (a spread array has about 130 bytes). */
function nestedItem(at: (string | number)[], parentAddress: string): ItemPlace {
  return { at, keysAt: at, parentAddress };
}

/** The child keys an item declares, in its own order, and the collections they declare. */
function declaredChildren(
  children: ReadonlyMap<string, ChildPlan>,
  item: Json,
): { entries: [string, ChildPlan][]; collections: string[] } {
  const entries: [string, ChildPlan][] = [];
  const collections: string[] = [];
  for (const key in item) {
    const child = children.get(key);
    if (!child || item[key] === undefined) continue;
    entries.push([key, child]);
    const collection = child.plan.kind.collection as string;
    if (!collections.includes(collection)) collections.push(collection);
  }
  return { entries, collections };
}

function emitChildren(
  ctx: DocContext,
  child: ChildPlan,
  key: string,
  value: JsonValue | undefined,
  owner: DesiredObject,
  at: (string | number)[],
): void {
  const { plan } = child;
  if (child.csv) {
    if (typeof value === 'string') ctx.out.csvJobs.push(csvJob(ctx, plan, owner, value, [...at, key]));
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (isItem(item)) emitItem(ctx, plan, item, fieldsOf(plan, item), nestedItem(at.concat(key, i), owner.address));
    });
    return;
  }
  if (plan.keyField === undefined || !isItem(value)) return;
  for (const [name, item] of Object.entries(value)) {
    if (!isItem(item)) continue;
    emitItem(ctx, plan, item, fieldsOf(plan, item, name), nestedItem(at.concat(key, name), owner.address));
  }
}

function isItem(value: JsonValue | undefined): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A CSV file named by an item (relative to its manifest), read once every document is built. */
function csvJob(ctx: DocContext, plan: KindPlan, owner: DesiredObject, file: string, at: (string | number)[]): CsvJob {
  const job: CsvJob = {
    absolute: path.resolve(ctx.dir, file),
    display: csvDisplayName(ctx, file),
    owner,
    ctx,
    path: at,
    add: (text: string) => addCsvItems(job, plan, text),
  };
  return job;
}
