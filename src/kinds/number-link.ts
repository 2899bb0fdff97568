import { subscriptionPath } from './subscription-path.js';
import type { BulkRoute, FieldSpec, KindContext, KindDefinition, ListSpec, LiveObject } from './types.js';

const fields: readonly FieldSpec[] = [
  {
    name: 'number',
    api: 'fullNumber',
    change: 'replace',
    type: 'string',
    doc: 'The number, E.164 with its + (quoted in YAML).',
    manifest: { pattern: '^\\+[1-9][0-9]{5,14}$', examples: ['+3221234567'] },
  },
  {
    name: 'address',
    change: 'update',
    type: 'string',
    doc: 'Full address (as formed for addresses) of an address of the subscription.',
    // Doc 2 §4.5 links a number to an address (`full_address` required) and has no way to detach one.
    manifest: {
      required: true,
      minLength: 1,
      nullRefused:
        'the platform cannot detach an address from a number (Document 2 §4.5). ' +
        'Give it another address of the subscription, or leave the number out: an undeclared number keeps its address',
    },
  },
];

const ROLE = 'tenants.instance.subscriptions.instance';

/** `GET T/numbers` (Doc 2 §4.4): the subscription's numbers, paged both ways. */
const numbers = (parent: LiveObject, ctx: KindContext): ListSpec => ({
  path: `${subscriptionPath(ctx, parent.ids)}/numbers`,
  itemsKey: 'numbers',
  style: 'page',
  role: `${ROLE}.numbers.list`,
});
const ADDRESS_NUMBERS = /\/subscriptions\/[^/]+\/address_numbers\/bulk$/;

/** `PUT T/address_numbers/bulk` (Doc 2 §4.5): every link update of a subscription in one job. */
const linkBulk: BulkRoute = {
  name: 'address_numbers',
  when: 'always',
  // A link names its address by full address: it waits for the address creates beside it.
  afterSiblingCreates: true,
  creates: false,
  matches: (r) => r.method === 'PUT' && ADDRESS_NUMBERS.test(r.path),
  bulkPath: (path) => path,
  jobsPath: (path) => path.replace(/\/bulk$/, '/bulk_jobs'),
  subscriptionPath: (path) => path.replace(/\/address_numbers\/bulk$/, ''),
  items: (body) => {
    const data = body && typeof body === 'object' ? (body as Record<string, unknown>)['data'] : undefined;
    return Array.isArray(data) ? data : [];
  },
  eligible: () => true,
  jobsRole: `${ROLE}.address_numbers.bulk.jobs`,
  detailRole: `${ROLE}.bulk.jobs.details`,
  bulkRole: `${ROLE}.address_numbers.bulk`,
};

/**
 * The one definition of "a number has an address", for the plan and for coverage alike: the
 * platform gives its `addressId` (Doc 2 §2.5; the id is what §4.4 filters on and what an
 * address delete leaves behind). `address` text without an id is no link.
 */
function addressIdOf(item: Readonly<Record<string, unknown>>): string | null {
  const id = item['addressId'];
  return id === null || id === undefined || id === '' ? null : String(id);
}

/**
 * The emergency address of a number of the subscription (Doc 2 §2.5, §4.5). Numbers come
 * from the inventory, not from manifests: a link is only ever updated, through the
 * address→number bulk endpoint (which the executor batches per subscription).
 */
export const numberLinkKind: KindDefinition = {
  kind: 'NumberAddressLink',
  parentKinds: ['Subscription'],
  collection: 'numbers',
  manifest: {
    noun: 'link',
    collectionDoc:
      'Number to address links, by E.164 number (quoted, with its +). The numbers must belong to the subscription.',
    doc:
      'The emergency address of a number of the subscription; the number must belong to the subscription. ' +
      'A link can move to another address but not be removed: the API cannot detach an address (Document 2 §4.5), ' +
      'so `address` cannot be null; an undeclared number keeps its address.',
    identity: ['number'],
    shape: 'map',
    refersTo: { field: 'address', kind: 'Address' },
  },
  contract: {
    // No unlinked number can be declared (no null address): adopting the sample links it to
    // the Address sample, which is the update step.
    sample: { number: '+3221234569', address: 'Contract Street 9, 1000 Brussels, Belgium' },
    cannot: { update: 'adopting its sample is its update: it links a number the simulator seeds without an address' },
  },
  fields,
  bulk: linkBulk,
  // No delete: an undeclared number keeps its address (the API cannot detach one, Doc 2 §4.5).
  identity: (f) => String(f['number']),
  address: (parent, identity) => `${parent}/number/${identity}`,
  list: (parent, ctx) => parent && numbers(parent, ctx),
  fromApi: (item) => {
    const addressId = addressIdOf(item);
    return {
      id: String(item['fullNumber']),
      // Address text without an id is no link (see addressIdOf): the plan links such a number.
      fields: { number: String(item['fullNumber']), address: addressId === null ? null : (item['address'] ?? null) },
      facts: { numberId: item['id'], addressId, addressVerified: item['addressVerified'] ?? null },
    };
  },
  // Doc 2 §2.5: `addressId` and `addressVerified` are conditional; §4.4 filters the list on `addressId`.
  coverage: {
    linkOf: (object) => {
      const verified = object.facts?.['addressVerified'];
      return {
        id: addressIdOf(object.facts ?? {}),
        verified: typeof verified === 'boolean' ? verified : null,
      };
    },
    linkedTo: (parent, id, ctx) => ({ ...numbers(parent, ctx), query: { filters: JSON.stringify({ addressId: id }) } }),
  },
  update: (desired, live, ctx) => [
    {
      method: 'PUT',
      path: `${subscriptionPath(ctx, live.ids)}/address_numbers/bulk`,
      role: 'tenants.instance.subscriptions.instance.address_numbers.bulk',
      body: {
        name: `switchboard ${live.address}`,
        data: [{ full_address: desired.fields['address'], number: live.id }],
      },
    },
  ],
};
