import { pathId } from './fields.js';
import type { FieldSpec, KindContext, KindDefinition, LiveObject, ParentRef } from './types.js';

/** Doc 1 §2.7: administrators are identified by their e-mail and can never be read. */
const fields: readonly FieldSpec[] = [
  {
    name: 'email',
    api: 'adminEmail',
    change: 'replace',
    type: 'string',
    doc: 'Valid e-mail address owned by the administrator; also the username. Cannot be modified: a new e-mail is a new account. Unique in the whole platform.',
    manifest: { format: 'email' },
  },
  { name: 'firstName', change: 'writeOnly', type: 'string', doc: 'First name; optional.' },
  { name: 'lastName', change: 'writeOnly', type: 'string', doc: 'Last name; optional.' },
  { name: 'mobile', change: 'writeOnly', type: 'string', doc: 'Mobile phone number; optional.' },
];

/** Administrator endpoints hang under their parent: `P/<groups|resellers|tenants>/{uuid}/admins`. */
const parents: Record<string, { segment: string; role: string }> = {
  Group: { segment: 'groups', role: 'groups.instance.admins' },
  // Doc 1 §4.3 does not name the reseller create role; chosen by analogy with the others.
  Reseller: { segment: 'resellers', role: 'resellers.instance.admins' },
  Tenant: { segment: 'tenants', role: 'tenants.instance.admins' },
};

function adminsPath(parent: ParentRef, ctx: KindContext): { path: string; role: string } {
  const entry = parents[parent.kind];
  if (!entry) throw new Error(`administrators cannot live under ${parent.kind}`);
  return { path: `${ctx.P}/${entry.segment}/${pathId(parent.ids, parent.kind)}/admins`, role: entry.role };
}

function parentOf(live: LiveObject): ParentRef {
  const kind =
    Object.keys(parents)
      .reverse()
      .find((k) => live.ids[k] !== undefined) ?? 'Group';
  return { kind, ids: live.ids };
}

function body(values: Record<string, unknown>, email: unknown): Record<string, unknown> {
  const result: Record<string, unknown> = { adminEmail: email };
  for (const name of ['firstName', 'lastName', 'mobile']) if (name in values) result[name] = values[name];
  return result;
}

/**
 * Administrator accounts of groups, resellers and tenants. Every field is write-only, so
 * changes are planned from the last-applied digests; a create answered "exists" (400)
 * becomes an update in the executor.
 */
export const administratorKind: KindDefinition = {
  kind: 'Administrator',
  parentKinds: Object.keys(parents),
  collection: 'admins',
  manifest: {
    noun: 'administrator',
    collectionDoc: 'Administrator accounts of this object.',
    doc: 'An administrator account, identified by its e-mail address (Doc 1 §2.7). Administrators can be created, updated and deleted but never read: every field is write-only. On creation the platform mails the administrator a link to set a password.',
    identity: ['email'],
    uniqueInPlatform: { ignoreCase: true, why: 'an e-mail address can be used by one account only' },
    listedFirst: true,
    refused: {
      id: { why: '`id` is assigned by the platform; an administrator is identified by its `email`', readOnly: true },
      force_reset: { why: '`force_reset` is a one-off action of the update call, not a state a manifest can declare' },
    },
  },
  contract: {
    sample: { email: 'contract-admin@example.test', firstName: 'Con', lastName: 'Tract' },
    update: { lastName: 'Tracted', mobile: '+32470000001' },
  },
  fields,
  unreadable: true,
  identity: (f) => String(f['email']),
  address: (parent, identity) => `${parent}/admin/${identity}`,
  fromApi: (item) => ({ id: String(item['adminEmail']), fields: { email: item['adminEmail'] } }),
  createdId: { from: 'body', field: 'id' },
  create: (desired, parent, ctx) => {
    if (!parent) throw new Error('an administrator needs a parent');
    const { path, role } = adminsPath(parent, ctx);
    return [{ method: 'POST', path, role: `${role}.create`, body: body(desired.fields, desired.fields['email']) }];
  },
  update: (desired, live, ctx) => {
    const { path, role } = adminsPath(parentOf(live), ctx);
    return [
      {
        method: 'PUT',
        path: `${path}/${encodeURIComponent(live.id)}`,
        role: `${role}.update`,
        body: { ...body(desired.fields, live.id), force_reset: false },
      },
    ];
  },
  delete: (live, ctx) => {
    const { path, role } = adminsPath(parentOf(live), ctx);
    return [{ method: 'DELETE', path: `${path}/${encodeURIComponent(live.id)}`, role: `${role}.delete` }];
  },
};
