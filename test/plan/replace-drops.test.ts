/**
 * A replace deletes the live object and everything below it, at every depth; the plan
 * re-creates only the declared objects below it. The replaceDrops rail walks the whole
 * subtree: at every level of what is re-created, the live children nothing declares are
 * named, and the collections a document does not declare (not read) are said to be unknown.
 * Pure: the live state is built by hand, the way the reader records it (an object of a kind
 * assumed to exist is live but listed in no collection).
 */
import { describe, expect, it } from 'vitest';
import { kindRails } from '../../src/plan/kind-rails.js';
import { checkSafety } from '../../src/plan/safety.js';
import type { Change } from '../../src/plan/types.js';
import type { DesiredNode, ListedCollection, LiveState } from '../../src/state/types.js';

const SUB = 'tenant/acme-corp/subscription/main';
const TG = `${SUB}/trunkgroup/7`;
const PREMIUM = `${TG}/block_list/premium`;
const LEGACY = `${TG}/block_list/legacy`;
const SUBSCRIPTION_COLLECTIONS = ['addresses', 'templates', 'numbers', 'locations', 'entitlements', 'trunkGroups'];

function node(kind: string, address: string, parentAddress: string | undefined, collections?: string[]): DesiredNode {
  return {
    kind,
    address,
    ...(parentAddress === undefined ? {} : { parentAddress }),
    fields: {},
    ...(collections ? { declaredCollections: collections } : {}),
  };
}

function liveState(addresses: readonly string[], collections: ListedCollection[]): LiveState {
  const byAddress = new Map(
    addresses.map((address, i) => [address, { kind: 'x', address, id: String(i), ids: {}, fields: {} }]),
  );
  return { byAddress, collections, problems: [] };
}

const replace: Change = {
  address: SUB,
  kind: 'Subscription',
  provider: 'platform',
  action: 'replace',
  before: {},
  after: {},
  patch: [],
  reason: 'the API cannot change uc',
  dependsOn: [],
  requests: [],
};

/** The subscription declares all its collections; its trunk group and block list are declared below it. */
function declared(tgCollections: string[], premiumCollections: string[]): DesiredNode[] {
  return [
    node('Subscription', SUB, 'tenant/acme-corp', SUBSCRIPTION_COLLECTIONS),
    node('TrunkGroup', TG, SUB, tgCollections),
    node('TrunkGroupBlockList', PREMIUM, TG, premiumCollections),
    node('Prefix', `${PREMIUM}/prefix/+3290`, PREMIUM),
  ];
}

/** Live: the subscription's lists read (empty), its trunk group (assumed: in no list), two block lists. */
function live(blockLists: readonly string[]): LiveState {
  return liveState(
    [SUB, TG, ...blockLists, `${PREMIUM}/prefix/+3290`],
    [
      { kind: 'Entitlement', parentAddress: SUB, addresses: [] },
      { kind: 'TrunkGroupBlockList', parentAddress: TG, addresses: [...blockLists] },
      { kind: 'TrunkGroupAllowList', parentAddress: TG, addresses: [] },
      { kind: 'Prefix', parentAddress: PREMIUM, addresses: [`${PREMIUM}/prefix/+3290`] },
    ],
  );
}

describe('what a replace drops, at every depth', () => {
  it('names an undeclared live grandchild (a block list of a declared trunk group)', () => {
    const rails = kindRails(declared(['blockList', 'allowList'], ['prefixes']), live([PREMIUM, LEGACY]));
    const drops = rails.replaceDrops?.(replace);
    expect(drops).toBe(`1 live object(s) below it the manifests do not declare (${LEGACY})`);
    const refusals = checkSafety([{ changes: [replace], ...rails }], { maxDeletePercent: 10, allowReplace: false });
    expect(refusals).toEqual([
      expect.objectContaining({ code: 'SB_REPLACE_REFUSED', address: SUB, message: expect.stringContaining(LEGACY) }),
    ]);
  });

  it('names the collections not read two and three levels down, by the object that has them', () => {
    const rails = kindRails(declared(['blockList'], []), live([PREMIUM]));
    expect(rails.replaceDrops?.(replace)).toBe(
      `whatever the allowList of ${TG}, the prefixes of ${PREMIUM} hold (not declared there, so not read)`,
    );
  });

  it('still says the unread collections of the replaced object itself, beside the deeper ones', () => {
    const desired = declared(['blockList', 'allowList'], []);
    desired[0] = node('Subscription', SUB, 'tenant/acme-corp', ['trunkGroups']);
    const drops = kindRails(desired, live([PREMIUM])).replaceDrops?.(replace);
    expect(drops).toBe(
      'whatever its entitlements, addresses, locations, templates, numbers hold (not declared here, so not read), ' +
        `and whatever the prefixes of ${PREMIUM} hold (not declared there, so not read)`,
    );
  });

  it('is nothing when every level below is declared and read', () => {
    const rails = kindRails(declared(['blockList', 'allowList'], ['prefixes']), live([PREMIUM]));
    expect(rails.replaceDrops?.(replace)).toBeUndefined();
  });

  it('does not walk below a declared object that is not live: nothing lives there to drop', () => {
    const desired = [
      ...declared(['blockList', 'allowList'], ['prefixes']),
      node('TrunkGroupBlockList', `${TG}/block_list/new`, TG),
    ];
    expect(kindRails(desired, live([PREMIUM])).replaceDrops?.(replace)).toBeUndefined();
  });

  it('names the deep objects in address order, whatever order the lists were answered in', () => {
    const desired = declared(['blockList', 'allowList'], ['prefixes']);
    const state = live([PREMIUM, LEGACY, `${TG}/block_list/b-old`]);
    const extra = { kind: 'Prefix', parentAddress: PREMIUM, addresses: [`${PREMIUM}/prefix/+32900`] };
    const forward = kindRails(desired, { ...state, collections: [...state.collections, extra] });
    const backward = kindRails(desired, { ...state, collections: [extra, ...state.collections].reverse() });
    const expected =
      `3 live object(s) below it the manifests do not declare (${TG}/block_list/b-old, ${LEGACY}, ` +
      `${PREMIUM}/prefix/+32900)`;
    expect(forward.replaceDrops?.(replace)).toBe(expected);
    expect(backward.replaceDrops?.(replace)).toBe(expected);
  });

  it('indexes the live lists once per plan, not once per replace', () => {
    const state = live([PREMIUM, LEGACY]);
    let reads = 0;
    const counted = new Proxy(state.collections, {
      get(target, key, receiver) {
        reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const rails = kindRails(declared(['blockList', 'allowList'], ['prefixes']), { ...state, collections: counted });
    rails.replaceDrops?.(replace);
    const afterOne = reads;
    for (let i = 0; i < 20; i++)
      rails.replaceDrops?.({ ...replace, kind: 'TrunkGroupBlockList', address: `${TG}/block_list/other-${i}` });
    expect(reads).toBe(afterOne);
  });
});
