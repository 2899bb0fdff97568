import { kindOf } from '../../kinds/index.js';
import type { KindContext, KindDefinition, ListSpec, LiveObject } from '../../kinds/types.js';
import type { LiveState } from '../../state/types.js';
import type { Change, PlanMessage } from '../types.js';
import { linkKinds, relinkedBy } from './read.js';

/** Numbers named in one refusal; the rest are counted. */
const NAMED = 10;

/** A planned delete (or replace) of an object numbers of `linkKind` may name. */
interface DeletedAddress {
  linkKind: KindDefinition;
  addressKind: KindDefinition;
  change: Change;
  live: LiveObject;
  parent: LiveObject;
}

export interface AddressRailInput {
  /** The platform's planned changes: a delete that waits for the relinks it needs gets them in `dependsOn`. */
  changes: readonly Change[];
  live: LiveState;
  /** The raw items of one list (the platform's list endpoint, every page). */
  fetch(spec: ListSpec): Promise<Record<string, unknown>[]>;
  ctx: KindContext;
  /** `--allow-address-in-use`: the refusals become warnings, on the record. */
  allow: boolean;
}

/**
 * The address-in-use rail (docs/assurance.md): deleting or replacing an object that numbers
 * name as their emergency address (a kind some `coverage` kind `refersTo`) is refused, naming
 * the numbers, unless the same plan links every one of them to another address; the delete
 * then waits for those links. The numbers are read with one filtered list per deleted
 * address (Doc 2 §4.4 `filters: {addressId}`), so a plan that deletes none sends nothing more.
 */
export async function addressesInUse(
  input: AddressRailInput,
): Promise<{ refusals: PlanMessage[]; warnings: PlanMessage[] }> {
  const refusals: PlanMessage[] = [];
  const warnings: PlanMessage[] = [];
  const deleted: DeletedAddress[] = [];
  for (const linkKind of linkKinds()) {
    const addressKind = kindOf(linkKind.manifest.refersTo?.kind as string);
    for (const change of input.changes) {
      if (change.kind !== addressKind.kind || (change.action !== 'delete' && change.action !== 'replace')) continue;
      const live = input.live.byAddress.get(change.previousAddress ?? change.address);
      const parent = live?.parentAddress === undefined ? undefined : input.live.byAddress.get(live.parentAddress);
      if (live && parent && linkKind.parentKinds.includes(parent.kind))
        deleted.push({ linkKind, addressKind, change, live, parent });
    }
  }
  // Every address's numbers at once: the client's concurrency limit bounds the lists, and one
  // after the other, a plan deleting 500 addresses waited 500 round trips. Judged in plan order.
  const usersOf = await Promise.all(deleted.map((d) => linkedTo(d.linkKind, d.parent, d.live.id, input)));
  deleted.forEach(({ linkKind, addressKind, change, live }, i) => {
    const users = usersOf[i] as LiveObject[];
    if (users.length === 0) return;
    const relinks = relinkedBy(input.changes, linkKind, users, addressKind.identity(live.fields));
    const moved = new Set(relinks.map((c) => c.previousAddress ?? c.address));
    const left = users.filter((u) => !moved.has(u.address));
    if (left.length === 0) {
      for (const relink of relinks)
        if (!change.dependsOn.includes(relink.address)) change.dependsOn.push(relink.address);
      return;
    }
    const message = inUseMessage(change, linkKind, left, users.length);
    if (input.allow)
      warnings.push({
        code: 'SB_ADDRESS_IN_USE',
        address: change.address,
        message: `allowed by --allow-address-in-use: ${message}`,
      });
    else refusals.push({ code: 'SB_ADDRESS_IN_USE', address: change.address, message });
  });
  return { refusals, warnings };
}

/** The live objects of `linkKind` under `parent` linked to the object `id`: the filtered list, its answer checked again here. */
async function linkedTo(
  linkKind: KindDefinition,
  parent: LiveObject,
  id: string,
  input: AddressRailInput,
): Promise<LiveObject[]> {
  const coverage = linkKind.coverage as NonNullable<KindDefinition['coverage']>;
  const items = await input.fetch(coverage.linkedTo(parent, id, input.ctx));
  const users: LiveObject[] = [];
  for (const item of items) {
    const parts = await linkKind.fromApi(item, input.ctx, parent);
    const identity = linkKind.identity(parts.fields);
    const object: LiveObject = {
      kind: linkKind.kind,
      address: linkKind.address(parent.address, identity),
      id: parts.id,
      parentAddress: parent.address,
      ids: parent.ids,
      fields: parts.fields,
      ...(parts.facts ? { facts: parts.facts } : {}),
    };
    // A platform that ignored the filter would answer every number: only those linked count.
    if (coverage.linkOf(object).id === id) users.push(object);
  }
  return users;
}

function inUseMessage(change: Change, linkKind: KindDefinition, left: readonly LiveObject[], all: number): string {
  const names = left.map((u) => linkKind.identity(u.fields)).sort();
  const shown = names.slice(0, NAMED).join(', ') + (names.length > NAMED ? `, … (${names.length - NAMED} more)` : '');
  const verb = change.action === 'delete' ? 'deleting' : 'replacing';
  const some = left.length < all ? ` (${all - left.length} of its ${all} are relinked by this plan)` : '';
  const field = linkKind.manifest.refersTo?.field ?? 'address';
  return (
    `${verb} it leaves ${left.length} ${left.length === 1 ? 'number' : 'numbers'} without an emergency address${some}: ${shown}. ` +
    `Link them to another address in the same plan (their ${linkKind.collection ?? 'links'}' ${field}), or run with --allow-address-in-use`
  );
}
