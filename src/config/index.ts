export { CONFIG_FILE_NAME, findConfigFile, loadConnection, projectRoot } from './load-connection.js';
export type {
  ConnectionAuth,
  ConnectionConfig,
  LoadConnectionOptions,
  RoutingEngineConnection,
} from './load-connection.js';
export { interpolate, type MissingVariable } from './interpolate.js';
export { assertSecureTransport, isLoopbackHost } from './transport-security.js';
