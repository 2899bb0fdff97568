import type { KindContext, KindDefinition, ListSpec, LiveObject } from '../kinds/types.js';
import { assertReadable } from '../state/item-shape.js';
import type { ApplyClient } from './types.js';

/**
 * Finds an object by its identity in its parent's collection: how a create answered 204
 * without an id learns it (templates, Doc 2 §4.8), and how a POST whose outcome is
 * unknown is checked before it is ever sent again. Returns its id, or undefined when the
 * object is not there (or the kind cannot be listed).
 */
export async function findByIdentity(
  client: ApplyClient,
  kind: KindDefinition,
  parent: LiveObject | undefined,
  identity: string,
  ctx: KindContext,
): Promise<string | undefined> {
  const specs = kind.list?.(parent, ctx);
  if (!specs) return undefined;
  for (const spec of Array.isArray(specs) ? specs : [specs]) {
    for (const item of await fetchItems(client, spec)) {
      const parts = await kind.fromApi(item, ctx, parent);
      // A misread listing must not read as "absent": that would send the create again.
      assertReadable(kind, item, parts, spec);
      if (kind.identity(parts.fields) === identity) return parts.id;
    }
  }
  return undefined;
}

/** Lists every item of a collection (all pages), as the reader does. */
export async function fetchItems(client: ApplyClient, spec: ListSpec): Promise<Record<string, unknown>[]> {
  const common = {
    path: spec.path,
    ...(spec.query ? { query: spec.query } : {}),
    ...(spec.role ? { role: spec.role } : {}),
  };
  if (spec.style === 'object') {
    const response = await client.request<Record<string, unknown> | undefined>({
      method: 'GET',
      ...common,
      notFoundIsEmpty: spec.notFoundIsEmpty ?? false,
    });
    return response.body && typeof response.body === 'object' ? [{ ...response.body, ...spec.inject }] : [];
  }
  const items = await client.listPages<Record<string, unknown>>({
    ...common,
    itemsKey: spec.itemsKey,
    style: spec.style,
    ...(spec.notFoundIsEmpty ? { notFoundIsEmpty: true } : {}),
  });
  return spec.inject ? items.map((item) => ({ ...item, ...spec.inject })) : items;
}
