import type { KindContext, LiveObject } from '../../src/kinds/types.js';
import { staticRefs } from './static-refs.js';

export const P = '/api/v01/draas/demo';

/** Reference data as the simulator's default data set has it (docs/simulator.md "Default data set"). */
export const ctx: KindContext = {
  P,
  refs: staticRefs({
    'suspension profiles': [
      { id: 1, name: 'full-barring', barringProfileId: 'BP-FULL' },
      { id: 2, name: 'outgoing-barring', barringProfileId: 'BP-OUT' },
    ],
    'entitlement types': [
      { id: 1, name: 'BE geo' },
      { id: 2, name: 'BE tollfree' },
    ],
    'postal codes': [
      { id: 11, code: '1000', isoCode: 'BE' },
      { id: 12, code: '1050', isoCode: 'BE' },
    ],
  }),
};

/** A live subscription of tenant t-1 with id 3, the parent of most nested kinds. */
export const subscription: LiveObject = {
  kind: 'Subscription',
  address: 'tenant/acme/subscription/main',
  id: '3',
  ids: { Tenant: 't-1', Subscription: '3' },
  fields: { name: 'main' },
};

export const T = `${P}/tenants/t-1/subscriptions/3`;

/** A live child of `parent` built the way the reader builds it. */
export function child(
  parent: LiveObject,
  kind: string,
  id: string,
  address: string,
  fields: Record<string, unknown>,
  facts?: Record<string, unknown>,
): LiveObject {
  return {
    kind,
    address,
    id,
    parentAddress: parent.address,
    ids: { ...parent.ids, [kind]: id },
    fields,
    ...(facts ? { facts } : {}),
  };
}
