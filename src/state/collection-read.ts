import { ApiError } from '../api/errors.js';
import { idChain } from '../kinds/id-chain.js';
import type { KindContext, KindDefinition, ListSpec, LiveObject, LiveParts } from '../kinds/types.js';
import { assertReadable } from './item-shape.js';
import { fetchListItems } from './list-items.js';
import { missingReadObjects } from './recorded.js';
import type { OwnerRef } from './search-scope.js';
import type { LastApplied, ListingClient, LiveState } from './types.js';

/**
 * One read of a collection (every list spec of a kind under one parent): its objects, the
 * owners its items named, the warnings the read gave, and the most requests one of its lists
 * took. A list read in more than one request could have shifted between two of them unseen.
 */
export interface ListRead {
  objects: LiveObject[];
  owners: [id: string, owner: OwnerRef][];
  warnings: NonNullable<LiveState['warnings']>;
  pages: number;
  /** The first list request of the collection, for messages. */
  spec: ListSpec | undefined;
  /** The parent it was listed under: a carried read belongs to that object only (same id). */
  parent: LiveObject | undefined;
}

/** A collection's key: its kind and the address of the parent it was listed under. */
export function listKey(kind: string, parent: LiveObject | undefined): string {
  return `${kind}@${parent?.address ?? ''}`;
}

/**
 * Reads one collection: every list spec of `kind` under `parent`, its items turned into live
 * objects (a misread item fails the read), the owners they name, and, for a kind whose read
 * a platform may lack (404, 405), the objects the last-applied record knows and a warning.
 */
export async function readCollection(
  client: ListingClient,
  ctx: KindContext,
  kind: KindDefinition,
  parent: LiveObject | undefined,
  recorded: LastApplied,
): Promise<ListRead> {
  const specs = kind.list?.(parent, ctx);
  const read: ListRead = { objects: [], owners: [], warnings: [], pages: 0, spec: undefined, parent };
  if (!specs) return read;
  const all = Array.isArray(specs) ? specs : [specs];
  read.spec = all[0];
  const missing: ListSpec[] = [];
  const items = (await Promise.all(all.map((s) => itemsOf(client, kind, s, missing, read)))).flat();
  const objects: LiveObject[] = missing.flatMap((spec) => missingReadObjects(recorded, kind, parent, spec));
  for (const { spec, item } of items) {
    // Most kinds convert synchronously: a promise per item only where fromApi needs one.
    const converted = kind.fromApi(item, ctx, parent);
    const parts = converted instanceof Promise ? await converted : converted;
    assertReadable(kind, item, parts, spec);
    const live = liveObject(kind, parts, parent);
    const owner = kind.ownerOf?.(item);
    if (owner) read.owners.push([live.id, owner]);
    objects.push(live);
  }
  read.objects = objects;
  return read;
}

/** One spec's items; a missing read (404, 405) of a `readMayBeMissing` kind is noted and lists nothing. */
async function itemsOf(
  client: ListingClient,
  kind: KindDefinition,
  spec: ListSpec,
  missing: ListSpec[],
  read: ListRead,
): Promise<{ spec: ListSpec; item: Record<string, unknown> }[]> {
  try {
    const items = await fetchListItems(client, spec, ({ pages }) => (read.pages = Math.max(read.pages, pages)));
    return items.map((item) => ({ spec, item }));
  } catch (error) {
    if (!kind.readMayBeMissing || !(error instanceof ApiError) || (error.status !== 404 && error.status !== 405))
      throw error;
    missing.push(spec);
    if (read.warnings.length === 0) {
      read.warnings.push({
        code: 'SB_READ_MISSING',
        message: `GET ${spec.path} answered ${error.status}: ${kind.kind.toLowerCase()} cannot be read. ${kind.readMayBeMissing.note}`,
      });
    }
    return [];
  }
}

/** An API item's parts as a live object under `parent`, at the address its identity gives. */
export function liveObject(kind: KindDefinition, parts: LiveParts, parent: LiveObject | undefined): LiveObject {
  const address = kind.address(parent?.address, kind.identity(parts.fields));
  const live: LiveObject = {
    kind: kind.kind,
    address,
    id: parts.id,
    ids: idChain(parent?.ids, kind.kind, parts.id),
    fields: parts.fields,
  };
  if (parent) live.parentAddress = parent.address;
  if (parts.facts) live.facts = parts.facts;
  return live;
}
