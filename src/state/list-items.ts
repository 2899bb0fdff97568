import type { ListSpec } from '../kinds/types.js';
import type { ListingClient } from './types.js';

/**
 * The raw items of one ListSpec: every page of a list, or the one object a single GET
 * answers (`style: 'object'`), with the spec's `inject` values merged into each item.
 * Shared by the live-state reader and export.
 */
export async function fetchListItems(client: ListingClient, spec: ListSpec): Promise<Record<string, unknown>[]> {
  const query = spec.query;
  if (spec.style === 'object') {
    const response = await client.request<Record<string, unknown> | undefined>({
      method: 'GET',
      path: spec.path,
      ...(query ? { query } : {}),
      ...(spec.role ? { role: spec.role } : {}),
      notFoundIsEmpty: spec.notFoundIsEmpty ?? false,
    });
    return response.body && typeof response.body === 'object' ? [{ ...response.body, ...spec.inject }] : [];
  }
  const items = await client.listPages<Record<string, unknown>>({
    path: spec.path,
    itemsKey: spec.itemsKey,
    style: spec.style,
    ...(query ? { query } : {}),
    ...(spec.role ? { role: spec.role } : {}),
    ...(spec.notFoundIsEmpty ? { notFoundIsEmpty: true } : {}),
  });
  return spec.inject ? items.map((item) => ({ ...item, ...spec.inject })) : items;
}
