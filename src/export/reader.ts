import { ApiError } from '../api/errors.js';
import type { KindContext, KindDefinition, ListSpec, LiveObject } from '../kinds/types.js';
import type { ListingClient } from '../state/types.js';
import { assertReadable } from '../state/item-shape.js';
import { fetchListItems } from '../state/list-items.js';
import { idChain } from '../kinds/id-chain.js';

/** The parent an API item names itself (`owner`), when its kind says how to read it. */
export interface OwnerRef {
  kind: string;
  id: string;
  name?: string;
}

/** One listed object and the owner its API item names. */
export interface Listed {
  live: LiveObject;
  owner?: OwnerRef;
}

/**
 * Reads collections for export, generically through the kind table: `kind.list` names the
 * request(s), `kind.fromApi` turns items into manifest-named fields, and `kind.detail`
 * adds the one GET per object that a list view lacking exported fields needs. Every
 * collection is listed once: the organisation's lists through `list` (cached by kind,
 * parent and query, since the walk and a scope's search may ask twice), the collections
 * below a document through `listOnce`.
 */
export class ExportReader {
  private readonly listings = new Map<string, Promise<Listed[]>>();

  constructor(
    private readonly client: ListingClient,
    readonly ctx: KindContext,
  ) {}

  /** The objects of `kind` under `parent` (top level when undefined); `query` narrows the list (`search`). */
  list(kind: KindDefinition, parent: LiveObject | undefined, query?: Record<string, string>): Promise<Listed[]> {
    const key = `${kind.kind}@${parent?.address ?? ''}?${JSON.stringify(query ?? {})}`;
    let listing = this.listings.get(key);
    if (!listing) {
      listing = this.fetch(kind, parent, query);
      this.listings.set(key, listing);
    }
    return listing;
  }

  /**
   * The objects of `kind` under `parent`, not kept: the collections below a document are
   * read once each, and keeping 300,000 of them until the export ends would hold the whole
   * estate in memory while files are written one by one.
   */
  listOnce(kind: KindDefinition, parent: LiveObject): Promise<Listed[]> {
    return this.fetch(kind, parent);
  }

  /** Whether the kind can be listed under this parent at all. */
  listable(kind: KindDefinition, parent: LiveObject | undefined): boolean {
    return !kind.unreadable && !kind.assumedToExist && kind.list?.(parent, this.ctx) !== undefined;
  }

  /** The first list request of a kind under a parent (for permission checks). */
  listPath(kind: KindDefinition, parent: LiveObject | undefined): string | undefined {
    const spec = kind.list?.(parent, this.ctx);
    return (Array.isArray(spec) ? spec[0] : spec)?.path;
  }

  /** Completes an object whose list view lacks some of `wanted` (the kind's `detail` GET). */
  async complete(
    kind: KindDefinition,
    listed: Listed,
    parent: LiveObject | undefined,
    wanted: readonly string[],
  ): Promise<void> {
    const detail = kind.detail;
    if (!detail || wanted.every((name) => detail.listed.includes(name))) return;
    const request = detail.request(listed.live, this.ctx);
    const response = await this.client.request<Record<string, unknown>>({
      method: 'GET',
      path: request.path,
      ...(request.query ? { query: request.query } : {}),
      ...(request.role ? { role: request.role } : {}),
    });
    const detailed = await kind.fromApi({ id: listed.live.id, ...response.body }, this.ctx, parent);
    assertReadable(kind, response.body, detailed, { ...request, status: response.status });
    listed.live.fields = { ...listed.live.fields, ...detailed.fields };
  }

  private async fetch(
    kind: KindDefinition,
    parent: LiveObject | undefined,
    query?: Record<string, string>,
  ): Promise<Listed[]> {
    const specs = kind.list?.(parent, this.ctx);
    if (!specs) return [];
    const all = Array.isArray(specs) ? specs : [specs];
    const lists = await Promise.all(
      all.map(async (s) => ({
        spec: s,
        items: await this.items(kind, query ? { ...s, query: { ...s.query, ...query } } : s),
      })),
    );
    return Promise.all(
      lists.flatMap(({ spec, items }) => items.map((item) => this.toListed(kind, item, parent, spec))),
    );
  }

  /** A read the documents do not show that the platform lacks (404, 405) exports nothing: it cannot be read. */
  private async items(kind: KindDefinition, spec: ListSpec): Promise<Record<string, unknown>[]> {
    try {
      return await fetchListItems(this.client, spec);
    } catch (error) {
      if (kind.readMayBeMissing && error instanceof ApiError && (error.status === 404 || error.status === 405))
        return [];
      throw error;
    }
  }

  private async toListed(
    kind: KindDefinition,
    item: Record<string, unknown>,
    parent: LiveObject | undefined,
    spec: ListSpec,
  ): Promise<Listed> {
    const parts = await kind.fromApi(item, this.ctx, parent);
    // A misread item would become a wrong manifest: the export fails naming the GET instead.
    assertReadable(kind, item, parts, spec);
    const live: LiveObject = {
      kind: kind.kind,
      address: kind.address(parent?.address, kind.identity(parts.fields)),
      id: parts.id,
      ids: idChain(parent?.ids, kind.kind, parts.id),
      fields: parts.fields,
    };
    if (parent) live.parentAddress = parent.address;
    if (parts.facts) live.facts = parts.facts;
    const owner = kind.ownerOf?.(item);
    return owner ? { live, owner } : { live };
  }
}
