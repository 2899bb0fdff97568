/**
 * Group configuration, branding and enabled UC platforms (Document 1 §2.9, §2.10, §4.2).
 * Branding read (path not shown) is `GET G/configurations/pages?type=…`, the same path as
 * its PUT, with role `groups.instance.configurations.branding.pages.read`. A PUT merges the
 * given properties into that type's object (absent properties are kept). Reading a type
 * that was never written is 404 (Document 1 §4.2 lists 404 for the branding read). A seed
 * with `inventedEndpoints: {brandingRead: false}` removes the read (404 for every type).
 */
import { badRequest, notFound } from '../errors.js';
import { assertInvented, G, noContent, ok, type RouteModule } from '../router.js';
import type { BrandingType } from '../store/types.js';
import { queryFlag } from '../validate.js';
import { administeredGroup } from './groups.js';

const MASK = '********';
const BRANDING_TYPES: readonly BrandingType[] = ['font', 'image', 'theme'];

export const registerConfigurationRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    path: `${G}/configurations/general`,
    role: 'groups.instance.configurations.general.list',
    handler: (ctx) => {
      const group = administeredGroup(ctx, 'reading the group configuration');
      const wanted = keyFilter(ctx.query);
      const properties: Record<string, string> = {};
      for (const [key, value] of Object.entries(group.configuration)) {
        if (wanted(key)) properties[key] = /password|token/i.test(key) ? MASK : value;
      }
      return ok({ properties });
    },
  });
  router.add({
    method: 'GET',
    path: `${G}/configurations/pages`,
    role: 'groups.instance.configurations.branding.pages.read',
    handler: (ctx) => {
      assertInvented(ctx, 'brandingRead');
      const group = administeredGroup(ctx, 'reading the branding');
      const type = brandingType(ctx.query.get('type'));
      const all = group.branding[type];
      if (!all) throw notFound(`branding type ${type} was never written for group ${group.uuid}`);
      const wanted = keyFilter(ctx.query);
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(all)) if (wanted(key)) out[key] = value;
      return ok(out);
    },
  });
  router.add({
    method: 'PUT',
    path: `${G}/configurations/pages`,
    role: 'groups.instance.configurations.branding.pages.update',
    handler: (ctx) => {
      const group = administeredGroup(ctx, 'changing the branding');
      const { type: rawType, ...properties } = ctx.body;
      const type = brandingType(typeof rawType === 'string' ? rawType : null);
      checkBranding(type, properties);
      ctx.store.groups.update(group.uuid, {
        branding: { ...group.branding, [type]: { ...(group.branding[type] ?? {}), ...properties } },
      });
      return noContent();
    },
  });
  router.add({
    method: 'GET',
    path: `${G}/enabled_ucs`,
    role: 'groups.instance.enabled_ucs.list',
    handler: (ctx) => ok({ enabled_ucs: administeredGroup(ctx, 'reading the enabled UC platforms').enabledUcs }),
  });
};

/** `keys=a,b` and `search=text` select properties; `full=true` (or `1`) ignores both. */
function keyFilter(query: URLSearchParams): (key: string) => boolean {
  if (queryFlag(query, 'full')) return () => true;
  const keys = query
    .get('keys')
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const search = query.get('search')?.toLowerCase();
  return (key) => (!keys || keys.includes(key)) && (!search || key.toLowerCase().includes(search));
}

function brandingType(raw: string | null): BrandingType {
  if (raw === null) throw badRequest('missing_field', 'type is required: font, image or theme');
  if (!(BRANDING_TYPES as readonly string[]).includes(raw))
    throw badRequest('bad_field', `type must be font, image or theme, not ${raw}`);
  return raw as BrandingType;
}

/** The property shapes of Document 1 §2.10. */
const SHAPES: Record<BrandingType, Record<string, (v: unknown) => boolean>> = {
  font: { allowed: isStringArray, name: isString },
  image: { favicon: isString, login: isBgLogo, main: isBgLogo },
  theme: { allowed: isStringArray, selected: isString, themes: (v) => isObject(v) && Object.values(v).every(isString) },
};

function checkBranding(type: BrandingType, properties: Record<string, unknown>): void {
  const shape = SHAPES[type];
  for (const [key, value] of Object.entries(properties)) {
    const check = shape[key];
    if (!check)
      throw badRequest('bad_field', `${key} is not a ${type} property (expected ${Object.keys(shape).join(', ')})`);
    if (!check(value)) throw badRequest('bad_field', `${type}.${key} has the wrong type`);
  }
}

function isString(v: unknown): boolean {
  return typeof v === 'string';
}
function isStringArray(v: unknown): boolean {
  return Array.isArray(v) && v.every(isString);
}
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function isBgLogo(v: unknown): boolean {
  return isObject(v) && Object.entries(v).every(([k, x]) => (k === 'bg' || k === 'logo') && isString(x));
}
