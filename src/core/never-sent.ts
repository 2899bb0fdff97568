/**
 * Network failures that happen before a request leaves this machine (no connection, no
 * name, no route, no TLS handshake finished): whatever was asked, nothing reached the server.
 * Any other failure of a sent request leaves its outcome unknown.
 */
const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** True when `code` (an error's `code`, found along its causes) says nothing was sent. */
export function isConnectFailure(code: unknown): boolean {
  return typeof code === 'string' && CONNECT_FAILURES.has(code);
}
