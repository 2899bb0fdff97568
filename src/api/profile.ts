import { firstOf, isJsonObject, toBoolean, toId, toInteger, type JsonObject } from './normalize.js';

/** One authorization of the caller (Doc1 §2.2 api_rule). */
export interface ApiRule {
  id?: number;
  /** HTTP method in lower case (`get`, `post`, …). */
  method: string;
  /** Regular expression validated against the requested path. */
  url: string;
  /** Absent means granting; `false` means this rule grants nothing. */
  allowed?: boolean;
  /** The role this rule carries (`tenants.create`). */
  name?: string;
}

/** One admin_of entry (Doc1 §2.2). */
export interface AdminOf {
  level?: string;
  reference?: string;
  owner?: { type?: string; uuid?: string; name?: string };
}

/**
 * The caller's profile (`GET /api/v01/system/users/local`) with the spelling variants
 * folded into one name each and the instance lifted out of `properties`.
 */
export interface UserProfile {
  id?: string;
  username: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  /** As text: the field table says integer, the sample a string with a leading plus. */
  mobileNumber?: string;
  language?: string;
  timezone?: string;
  isSystem: boolean;
  /** `properties.draas_instance`: the `{draas_instance}` path segment for this user. */
  draasInstance?: string;
  adminOf: AdminOf[];
  profileName?: string;
  apiRules: ApiRule[];
  modules: string[];
  /** The profile exactly as received, for fields not normalised here. */
  raw: JsonObject;
}

/** Normalises a profile body; throws an Error naming the defect when the shape is unusable. */
export function normalizeProfile(raw: unknown): UserProfile {
  if (!isJsonObject(raw)) throw new Error('the profile is not a JSON object');
  const username = raw['username'];
  if (typeof username !== 'string' || !username) throw new Error('the profile has no username');
  const properties = isJsonObject(raw['properties']) ? raw['properties'] : {};
  const profile = isJsonObject(raw['profile']) ? raw['profile'] : {};
  const rules = Array.isArray(profile['api_rules']) ? profile['api_rules'] : [];
  return {
    id: toId(raw['id']),
    username,
    email: text(raw['email']),
    firstName: text(firstOf(raw, 'firstname', 'first_name', 'firstName')),
    lastName: text(firstOf(raw, 'lastname', 'last_name', 'lastName')),
    mobileNumber: toId(firstOf(raw, 'mobilenumber', 'mobile_number', 'mobileNumber')),
    language: text(raw['language']),
    timezone: text(raw['timezone']),
    isSystem: toBoolean(raw['is_system']) ?? false,
    draasInstance: text(properties['draas_instance']),
    adminOf: (Array.isArray(raw['admin_of']) ? raw['admin_of'] : []).filter(isJsonObject).map(normalizeAdminOf),
    profileName: text(profile['name']),
    apiRules: rules.filter(isJsonObject).flatMap(normalizeRule),
    modules: (Array.isArray(raw['modules']) ? raw['modules'] : []).filter((m): m is string => typeof m === 'string'),
    raw,
  };
}

function normalizeRule(rule: JsonObject): ApiRule[] {
  const method = rule['method'];
  const url = rule['url'];
  if (typeof method !== 'string' || typeof url !== 'string') return [];
  const allowed = rule['allowed'] === undefined || rule['allowed'] === null ? undefined : toBoolean(rule['allowed']);
  return [
    {
      id: toInteger(rule['id']),
      method: method.toLowerCase(),
      url,
      ...(allowed === undefined ? {} : { allowed }),
      name: typeof rule['name'] === 'string' ? rule['name'] : undefined,
    },
  ];
}

function normalizeAdminOf(entry: JsonObject): AdminOf {
  const owner = isJsonObject(entry['owner']) ? entry['owner'] : undefined;
  return {
    level: text(entry['level']),
    reference: text(entry['reference']),
    ...(owner ? { owner: { type: text(owner['type']), uuid: text(owner['uuid']), name: text(owner['name']) } } : {}),
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
