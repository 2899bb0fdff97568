import type { ListSpec } from '../kinds/types.js';
import type { ListingClient } from './types.js';

/**
 * The raw items of one ListSpec: every page of a list, or the one object a single GET
 * answers (`style: 'object'`), scalars read as items (`scalarItems`), with the spec's
 * `inject` values merged into each item.
 * Shared by the live-state reader and export.
 */
export async function fetchListItems(
  client: ListingClient,
  spec: ListSpec,
  onRead?: (read: { pages: number }) => void,
): Promise<Record<string, unknown>[]> {
  const query = spec.query;
  if (spec.style === 'object') {
    const response = await client.request<Record<string, unknown> | undefined>({
      method: 'GET',
      path: spec.path,
      ...(query ? { query } : {}),
      ...(spec.role ? { role: spec.role } : {}),
      notFoundIsEmpty: spec.notFoundIsEmpty ?? false,
    });
    onRead?.({ pages: 1 });
    return response.body && typeof response.body === 'object' ? [{ ...response.body, ...spec.inject }] : [];
  }
  const items = await client.listPages<Record<string, unknown>>({
    path: spec.path,
    itemsKey: spec.itemsKey,
    style: spec.style,
    ...(query ? { query } : {}),
    ...(spec.role ? { role: spec.role } : {}),
    ...(spec.notFoundIsEmpty ? { notFoundIsEmpty: true } : {}),
    ...(onRead ? { onRead } : {}),
  });
  const key = spec.scalarItems;
  const objects = key === undefined ? items : items.map((value) => scalarItem(key, value));
  return spec.inject ? objects.map((item) => ({ ...item, ...spec.inject })) : objects;
}

/**
 * A scalar of a list of scalars as an item: a string or a number becomes `{ [key]: value }`;
 * anything else is left as it is, for the reader's shape check to refuse as a misread.
 */
function scalarItem(key: string, value: unknown): Record<string, unknown> {
  return typeof value === 'string' || typeof value === 'number' ? { [key]: value } : (value as Record<string, unknown>);
}
