/**
 * Stable diagnostic codes of the manifest loader. Editors and CI annotations key on them;
 * README "Writing manifests" lists them with what to do.
 */
export const Codes = {
  read: 'SB_READ',
  noManifests: 'SB_NO_MANIFESTS',
  tooLarge: 'SB_TOO_LARGE',
  binary: 'SB_BINARY',
  empty: 'SB_EMPTY',
  yaml: 'SB_YAML',
  alias: 'SB_YAML_ALIAS',
  envelope: 'SB_ENVELOPE',
  unknownKind: 'SB_UNKNOWN_KIND',
  apiVersion: 'SB_API_VERSION',
  unknownField: 'SB_UNKNOWN_FIELD',
  ignoredField: 'SB_IGNORED_FIELD',
  required: 'SB_REQUIRED',
  type: 'SB_TYPE',
  value: 'SB_VALUE',
  oneOf: 'SB_ONE_OF',
  envUnset: 'SB_ENV_UNSET',
  envSyntax: 'SB_ENV_SYNTAX',
  csv: 'SB_CSV',
  pathOutsideRoot: 'SB_PATH_OUTSIDE_ROOT',
  duplicate: 'SB_DUPLICATE',
  duplicateBillingId: 'SB_DUPLICATE_BILLING_ID',
  duplicateAdmin: 'SB_DUPLICATE_ADMIN',
  rowKeyMissing: 'SB_ROW_KEY_MISSING',
  duplicateRow: 'SB_DUPLICATE_ROW',
  rowType: 'SB_ROW_TYPE',
  unknownAddress: 'SB_UNKNOWN_ADDRESS',
  rename: 'SB_RENAME',
  duplicateUuid: 'SB_DUPLICATE_UUID',
  policy: 'SB_POLICY_RULE',
  routingTest: 'SB_ROUTING_TEST',
  changeWindow: 'SB_CHANGE_WINDOW_RULE',
} as const;
export type Code = (typeof Codes)[keyof typeof Codes];
