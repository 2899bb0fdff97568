/** `GET /api/v01/system/users/local` (Document 1 §2.2, §4.1). */
import { profileRules } from '../api-rules.js';
import { ok, type RouteModule, type Router } from '../router.js';
import type { PlatformStore } from '../store/store.js';
import type { UserRow } from '../store/types.js';
import type { AnswerForms } from '../variants.js';

export const registerProfileRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: '/api/v01/system/users/local',
    role: 'system.users.local.read',
    access: 'authenticated',
    handler: (ctx) => ok(profileView(ctx.store, router, ctx.user as UserRow, ctx.forms)),
  });
};

/**
 * The profile (Document 1 §2.2): by default with both spellings of the names, as the
 * sample shows; in variant mode each name in one spelling or both, the mobile number as a
 * string or an integer, `registered_on` as a timestamp or an integer (epoch seconds), and
 * `profile.id` as an integer or a string.
 */
function profileView(store: PlatformStore, router: Router, user: UserRow, forms: AnswerForms): Record<string, unknown> {
  const digits = (user.mobile ?? '').replace(/\D/g, '');
  const mobile = forms.form('mobilenumberType') === 'integer' && digits !== '' ? Number(digits) : (user.mobile ?? '');
  const registeredOn =
    forms.form('registeredOn') === 'integer'
      ? Math.floor(Date.parse(`${user.registeredOn}Z`) / 1000)
      : user.registeredOn;
  return {
    id: user.id,
    username: user.username,
    email: user.email ?? '',
    ...spelled(forms.form('firstname'), 'firstname', 'first_name', user.firstName ?? ''),
    ...spelled(forms.form('lastname'), 'lastname', 'last_name', user.lastName ?? ''),
    ...spelled(forms.form('mobilenumber'), 'mobilenumber', 'mobile_number', mobile),
    language: user.language,
    timezone: user.timezone,
    admin_of: [adminOfView(store, user)],
    profile: {
      id: forms.form('profileId') === 'string' ? String(user.profileId) : user.profileId,
      name: user.profileName,
      created_on: user.registeredOn,
      updated_on: user.registeredOn,
      api_rules: profileRules(user, router, user.registeredOn),
      home: '/',
      available: true,
      accesses: [],
    },
    profile_id: user.profileId,
    entity: user.adminOf.level,
    groups: [],
    is_system: user.adminOf.level === 'system',
    local_user: true,
    modules: ['draas'],
    properties: { draas_instance: store.instance },
    roles: [],
    registered_on: registeredOn,
    support_reset_password: true,
    token: user.m2mToken ?? null,
    trusted_locs: user.trustedLocs.map((t) => ({ user_agent: t.userAgent, ip: t.ip, created_on: t.createdOn })),
    ui_data: null,
    ui_profile: 'default',
  };
}

/** One name under its spellings: both, or the one the answer's form names. */
function spelled(form: string, plain: string, underscored: string, value: unknown): Record<string, unknown> {
  if (form === 'both') return { [plain]: value, [underscored]: value };
  return { [form]: value };
}

function adminOfView(store: PlatformStore, user: UserRow): Record<string, unknown> {
  const { level, reference } = user.adminOf;
  const node = reference ? store.node(reference) : undefined;
  const view: Record<string, unknown> = { level, reference };
  if (node?.type === 'reseller' || node?.type === 'tenant')
    view['owner'] = store.ownerView(node.row.owner.type, node.row.owner.uuid);
  if (node?.type === 'distributor') view['owner'] = store.ownerView('group', node.row.groupUuid);
  if (node) view['name'] = node.row.name;
  return view;
}
