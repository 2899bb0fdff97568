import { CONNECTION_CREDENTIAL_VARIABLES } from '../core/credential-variables.js';

/**
 * How a configuration problem names the setting at fault: the key of the config file
 * (`environments.prod.auth.password`) when the connection came from the file, the
 * environment variable the user sets (`SWITCHBOARD_PASSWORD`) when it came from the
 * environment. Messages are written once, in terms of config keys relative to one
 * environment (`auth.password`, `routingEngine.url`), and named by one of these.
 */
export interface SettingNames {
  /** The user-facing name of a setting (`url`, `auth.username`, `routingEngine.insecure`…). */
  of(key: string): string;
  /** What to give when no credentials were given at all (`auth` or `routingEngine.auth`). */
  missingCredentials(authKey: string, allowTotp: boolean): string;
  /** How to accept plain http for `url` or `routingEngine.url`. */
  allowPlainHttp(urlKey: string): string;
  /** What to set when the manifests declare routing tables and no routing engine is configured. */
  missingRoutingEngine(): string;
}

const ROUTING_TABLES = 'the manifests declare RoutingTable documents';

/** Names inside a config file: `environments.<name>.<key>`. */
export function fileNames(at: string): SettingNames {
  return {
    of: (key) => `${at}.${key}`,
    missingCredentials: (authKey, allowTotp) =>
      `${at}.${authKey}: expected { username, password${allowTotp ? ', totpSecret?' : ''} } or { token }`,
    allowPlainHttp: (urlKey) => `set ${at}.${urlKey.replace(/url$/, 'insecure')}: true if you accept that`,
    missingRoutingEngine: () => `${at}.routingEngine: required, as { url, auth } (${ROUTING_TABLES})`,
  };
}

/** The environment variable of each setting (docs/connecting.md). */
export const ENVIRONMENT_VARIABLES: Readonly<Record<string, string>> = {
  url: 'SWITCHBOARD_URL',
  instance: 'SWITCHBOARD_INSTANCE',
  ...CONNECTION_CREDENTIAL_VARIABLES,
  'auth.username': 'SWITCHBOARD_USERNAME',
  caFile: 'SWITCHBOARD_CA_FILE',
  insecure: 'SWITCHBOARD_INSECURE',
  timeoutMs: 'SWITCHBOARD_TIMEOUT_MS',
  brandingReadPath: 'SWITCHBOARD_BRANDING_READ_PATH',
  'routingEngine.url': 'SWITCHBOARD_RE_URL',
  'routingEngine.auth.username': 'SWITCHBOARD_RE_USERNAME',
  'routingEngine.caFile': 'SWITCHBOARD_RE_CA_FILE',
  'routingEngine.insecure': 'SWITCHBOARD_RE_INSECURE',
  'routingEngine.timeoutMs': 'SWITCHBOARD_RE_TIMEOUT_MS',
};

/** Names when the connection comes from `SWITCHBOARD_*` variables. */
export const environmentNames: SettingNames = {
  of: (key) => ENVIRONMENT_VARIABLES[key] ?? key,
  missingCredentials: (authKey) => {
    const v = (field: string) => ENVIRONMENT_VARIABLES[`${authKey}.${field}`] ?? field;
    return `no credentials: set ${v('username')} and ${v('password')}, or ${v('token')}`;
  },
  allowPlainHttp: (urlKey) =>
    `set ${ENVIRONMENT_VARIABLES[urlKey.replace(/url$/, 'insecure')] ?? 'insecure'}=true if you accept that`,
  missingRoutingEngine: () =>
    `${ROUTING_TABLES}: set SWITCHBOARD_RE_URL, and SWITCHBOARD_RE_USERNAME and SWITCHBOARD_RE_PASSWORD or SWITCHBOARD_RE_TOKEN`,
};

/** The values a boolean environment variable accepts. */
const TRUE = /^(1|true|yes)$/i;
const FALSE = /^(0|false|no)$/i;

/** `SWITCHBOARD_INSECURE=…` as a boolean; anything else is a problem naming the variable and its value. */
export function booleanVariable(value: string | undefined, name: string, problems: string[]): boolean | undefined {
  if (value === undefined) return undefined;
  if (TRUE.test(value)) return true;
  if (FALSE.test(value)) return false;
  problems.push(`${name}=${value}: expected true or false (1/0 and yes/no are accepted too)`);
  return undefined;
}
