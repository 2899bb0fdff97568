import { pathId } from './fields.js';
import type { LiveObject, ParentRef } from './types.js';

/**
 * Resellers and tenants hang under an owner (Doc 1 §2.6: type group, distributor or
 * reseller). The owner is their parent; the API cannot change it (§4.3, §4.4).
 */
const ownerTypes: Record<string, string> = { Group: 'group', Distributor: 'distributor', Reseller: 'reseller' };

export function ownerBody(parent: ParentRef | undefined): { type: string; uuid: string } | undefined {
  if (!parent) return undefined;
  const type = ownerTypes[parent.kind];
  if (!type) throw new Error(`an owner cannot be a ${parent.kind}`);
  return { type, uuid: pathId(parent.ids, parent.kind) };
}

/** The `parent` query of the reseller and tenant lists (required for system administrators). */
export function parentQuery(parent: LiveObject | undefined): Record<string, string> | undefined {
  return parent ? { parent: parent.id } : undefined;
}

/** The owner object of a listed reseller or tenant (Doc 1 §2.6) as a kind and id. */
export function ownerFromItem(item: Record<string, unknown>): { kind: string; id: string; name?: string } | undefined {
  const owner = item['owner'];
  if (!owner || typeof owner !== 'object') return undefined;
  const { type, uuid, name } = owner as Record<string, unknown>;
  const kind = Object.keys(ownerTypes).find((k) => ownerTypes[k] === type);
  if (!kind || typeof uuid !== 'string' || uuid === '') return undefined;
  return typeof name === 'string' && name !== '' ? { kind, id: uuid, name } : { kind, id: uuid };
}
