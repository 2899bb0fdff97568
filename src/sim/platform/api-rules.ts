/**
 * api_rules (Document 1 §1.6, §2.2): everything is blocked unless a rule of the caller's
 * profile allows the HTTP method and matches the requested path with its `url` regular
 * expression. Seed users carry either explicit rules or a preset (`all`, `read`, `tenant`)
 * that is expanded from the registered routes, one rule per route, named by the route's
 * role. `tenant` is the profile of a tenant administrator, who "may not make billable
 * changes" (Document 1 §1.5): every route but the billable ones.
 */
import { forbidden } from './errors.js';
import type { Route, Router } from './router.js';
import type { ApiRuleSpec, RulePreset, UserRow } from './store/types.js';

/** An api_rule as served in the profile. */
export interface ApiRule {
  id: number;
  method: string;
  url: string;
  allowed: boolean;
  name: string;
  profile_id: number;
  created_on: string;
}

interface CompiledRule {
  method: string;
  regex: RegExp;
  allowed: boolean;
}

const compiledCache = new WeakMap<object, CompiledRule[]>();

/** The rule specs a user holds, presets expanded against the router. */
function ruleSpecs(user: UserRow, router: Router): ApiRuleSpec[] {
  if (Array.isArray(user.rules)) return user.rules;
  const preset = user.rules;
  const routes = router
    .all()
    .filter(
      (r) => r.access === 'rule' && (preset === 'all' || (preset === 'tenant' ? !r.billable : r.method === 'GET')),
    );
  return routes.map((r) => ({ method: r.method.toLowerCase(), url: r.urlRegex, name: r.role, allowed: true }));
}

export function profileRules(user: UserRow, router: Router, createdOn: string): ApiRule[] {
  return ruleSpecs(user, router).map((r, i) => ({
    id: i + 1,
    method: r.method.toLowerCase(),
    url: r.url,
    allowed: r.allowed ?? true,
    name: r.name,
    profile_id: user.profileId,
    created_on: createdOn,
  }));
}

/** Throws 403 (naming the route's role) unless a rule allows `method` on `path`. */
export function enforceApiRules(user: UserRow, router: Router, route: Route, method: string, path: string): void {
  if (route.access !== 'rule') return;
  const lower = method.toLowerCase();
  const allowed = compiled(user, router).some((r) => r.allowed && r.method === lower && r.regex.test(path));
  if (!allowed) {
    throw forbidden(`no api_rule of user ${user.username} allows ${method} ${path}; role ${route.role} is required`, {
      role: route.role,
    });
  }
}

function compiled(user: UserRow, router: Router): CompiledRule[] {
  // Presets are shared by many users: cache per router; explicit rule arrays per array.
  const cacheKey: object = Array.isArray(user.rules) ? user.rules : presetKey(router, user.rules);
  let rules = compiledCache.get(cacheKey);
  if (!rules) {
    rules = ruleSpecs(user, router).map((r) => ({
      method: r.method.toLowerCase(),
      regex: safeRegex(r.url),
      allowed: r.allowed ?? true,
    }));
    compiledCache.set(cacheKey, rules);
  }
  return rules;
}

const presetKeys = new WeakMap<Router, { all: object; read: object; tenant: object; count: number }>();

/** Cache identity of a preset; renewed when routes were added since. */
function presetKey(router: Router, preset: RulePreset): object {
  let keys = presetKeys.get(router);
  if (!keys || keys.count !== router.all().length) {
    keys = { all: {}, read: {}, tenant: {}, count: router.all().length };
    presetKeys.set(router, keys);
  }
  return keys[preset];
}

function safeRegex(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch {
    return /(?!)/; // an invalid rule allows nothing
  }
}
