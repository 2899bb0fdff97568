import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoutingClient } from '../../src/routing/index.js';
import { startRoutingEngineSim, type RoutingSimServer } from '../../src/sim/routing/index.js';
import { BASIC_AUTH, ROUTES, routesSeed } from './helpers.js';

let dir: string;
let server: RoutingSimServer;

/** A throw-away CA and a server certificate for 127.0.0.1 / localhost, made with openssl. */
function makeCertificates(where: string): void {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: where, stdio: 'pipe' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=switchboard test CA',
  );
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  writeFileSync(join(where, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-routing-tls-'));
  makeCertificates(dir);
  server = await startRoutingEngineSim({
    seed: routesSeed(150),
    tlsCert: join(dir, 'server.pem'),
    tlsKey: join(dir, 'server.key'),
  });
}, 30_000);
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('routing client over HTTPS (Doc3 §5, §8: TLS 1.2 only)', () => {
  it('docs/connecting.md: verifies the engine against a custom CA file', async () => {
    expect(server.url).toMatch(/^https:/);
    const c = new RoutingClient({ url: server.url, auth: BASIC_AUTH, caFile: join(dir, 'ca.pem') });
    try {
      expect((await c.readAll(ROUTES)).rows).toHaveLength(150);
    } finally {
      await c.close();
    }
  });

  it('refuses an engine whose certificate the system CAs do not vouch for, with a stable code', async () => {
    const c = new RoutingClient({ url: server.url, auth: BASIC_AUTH, retries: 0 });
    try {
      const error = await c.listPage(ROUTES).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'SB_ROUTING_NETWORK',
        status: 0,
        retryable: false,
        serverMessage: expect.stringMatching(/TLS failure/),
      });
    } finally {
      await c.close();
    }
  });

  it('the simulator speaks TLS 1.2 and nothing newer', async () => {
    const attempt = (minVersion: 'TLSv1.2' | 'TLSv1.3') =>
      new Promise<string>((resolve) => {
        const socket = connect({
          host: '127.0.0.1',
          port: server.port,
          ca: readFileSync(join(dir, 'ca.pem')),
          minVersion,
          servername: 'localhost',
        });
        socket.once('secureConnect', () => {
          resolve(socket.getProtocol() ?? '');
          socket.end();
        });
        socket.once('error', () => resolve('failed'));
      });
    expect(await attempt('TLSv1.2')).toBe('TLSv1.2');
    expect(await attempt('TLSv1.3')).toBe('failed');
  });
});
