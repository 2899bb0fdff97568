/** Helpers shared by the seed loader and the organization routes. */
import { lineage } from './visibility.js';
import type { PlatformStore } from './store/store.js';
import type { Markup, OwnerRef, OwnerType, Region } from './store/types.js';

/** Ancestor uuids (owner first) and the group of an object owned by `owner`. */
export function placeUnder(
  store: PlatformStore,
  owner: OwnerRef,
): { ancestors: string[]; groupUuid: string } | undefined {
  const node = store.node(owner.uuid);
  if (!node || node.type !== owner.type) return undefined;
  const ancestors = lineage(node);
  return { ancestors, groupUuid: ancestors[ancestors.length - 1] as string };
}

export function isOwnerType(value: unknown): value is OwnerType {
  return value === 'group' || value === 'distributor' || value === 'reseller';
}

export function newRegions(store: PlatformStore, regions: { isoCode: string; name: string }[] | undefined): Region[] {
  const now = store.clock.isoNow();
  return (regions ?? []).map((r) => ({
    id: store.nextId('regions'),
    isoCode: r.isoCode,
    name: r.name,
    createdOn: now,
    updatedOn: now,
  }));
}

/** Nearest (latest start) first, as Document 1 §2.4 serves `markups`. */
export function sortMarkups(markups: Markup[]): Markup[] {
  return [...markups].sort((a, b) => (a.startDate < b.startDate ? 1 : a.startDate > b.startDate ? -1 : 0));
}

/** The latest markup that has started (the list-only `markup` of Document 1 §2.4). */
export function activeMarkup(markups: Markup[], nowIso: string): Markup | undefined {
  return sortMarkups(markups).find((m) => m.startDate <= nowIso);
}
