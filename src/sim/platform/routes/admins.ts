/**
 * Administrator accounts of groups, resellers and tenants (Document 1 §2.7, §4.2–4.4).
 * They can be created, updated and deleted, never read: there is deliberately no GET
 * route. Deleting an account that does not exist is 404: the endpoints do not say that a
 * missing one counts as success (Document 1 §1.10). An administrator is a user whose username is its e-mail; it has no password
 * until it follows the link of its welcome mail, and rules preset `all` (its hierarchy
 * level limits what it sees).
 */
import { badRequest, notFound } from '../errors.js';
import { sendMail } from '../mail.js';
import { noContent, ok, P, type RequestContext, type RouteModule } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import type { UserRow } from '../store/types.js';
import { optionalString, requiredBoolean, requiredEmail } from '../validate.js';
import { assertSystem, assertVisible } from '../visibility.js';

type AdminParent = 'group' | 'reseller' | 'tenant';

const COLLECTION: Record<AdminParent, string> = { group: 'groups', reseller: 'resellers', tenant: 'tenants' };

export const registerAdminRoutes: RouteModule = (router) => {
  for (const kind of ['group', 'reseller', 'tenant'] as const) {
    const base = `${P}/${COLLECTION[kind]}/:uuid/admins`;
    const role = `${COLLECTION[kind]}.instance.admins`;
    router.add({
      method: 'POST',
      path: base,
      role: `${role}.create`,
      handler: (ctx) => ok({ id: createAdministrator(ctx.store, kind, parentOf(ctx, kind), ctx.body).id }),
    });
    router.add({
      method: 'PUT',
      path: `${base}/:username`,
      role: `${role}.update`,
      handler: (ctx) => updateAdministrator(ctx, kind),
    });
    router.add({
      method: 'DELETE',
      path: `${base}/:username`,
      role: `${role}.delete`,
      handler: (ctx) => {
        const uuid = parentOf(ctx, kind);
        const username = ctx.params['username'] as string;
        const admin = findAdmin(ctx.store, uuid, username);
        // The endpoint does not say that a missing account counts as success (Document 1 §1.10): 404.
        if (!admin) throw notFound(`administrator ${username} of ${kind} ${uuid} not found`);
        ctx.store.users.delete(admin.id);
        return noContent();
      },
    });
  }
  router.add({
    method: 'POST',
    path: `${P}/resellers/:uuid/admins/welcome`,
    role: 'resellers.instance.admins.welcome.create',
    handler: (ctx) => {
      const uuid = parentOf(ctx, 'reseller');
      const email = requiredEmail(ctx.body, 'adminEmail');
      const admin = findAdmin(ctx.store, uuid, email);
      if (!admin) throw badRequest('unknown_admin', `${email} is not an administrator of reseller ${uuid}`);
      sendWelcome(ctx.store, admin, 'mails.welcome');
      return noContent();
    },
  });
};

/**
 * The uuid of the route's parent object, after the 404 and visibility checks. A group's
 * administrators are a Document 1 §4.2 endpoint: system administrators only.
 */
function parentOf(ctx: RequestContext, kind: AdminParent): string {
  if (kind === 'group') assertSystem(ctx, "managing a group's administrators");
  const uuid = ctx.params['uuid'] as string;
  const node = ctx.store.node(uuid);
  if (!node || node.type !== kind) throw notFound(`${kind} ${uuid} not found`);
  assertVisible(ctx, node);
  return uuid;
}

function findAdmin(store: PlatformStore, reference: string, username: string): UserRow | undefined {
  const user = store.users.findBy('username', username.toLowerCase())[0];
  return user && user.adminOf.reference === reference ? user : undefined;
}

/** 400 when the e-mail is already used by any account (Document 1 §4.2). */
export function assertEmailFree(store: PlatformStore, email: string): void {
  const lower = email.toLowerCase();
  if (store.users.findBy('email', lower).length > 0 || store.users.findBy('username', lower).length > 0) {
    throw badRequest('admin_exists', `an account with e-mail ${email} already exists`);
  }
}

/** Creates an administrator of `reference` (also used by `adminEmail` on group/reseller/tenant create). */
export function createAdministrator(
  store: PlatformStore,
  level: AdminParent,
  reference: string,
  body: Record<string, unknown>,
): UserRow {
  const email = requiredEmail(body, 'adminEmail');
  assertEmailFree(store, email);
  const id = store.nextId('users');
  const firstName = optionalString(body, 'firstName');
  const lastName = optionalString(body, 'lastName');
  const mobile = optionalString(body, 'mobile');
  const user = store.users.insert({
    id,
    username: email,
    password: null,
    email,
    ...(firstName ? { firstName } : {}),
    ...(lastName ? { lastName } : {}),
    ...(mobile ? { mobile } : {}),
    language: 'en',
    timezone: '+01:00',
    adminOf: { level, reference },
    rules: 'all',
    profileId: id,
    profileName: `${level}-admin`,
    twoFactor: 'none',
    alwaysTwoFactor: false,
    trustedLocs: [],
    forceReset: true,
    registeredOn: store.clock.isoNow(),
  });
  sendWelcome(store, user, 'mails.new_admin');
  return user;
}

function sendWelcome(store: PlatformStore, user: UserRow, template: string): void {
  const link = `https://portal.example.net/activate?user=${encodeURIComponent(user.username)}`;
  sendMail(store, {
    to: user.email as string,
    template,
    subject: 'Welcome: set your password',
    body: `An administrator account ${user.username} was created for you. Follow ${link} to set a password and validate the account.`,
    data: { username: user.username, link },
  });
}

function updateAdministrator(ctx: RequestContext, kind: AdminParent) {
  const uuid = parentOf(ctx, kind);
  const username = ctx.params['username'] as string;
  const email = requiredEmail(ctx.body, 'adminEmail');
  const forceReset = requiredBoolean(ctx.body, 'force_reset');
  const admin = findAdmin(ctx.store, uuid, username);
  if (!admin) throw notFound(`administrator ${username} of ${kind} ${uuid} not found`);
  if (email.toLowerCase() !== admin.username.toLowerCase()) {
    throw badRequest(
      'email_immutable',
      'the e-mail of an administrator cannot change: delete the account and create a new one',
    );
  }
  const changes: Partial<UserRow> = { forceReset };
  for (const key of ['firstName', 'lastName', 'mobile'] as const) {
    const v = optionalString(ctx.body, key);
    if (v !== undefined) changes[key] = v;
  }
  ctx.store.users.update(admin.id, changes);
  return ok({ id: admin.id });
}
