/**
 * The platform simulator as a separate process (`switchboard sim --latency L`), so the
 * CLI's CPU and memory are measured apart from the server's, plus the few control and API
 * calls the scenarios need to seed it and read its request counts.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Agent, request } from 'undici';
import { CLI } from './cli.mjs';

/** A free loopback port (listen on 0, close, hand the number over). */
export async function freePort() {
  const server = createServer();
  await new Promise((res) => server.listen(0, '127.0.0.1', res));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  await new Promise((res) => server.close(res));
  return port;
}

/**
 * @param {{ latencyMs: number, rateLimit?: number, nodeArgs?: string[] }} options
 */
export async function startPlatformSim(options) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      CLI,
      'sim',
      '--port',
      String(port),
      '--latency',
      String(options.latencyMs),
      ...(options.rateLimit ? ['--rate-limit', String(options.rateLimit)] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((res, rej) => {
    let text = '';
    child.stdout.on('data', (b) => {
      text += String(b);
      if (text.includes('Simulator listening')) res(undefined);
    });
    child.once('exit', (code) => rej(new Error(`switchboard sim exited with ${code} before listening: ${text}`)));
  });
  child.stdout.resume();
  const url = `http://127.0.0.1:${port}`;
  const agent = new Agent({ connections: 64 });
  const control = async (method, path, body) => {
    const res = await request(`${url}${path}`, {
      method,
      dispatcher: agent,
      ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    });
    const json = await res.body.json();
    if (res.statusCode >= 300) throw new Error(`${method} ${path} → ${res.statusCode}: ${JSON.stringify(json)}`);
    return json;
  };
  return {
    url,
    agent,
    /** Replaces the simulator's data with this seed (and zeroes its request counters). */
    reset: (seed) => control('POST', '/_sim/reset', seed),
    /** @returns {Promise<{ total: number, byRoute: Record<string, number>, rateLimited: { platform: number, routingEngine: number } }>} */
    stats: () => control('GET', '/_sim/stats'),
    clearStats: () => control('DELETE', '/_sim/stats'),
    state: () => control('GET', '/_sim/state'),
    async close() {
      await agent.close();
      child.kill('SIGTERM');
      await new Promise((res) => (child.exitCode !== null ? res(undefined) : child.once('exit', res)));
    },
  };
}

/**
 * A minimal API session as a script would hold one: logs in as admin and logs in again
 * when the 2-minute access token expires (Doc 1 §8). Counts every request it sends.
 */
export class ApiSession {
  /** @param {string} url @param {Agent} agent */
  constructor(url, agent) {
    this.url = url;
    this.agent = agent;
    this.token = '';
    this.requests = 0;
  }

  async login() {
    const res = await this.#send('POST', '/api/v01/auth/login', { username: 'admin', password: 'admin' }, false);
    this.token = /** @type {{ access_token: string }} */ (res.body).access_token;
  }

  /** @returns {Promise<{ status: number, body: unknown }>} */
  async call(method, path, body) {
    const first = await this.#send(method, path, body, true);
    if (first.status !== 401) return first;
    await this.login();
    return this.#send(method, path, body, true);
  }

  async #send(method, path, body, auth) {
    this.requests++;
    const headers = {
      ...(auth ? { authorization: `Bearer ${this.token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    };
    const res = await request(`${this.url}${path}`, {
      method,
      headers,
      dispatcher: this.agent,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
  }
}
