import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../src/api/index.js';

let server: Server;
let url: string;
let caFile: string;
let tlsAttempts = 0;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-tls-'));
  caFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      caFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  server = createServer({ key: readFileSync(keyFile), cert: readFileSync(caFile) }, (req, res) => {
    const body =
      req.url === '/api/v01/auth/login'
        ? { access_token: 'a', refresh_token: 'r' }
        : { username: 'admin', properties: { draas_instance: 'demo' }, profile: { api_rules: [] } };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  server.on('connection', () => (tlsAttempts += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('TLS', () => {
  it('verifies certificates: an unknown CA fails at once with SB_API_NETWORK saying to set caFile', async () => {
    const error = (await ApiClient.connect({ baseUrl: url, auth: { username: 'admin', password: 'admin' } }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'SB_API_NETWORK', retryable: false });
    expect(error.message).toContain('caFile');
    expect(tlsAttempts).toBe(1);
  });

  it('trusts the CA given as caFile', async () => {
    const client = await ApiClient.connect({ baseUrl: url, auth: { username: 'admin', password: 'admin' }, caFile });
    expect(client.instance).toBe('demo');
    await client.close();
  });

  it('insecure: true skips verification', async () => {
    const client = await ApiClient.connect({
      baseUrl: url,
      auth: { username: 'admin', password: 'admin' },
      insecure: true,
    });
    expect(client.paths.P).toBe('/api/v01/draas/demo');
    await client.close();
  });

  it('refuses credentials over plain http to another host unless insecure', async () => {
    const error = await ApiClient.connect({ baseUrl: 'http://provisioning.example.net', auth: { token: 't' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'SB_CONFIG_INSECURE_URL' });
  });
});
