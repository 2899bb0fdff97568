/**
 * Transport security through the real CLI: the simulator behind a TLS endpoint
 * with a self-signed certificate. Verification is on by default and its failure names
 * `caFile` and `insecure`; `caFile` (SWITCHBOARD_CA_FILE) works; credentials never go over
 * plain http to anything but loopback unless the environment says insecure.
 * (test/api/tls.test.ts covers the client alone.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { cli, simEnv } from './support/cli.js';
import { EXAMPLES } from './support/estate.js';

let sim: RunningSimulator;
let tls: Server;
let httpsUrl: string;
let caFile: string;
let handshakes = 0;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, host: '0.0.0.0' });
  const dir = mkdtempSync(join(tmpdir(), 'sb-transport-'));
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
  // A TLS front for the simulator (it speaks plain http): what a real platform looks like.
  tls = createHttpsServer({ key: readFileSync(keyFile), cert: readFileSync(caFile) }, (req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: sim.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  tls.on('secureConnection', () => (handshakes += 1));
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  httpsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
});
afterAll(async () => {
  tls.closeAllConnections();
  await new Promise((resolve) => tls.close(resolve));
  await sim.close();
});

const tenantsOnly = join(EXAMPLES, 'tenants', 'globex.yaml');

describe('reliability: transport security', () => {
  it('docs/connecting.md: a self-signed certificate is refused by default, naming caFile and insecure; nothing is sent', async () => {
    const run = await cli(['plan', tenantsOnly], { env: simEnv(httpsUrl) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/certificate/i);
    expect(run.stderr).toMatch(/caFile/);
    expect(run.stderr).toMatch(/insecure/);
    expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(handshakes).toBe(0);
  });

  it('docs/connecting.md: SWITCHBOARD_CA_FILE trusts the certificate; SWITCHBOARD_INSECURE=true skips verification', async () => {
    const trusted = await cli(['plan', tenantsOnly], { env: { ...simEnv(httpsUrl), SWITCHBOARD_CA_FILE: caFile } });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toMatch(/Plan:|No changes/);
    const insecure = await cli(['plan', tenantsOnly], { env: { ...simEnv(httpsUrl), SWITCHBOARD_INSECURE: 'true' } });
    expect(insecure.code, insecure.stderr).toBe(0);
    expect(handshakes).toBeGreaterThan(0);
  });

  it('docs/connecting.md: credentials are refused over plain http to a non-loopback address unless insecure; loopback is allowed', async () => {
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    const remote = lan ? `http://${lan}:${sim.port}` : 'http://192.0.2.1:8080';
    const refused = await cli(['plan', tenantsOnly], { env: simEnv(remote) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/plain http/i);
    expect(refused.stderr).toMatch(/set SWITCHBOARD_INSECURE=true/); // the variable the user sets, not the config key
    expect(refused.stderr).not.toContain('admin'); // the refusal does not echo the credentials
    const loopback = await cli(['plan', tenantsOnly], { env: simEnv(sim.url.replace('0.0.0.0', '127.0.0.1')) });
    expect(loopback.code, loopback.stderr).toBe(0);
    if (lan) {
      const allowed = await cli(['plan', tenantsOnly], {
        env: { ...simEnv(remote), SWITCHBOARD_INSECURE: 'true', SWITCHBOARD_RE_INSECURE: 'true' },
      });
      expect(allowed.code, allowed.stderr).toBe(0);
    }
  });
});
