import { existsSync } from 'node:fs';
import { isPlainObject } from '../core/values.js';
import { findRepositoryRoot } from '../core/repository-root.js';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { yamlPackage } from '../core/yaml-package.js';
import { SwitchboardError } from '../core/errors.js';
import { readRegularFile } from '../core/safe-write.js';
import { registerSecret } from '../core/secrets.js';
import { isValidBase32 } from '../api/totp.js';
import { interpolate, protectReferences, restoreReferences } from './interpolate.js';
import { requiredMissing, withEnvironmentOverrides } from './overrides.js';
import { booleanVariable, environmentNames, fileNames, type SettingNames } from './naming.js';
import { isLoopbackHost } from './transport-security.js';

export const CONFIG_FILE_NAME = 'switchboard.config.yaml';

/**
 * The configuration file a command run in `cwd` uses: `switchboard.config.yaml` in `cwd` or
 * in the nearest folder above it, up to the top of its git working tree (a plan run from
 * `manifests/` uses the repository's file). Outside a working tree, only `cwd` is looked at.
 */
export function findConfigFile(cwd: string): string | undefined {
  const top = findRepositoryRoot(cwd);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const file = resolve(dir, CONFIG_FILE_NAME);
    if (existsSync(file)) return file;
    if (top === undefined || dir === top || dirname(dir) === dir) return undefined;
  }
}

/**
 * The folder a repository's switchboard files belong to: the folder of the configuration file
 * found from `cwd`, else the top of its git working tree, else `cwd`. The default state
 * folder (`.switchboard`: the last-applied record, journals, the lock) is there.
 */
export function projectRoot(cwd: string): string {
  const config = findConfigFile(cwd);
  return config ? dirname(config) : (findRepositoryRoot(cwd) ?? resolve(cwd));
}

/** Username/password (with an optional TOTP secret) or a bearer token. */
export type ConnectionAuth = { username: string; password: string; totpSecret?: string } | { token: string };

/** The routing engine of an environment (Document 3). */
export interface RoutingEngineConnection {
  url: string;
  auth: { username: string; password: string } | { token: string };
  caFile?: string;
  insecure?: boolean;
  /** Timeout of one request attempt to the engine, in ms (default 30,000, as the platform's). */
  timeoutMs?: number;
}

/** Where and how to reach one platform (docs/connecting.md). */
export interface ConnectionConfig {
  /** `{base_url}`. */
  url: string;
  /** `{draas_instance}`; when absent the profile's `properties.draas_instance` is used. */
  instance?: string;
  auth: ConnectionAuth;
  routingEngine?: RoutingEngineConnection;
  /** Absolute path of a PEM CA bundle. */
  caFile?: string;
  insecure?: boolean;
  /** Timeout of one platform API request attempt, in ms (default 30,000). */
  timeoutMs?: number;
  /**
   * Where the platform serves the group's branding read, below `P/groups/{uuid}/`: the API
   * documents do not show it (Document 1 §4.2); switchboard's default is `configurations/pages`.
   */
  brandingReadPath?: string;
  /** `switchboard.config.yaml (env prod)` or `environment variables`, for messages. */
  source: string;
}

export interface LoadConnectionOptions {
  /** Explicit `--config` file; otherwise `switchboard.config.yaml` in `cwd` when present. */
  configPath?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** `--env NAME`. */
  envName?: string;
  /**
   * False when the manifests hold only RoutingTable documents: the platform's url and
   * credentials may then be absent (default true).
   */
  platform?: boolean;
  /** True when the manifests hold RoutingTable documents: `routingEngine` is then required. */
  routing?: boolean;
  cwd?: string;
}

const ENV_KEYS = new Set([
  'url',
  'instance',
  'auth',
  'routingEngine',
  'caFile',
  'insecure',
  'timeoutMs',
  'brandingReadPath',
]);
const RE_KEYS = new Set(['url', 'auth', 'caFile', 'insecure', 'timeoutMs']);
/** The longest request timeout accepted (an hour): anything longer is a typo, or a hang. */
const MAX_TIMEOUT_MS = 3_600_000;

/**
 * Loads the connection of one environment: from the config file when there is one (its
 * `${VAR}` references interpolated), else from the `SWITCHBOARD_*` environment variables.
 * Every problem found is reported in one SwitchboardError (`SB_CONFIG`); credentials over
 * plain http to another machine are refused unless `insecure: true`.
 */
