/** Test helpers: a simulator on a loopback port and small fetch wrappers (no project client). */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/sim/index.js';

export const P = '/api/v01/draas/demo';

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export class SimClient {
  constructor(
    readonly sim: RunningSimulator,
    public token?: string,
  ) {}

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const res = await fetch(this.sim.url + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.call<T>('GET', path);
  }
  post<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.call<T>('POST', path, body ?? {});
  }
  put<T = Record<string, unknown>>(path: string, body?: unknown) {
    return this.call<T>('PUT', path, body ?? {});
  }
  delete<T = Record<string, unknown>>(path: string) {
    return this.call<T>('DELETE', path);
  }
}

export async function startTestSim(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ port: 0, ...options });
}

/**
 * One simulator for the test file, reset to the default data set before each test (or
 * handed to `eachTest`, which then owns the reset). `onStart` receives it once started.
 */
export function useTestSim(
  onStart: (sim: RunningSimulator) => void,
  eachTest?: (sim: RunningSimulator) => Promise<void>,
): void {
  let sim: RunningSimulator | undefined;
  beforeAll(async () => {
    const started = await startTestSim();
    sim = started;
    onStart(started);
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(async () => {
    if (!sim) return;
    if (eachTest) await eachTest(sim);
    else await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
  });
}

/** Logs in (no 2FA expected) and returns a client carrying the access token. */
export async function loginAs(sim: RunningSimulator, username: string, password = username): Promise<SimClient> {
  const anon = new SimClient(sim);
  const res = await anon.post<{ access_token?: string }>('/api/v01/auth/login', { username, password });
  if (res.status !== 200 || !res.body.access_token)
    throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return new SimClient(sim, res.body.access_token);
}

export async function uuidOf(
  client: SimClient,
  kind: 'groups' | 'resellers' | 'tenants',
  name: string,
): Promise<string> {
  const state = (await fetch(`${client.sim.url}/_sim/state`).then((r) => r.json())) as {
    tables: Record<string, { uuid: string; name: string }[]>;
  };
  const row = state.tables[kind]?.find((r) => r.name === name);
  if (!row) throw new Error(`${kind} ${name} not in the simulator`);
  return row.uuid;
}
