import { addressPairs, parentAddressOf } from '../kinds/address-path.js';
import type { KindDefinition, ListSpec, LiveObject } from '../kinds/types.js';
import type { LastApplied } from './types.js';
import { idChain } from '../kinds/id-chain.js';

/**
 * Live objects as far as the last-applied record knows them: its entries of `kind` right
 * under `parent` (that `keep` accepts, by address and identity), with the identity fields the
 * record holds. For kinds the API cannot read, and for reads a platform lacks.
 */
export function recordedObjects(
  lastApplied: LastApplied,
  kind: KindDefinition,
  parent: LiveObject | undefined,
  keep: (address: string, identity: string) => boolean = () => true,
): LiveObject[] {
  const objects: LiveObject[] = [];
  for (const [address, entry] of lastApplied) {
    if (entry.kind !== kind.kind || parentAddressOf(address) !== parent?.address) continue;
    const identity = addressPairs(address).at(-1)?.[1] ?? '';
    if (!keep(address, identity)) continue;
    const live: LiveObject = {
      kind: kind.kind,
      address,
      id: identity,
      ids: idChain(parent?.ids, kind.kind, identity),
      fields: { ...entry.identity },
    };
    if (parent) live.parentAddress = parent.address;
    objects.push(live);
  }
  return objects;
}

/**
 * What a missing read would have listed, as the last-applied record knows it: the recorded
 * objects under `parent` (those of the spec's `inject`, when it has one), each compared
 * through its recorded digests (`fromRecord`).
 */
export function missingReadObjects(
  lastApplied: LastApplied,
  kind: KindDefinition,
  parent: LiveObject | undefined,
  spec: ListSpec,
): LiveObject[] {
  const only = spec.inject ? kind.identity(spec.inject) : undefined;
  const recorded = recordedObjects(
    lastApplied,
    kind,
    parent,
    (_address, identity) => only === undefined || identity === only,
  );
  return recorded.map((live) => ({ ...live, fromRecord: true }));
}