export async function loadConnection(options: LoadConnectionOptions): Promise<ConnectionConfig> {
  const cwd = options.cwd ?? process.cwd();
  const file = options.configPath ? resolve(cwd, options.configPath) : findConfigFile(cwd);
  if (options.configPath && !(await existing(file!))) throw configError(`config file ${options.configPath} not found`);
  if (!file) {
    if (options.envName)
      throw configError(
        `--env ${options.envName} given, but there is no ${CONFIG_FILE_NAME} in ${cwd} or above it in its repository (use --config FILE)`,
      );
    return fromEnvironment(options.env, cwd, options.platform !== false, options.routing === true);
  }
  return fromFile(file, options);
}

async function fromFile(file: string, options: LoadConnectionOptions): Promise<ConnectionConfig> {
  let document: unknown;
  const text = await readRegularFile(file).catch((error: Error) => {
    throw configError(`cannot read ${file}: ${error.message}`);
  });
  try {
    document = restoreReferences(yamlPackage().parse(protectReferences(text)));
  } catch (error) {
    throw configError(`${file}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const environments =
    isPlainObject(document) && isPlainObject(document['environments']) ? document['environments'] : undefined;
  if (!environments || Object.keys(environments).length === 0) throw configError(`${file}: no "environments" mapping`);
  const names = Object.keys(environments);
  const name = options.envName ?? (names.length === 1 ? names[0]! : undefined);
  if (!name)
    throw configError(`${file} defines several environments (${names.join(', ')}): choose one with --env NAME`);
  const raw = environments[name];
  if (!isPlainObject(raw)) throw configError(`${file}: environment "${name}" not found (defined: ${names.join(', ')})`);
  const at = `environments.${name}`;
  const merged = withEnvironmentOverrides(raw, options.env, at);
  const { value, missing } = interpolate(merged.raw, options.env, at);
  const required = requiredMissing(value as Record<string, unknown>, missing, at);
  const problems = [...merged.conflicts, ...required.map((m) => `${m.at}: environment variable ${m.name} is not set`)];
  const naming = fileNames(at);
  const config = readEnvironment(
    value as Record<string, unknown>,
    naming,
    dirname(file),
    problems,
    options.platform !== false,
  );
  const overridden = merged.overrides.length > 0 ? `; ${merged.overrides.join('; ')}` : '';
  return finish(config, `${file} (env ${name})${overridden}`, naming, problems, options.routing === true);
}

function readEnvironment(
  raw: Record<string, unknown>,
  names: SettingNames,
  baseDir: string,
  problems: string[],
  platform: boolean,
): Omit<ConnectionConfig, 'source'> {
  unknownKeys(raw, ENV_KEYS, names.of(''), problems);
  // Without platform documents, the platform's url and auth are checked only when given.
  const needed = platform || raw['url'] !== undefined;
  const url = needed ? requiredString(raw['url'], names.of('url'), problems) : undefined;
  const instance = optionalString(raw['instance'], names.of('instance'), problems);
  const auth = needed ? readAuth(raw['auth'], 'auth', names, problems, true) : undefined;
  const caFile = optionalString(raw['caFile'], names.of('caFile'), problems);
  const insecure = optionalBoolean(raw['insecure'], names.of('insecure'), problems);
  const timeoutMs = optionalTimeout(raw['timeoutMs'], names.of('timeoutMs'), problems);
  const brandingReadPath = readBrandingPath(raw['brandingReadPath'], names.of('brandingReadPath'), problems);
  let routingEngine: RoutingEngineConnection | undefined;
  if (raw['routingEngine'] !== undefined) {
    const re = raw['routingEngine'];
    if (!isPlainObject(re)) problems.push(`${names.of('routingEngine')}: expected a mapping`);
    else {
      unknownKeys(re, RE_KEYS, names.of('routingEngine.'), problems);
      const reCa = optionalString(re['caFile'], names.of('routingEngine.caFile'), problems);
      const reInsecure = optionalBoolean(re['insecure'], names.of('routingEngine.insecure'), problems);
      const reTimeout = optionalTimeout(re['timeoutMs'], names.of('routingEngine.timeoutMs'), problems);
      routingEngine = {
        url: requiredString(re['url'], names.of('routingEngine.url'), problems) ?? '',
        auth: readAuth(re['auth'], 'routingEngine.auth', names, problems, false) ?? { token: '' },
        ...(reCa ? { caFile: resolve(baseDir, reCa) } : {}),
        ...(reInsecure === undefined ? {} : { insecure: reInsecure }),
        ...(reTimeout === undefined ? {} : { timeoutMs: reTimeout }),
      };
    }
  }
  return {
    url: url ?? '',
    ...(instance ? { instance } : {}),
    auth: auth ?? { token: '' },
    ...(routingEngine ? { routingEngine } : {}),
    ...(caFile ? { caFile: resolve(baseDir, caFile) } : {}),
    ...(insecure === undefined ? {} : { insecure }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(brandingReadPath ? { brandingReadPath } : {}),
  };
}

/** A path below `P/groups/{uuid}/`: segments only, no query, no way out of the group. */
function readBrandingPath(value: unknown, at: string, problems: string[]): string | undefined {
  const text = optionalString(value, at, problems)?.replace(/^\/+|\/+$/g, '');
  if (!text) return undefined;
  if (/[?#\s]/.test(text) || text.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    problems.push(`${at}: expected a path below the group such as configurations/pages, not ${JSON.stringify(value)}`);
    return undefined;
  }
  return text;
}

function readAuth(
  raw: unknown,
  at: string,
  names: SettingNames,
  problems: string[],
  allowTotp: boolean,
): ConnectionAuth | undefined {
  const given = (key: string) => isPlainObject(raw) && raw[key] !== undefined;
  if (!isPlainObject(raw) || !['username', 'password', 'token', 'totpSecret'].some(given)) {
    problems.push(names.missingCredentials(at, allowTotp));
    return undefined;
  }
  const name = (key: string) => names.of(`${at}.${key}`);
  unknownKeys(
    raw,
    new Set(['username', 'password', 'token', ...(allowTotp ? ['totpSecret'] : [])]),
    names.of(`${at}.`),
    problems,
  );
  const token = optionalString(raw['token'], name('token'), problems);
  if (token !== undefined) {
    if (given('username') || given('password'))
      problems.push(`give either ${name('token')} or ${name('username')}/${name('password')}, not both`);
    return { token };
  }
  const username = requiredString(raw['username'], name('username'), problems);
  const password = requiredString(raw['password'], name('password'), problems);
  const totpSecret = optionalString(raw['totpSecret'], name('totpSecret'), problems);
  if (totpSecret !== undefined && !isValidBase32(totpSecret))
    problems.push(`${name('totpSecret')}: not a base32 secret (letters A-Z and digits 2-7)`);
  if (username === undefined || password === undefined) return undefined;
  return { username, password, ...(totpSecret ? { totpSecret } : {}) };
}

function fromEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  platform: boolean,
  routing: boolean,
): Promise<ConnectionConfig> {
  const pick = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  if (!pick('SWITCHBOARD_URL') && (platform || !pick('SWITCHBOARD_RE_URL'))) {
    throw configError(
      `no ${CONFIG_FILE_NAME} in ${cwd} and SWITCHBOARD_URL is not set: create the file (see docs) or set SWITCHBOARD_URL and credentials`,
    );
  }
  const problems: string[] = [];
  const raw: Record<string, unknown> = {
    url: pick('SWITCHBOARD_URL'),
    instance: pick('SWITCHBOARD_INSTANCE'),
    auth: authFromEnv(pick, 'SWITCHBOARD_', { totpSecret: pick('SWITCHBOARD_TOTP_SECRET') }),
    caFile: pick('SWITCHBOARD_CA_FILE'),
    insecure: booleanVariable(pick('SWITCHBOARD_INSECURE'), 'SWITCHBOARD_INSECURE', problems),
    timeoutMs: pick('SWITCHBOARD_TIMEOUT_MS'),
    brandingReadPath: pick('SWITCHBOARD_BRANDING_READ_PATH'),
  };
  if (pick('SWITCHBOARD_RE_URL')) {
    raw['routingEngine'] = {
      url: pick('SWITCHBOARD_RE_URL'),
      auth: authFromEnv(pick, 'SWITCHBOARD_RE_', {}),
      caFile: pick('SWITCHBOARD_RE_CA_FILE'),
      insecure: booleanVariable(pick('SWITCHBOARD_RE_INSECURE'), 'SWITCHBOARD_RE_INSECURE', problems),
      timeoutMs: pick('SWITCHBOARD_RE_TIMEOUT_MS'),
    };
  }
  const config = readEnvironment(dropUndefined(raw), environmentNames, cwd, problems, platform);
  return finish(config, 'environment variables', environmentNames, problems, routing);
}

function authFromEnv(
  pick: (name: string) => string | undefined,
  prefix: string,
  extra: Record<string, string | undefined>,
): Record<string, unknown> {
  return dropUndefined({
    token: pick(`${prefix}TOKEN`),
    username: pick(`${prefix}USERNAME`),
    password: pick(`${prefix}PASSWORD`),
    ...extra,
  });
}

async function finish(
  config: Omit<ConnectionConfig, 'source'>,
  source: string,
  names: SettingNames,
  problems: string[],
  routing: boolean,
): Promise<ConnectionConfig> {
  checkUrl(config.url, config.insecure === true, 'url', names, problems);
  if (config.routingEngine)
    checkUrl(config.routingEngine.url, config.routingEngine.insecure === true, 'routingEngine.url', names, problems);
  else if (routing) problems.push(names.missingRoutingEngine());
  for (const [key, ca] of [
    ['caFile', config.caFile],
    ['routingEngine.caFile', config.routingEngine?.caFile],
  ] as const) {
    if (ca && !(await existing(ca))) problems.push(`${names.of(key)}: ${ca} not found`);
  }
  registerCredentials(config.auth);
  if (config.routingEngine) registerCredentials(config.routingEngine.auth);
  if (problems.length > 0) throw configError(`${source}:\n  ${problems.join('\n  ')}`);
  return { ...config, source };
}

/**
 * Every credential of the configuration goes to the secrets registry, whether or not this
 * run uses it: no output shows it. The Basic form too, which an engine may echo as a header.
 */
function registerCredentials(auth: ConnectionAuth | RoutingEngineConnection['auth']): void {
  if ('token' in auth) registerSecret(auth.token);
  else {
    registerSecret(auth.password);
    registerSecret(Buffer.from(`${auth.username}:${auth.password}`).toString('base64'));
    if ('totpSecret' in auth) registerSecret(auth.totpSecret);
  }
}

function checkUrl(text: string, insecure: boolean, key: string, names: SettingNames, problems: string[]): void {
  const what = names.of(key);
  if (!text) return;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not echoed as given: what looks like a user and password in it stays out of the message.
    problems.push(`${what}: ${JSON.stringify(text.replace(/\/\/.*@/, '//…@'))} is not a URL`);
    return;
  }
  // The URL is recorded (plan files, journals, reports): credentials in it would be written in clear wherever it is.
  if (url.username || url.password) {
    problems.push(
      `${what}: a URL with a user or password in it is refused (it is written in plan files and journals): ` +
        'give the credentials as auth, or in their environment variables (docs/connecting.md)',
    );
    return;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') problems.push(`${what}: must be an http or https URL`);
  else if (url.protocol === 'http:' && !insecure && !isLoopbackHost(url.hostname)) {
    problems.push(
      `${what}: ${url.origin} uses plain http, so credentials would travel unencrypted; use https, or ${names.allowPlainHttp(key)}`,
    );
  }
}

function configError(message: string): SwitchboardError {
  return new SwitchboardError('SB_CONFIG', message);
}

async function existing(path: string): Promise<string | undefined> {
  try {
    await access(path);
    return path;
  } catch {
    return undefined;
  }
}

function dropUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

/** `prefix` ends with the separator (`environments.prod.`, `environments.prod.auth.`). */
function unknownKeys(raw: Record<string, unknown>, allowed: Set<string>, prefix: string, problems: string[]): void {
  for (const key of Object.keys(raw))
    if (!allowed.has(key))
      problems.push(`${prefix}${key}: unknown setting (expected one of ${[...allowed].join(', ')})`);
}

function requiredString(value: unknown, at: string, problems: string[]): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  problems.push(value === undefined || value === '' ? `${at}: required` : `${at}: expected a string`);
  return undefined;
}

function optionalString(value: unknown, at: string, problems: string[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number') return String(value);
  problems.push(`${at}: expected a string`);
  return undefined;
}

/** Milliseconds, as a number or (from a variable) its text: a whole number from 1 to an hour. */
function optionalTimeout(value: unknown, at: string, problems: string[]): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_TIMEOUT_MS) return n;
  problems.push(
    `${at}: expected a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not ${JSON.stringify(value)}`,
  );
  return undefined;
}

function optionalBoolean(value: unknown, at: string, problems: string[]): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  problems.push(`${at}: expected true or false`);
  return undefined;
}
