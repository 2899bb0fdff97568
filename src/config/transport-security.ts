import { isIP } from 'node:net';
import { SwitchboardError } from '../core/errors.js';

/** Whether `hostname` (as URL.hostname gives it) is this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(host);
  return false;
}

/**
 * Credentials and tokens never travel in clear text to another machine: plain `http://`
 * is accepted for loopback (the simulator, tunnels) or when `insecure: true` says so.
 */
export function assertSecureTransport(url: URL, insecure: boolean, what: string): void {
  if (url.protocol === 'https:' || insecure || isLoopbackHost(url.hostname)) return;
  throw new SwitchboardError(
    'SB_CONFIG_INSECURE_URL',
    `${what} ${url.origin} uses plain http: credentials would travel unencrypted; use https, or set insecure: true for this environment if you accept that`,
  );
}
