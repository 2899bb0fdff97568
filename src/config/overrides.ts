/**
 * How the environment meets the configuration file. The precedence users expect from
 * twelve-factor tools: a `SWITCHBOARD_*` variable that is set (and not empty) overrides the
 * file's value of its setting; the file's `${VAR}` references are the file's own way of
 * reading the environment and mean the same. Credentials override as a whole kind: a
 * token replaces a user's credentials and the reverse, a user's part (a password) completes
 * the file's user, and a part that cannot complete what the file gives (a username alone
 * against a file's token) is an error that names both. An optional setting whose value is
 * only an unset `${VAR}` is left out, as if not written (`totpSecret: ${SWITCHBOARD_TOTP_SECRET}`
 * for a user without a second factor).
 */
import { isPlainObject } from '../core/values.js';
import type { MissingVariable } from './interpolate.js';
import { ENVIRONMENT_VARIABLES, booleanVariable } from './naming.js';

/** Settings that may be left out (relative to one environment). */
const OPTIONAL = new Set([
  'instance',
  'caFile',
  'insecure',
  'timeoutMs',
  'brandingReadPath',
  'auth.totpSecret',
  'routingEngine.caFile',
  'routingEngine.insecure',
  'routingEngine.timeoutMs',
]);

type Raw = Record<string, unknown>;

/**
 * The environment's mapping with the variables that are set written in as `${VAR}`
 * references (interpolated afterwards, so their values are registered as secrets like any
 * other), and a note for each value they override. Credentials the file reads from these
 * very variables keep the kind the file chose. `conflicts`: parts of credentials that
 * cannot be combined with the file's.
 */
export function withEnvironmentOverrides(
  raw: Raw,
  env: Readonly<Record<string, string | undefined>>,
  at: string,
): { raw: Raw; overrides: string[]; conflicts: string[] } {
  const out = structuredClone(raw);
  const overrides: string[] = [];
  const conflicts: string[] = [];
  const isSet = (name: string) => env[name] !== undefined && env[name] !== '';
  for (const authKey of ['auth', 'routingEngine.auth']) {
    const variable = (field: string) => ENVIRONMENT_VARIABLES[`${authKey}.${field}`];
    const set = ['token', 'username', 'password', 'totpSecret'].filter((f) => variable(f) && isSet(variable(f)!));
    if (set.length === 0) continue;
    // The engine's credentials alone declare no engine: without one in the file (or its URL
    // set), they are not this file's to override (a CI job may export them for every run).
    const engine = isPlainObject(out['routingEngine']) || isSet(ENVIRONMENT_VARIABLES['routingEngine.url'] ?? '');
    if (authKey === 'routingEngine.auth' && !engine) continue;
    const parent = authKey === 'auth' ? out : ensureMapping(out, 'routingEngine');
    const current = isPlainObject(parent['auth']) ? (parent['auth'] as Raw) : undefined;
    const reference = (field: string) => `\${${variable(field)}}`;
    // A file whose credentials read these variables has chosen their kind: interpolation fills
    // them (and an unset one is an error). Only when none of those it reads is set did it choose
    // nothing (init's file reads SWITCHBOARD_TOKEN; a job that logs in as a user sets the
    // user's variables instead).
    const written = JSON.stringify(current ?? {});
    const read = ['token', 'username', 'password'].filter((f) => written.includes(reference(f)));
    if (read.some((f) => isSet(variable(f)!))) continue;
    const fileIsUser =
      current !== undefined && (current['username'] !== undefined || current['password'] !== undefined);
    let next: Raw;
    if (set.includes('token')) next = { token: reference('token') };
    else if (fileIsUser || (set.includes('username') && set.includes('password'))) {
      next = { ...(fileIsUser ? current : {}) };
      delete next['token'];
      for (const field of set) next[field] = reference(field);
    } else {
      const names = set.map((f) => variable(f)).join(', ');
      conflicts.push(
        `${names} ${set.length === 1 ? 'is' : 'are'} set, but ${at}.${authKey} ${current ? 'is a token' : 'is not given'}: ` +
          `set ${variable('username')} and ${variable('password')} to log in as a user (or ${variable('token')}), or unset ${names}`,
      );
      continue;
    }
    if (JSON.stringify(next) !== JSON.stringify(current)) {
      parent['auth'] = next;
      overrides.push(`${set.map((f) => variable(f)).join(', ')} override ${at}.${authKey}`);
    }
  }
  for (const [key, variable] of Object.entries(ENVIRONMENT_VARIABLES)) {
    if (key.includes('auth.') || !isSet(variable)) continue;
    const path = key.split('.');
    if (path[0] === 'routingEngine' && !isPlainObject(out['routingEngine']) && key !== 'routingEngine.url') continue;
    const parent = path.length === 1 ? out : ensureMapping(out, path[0]!);
    const leaf = path[path.length - 1]!;
    const reference = `\${${variable}}`;
    if (parent[leaf] === reference) continue;
    if (parent[leaf] !== undefined) overrides.push(`${variable} overrides ${at}.${key}`);
    // A flag is read as the flag it is (SWITCHBOARD_INSECURE=true), not as text.
    parent[leaf] = leaf === 'insecure' ? booleanVariable(env[variable], variable, conflicts) : reference;
  }
  return { raw: out, overrides, conflicts };
}

function ensureMapping(raw: Raw, key: string): Raw {
  if (!isPlainObject(raw[key])) raw[key] = {};
  return raw[key] as Raw;
}

/**
 * The unset variables that are errors: those of optional settings written as the reference
 * alone are dropped from `value` (the setting is then simply not given).
 */
export function requiredMissing(value: Raw, missing: readonly MissingVariable[], at: string): MissingVariable[] {
  return missing.filter((m) => {
    const key = m.at.startsWith(`${at}.`) ? m.at.slice(at.length + 1) : m.at;
    if (!OPTIONAL.has(key)) return true;
    const path = key.split('.');
    let parent: Raw | undefined = value;
    for (const part of path.slice(0, -1)) parent = isPlainObject(parent?.[part]) ? (parent[part] as Raw) : undefined;
    const leaf = path[path.length - 1]!;
    if (!parent || parent[leaf] !== `\${${m.name}}`) return true;
    delete parent[leaf];
    return false;
  });
}
