/**
 * The environment variables that hold switchboard's own credentials (docs/connecting.md,
 * docs/notifications.md), by the setting each gives. They are written once here: the
 * connection settings read them (config/naming.ts), the notifier reads its webhook from one,
 * and a manifest may not read any of them through `${VAR}` (manifest/normalize.ts), which
 * would send the credential to the platform as a field's value, where whoever can read the
 * platform's configuration would find it.
 */
export const CONNECTION_CREDENTIAL_VARIABLES = {
  'auth.token': 'SWITCHBOARD_TOKEN',
  'auth.password': 'SWITCHBOARD_PASSWORD',
  'auth.totpSecret': 'SWITCHBOARD_TOTP_SECRET',
  'routingEngine.auth.token': 'SWITCHBOARD_RE_TOKEN',
  'routingEngine.auth.password': 'SWITCHBOARD_RE_PASSWORD',
} as const;

/** The webhook notifications go to when neither `--notify` nor the file's `notify.url` gives one. */
export const NOTIFY_URL_VARIABLE = 'SWITCHBOARD_NOTIFY_URL';

const CREDENTIALS: ReadonlyMap<string, string> = new Map([
  ...Object.entries(CONNECTION_CREDENTIAL_VARIABLES).map(([setting, name]) => [name, setting] as const),
  [NOTIFY_URL_VARIABLE, 'notify.url'],
]);

/** The setting (`auth.password`, `notify.url`) whose credential the variable `name` holds, if it holds one. */
export function credentialOfVariable(name: string): string | undefined {
  return CREDENTIALS.get(name);
}
