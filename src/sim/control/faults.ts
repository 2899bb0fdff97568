/**
 * Injected faults and latency (docs/simulator.md: `POST /_sim/faults`, `--latency`,
 * `--fault-rate`). They apply to platform and routing-engine requests, never to `/_sim/`.
 * A fault answers one of `statuses` (429 with `Retry-After: 1`) or, when
 * `resetConnections` is on, may instead destroy the socket without an answer. `malformed`
 * spoils a share of the platform's real answers (malformed.ts).
 */
import type { ServerResponse } from 'node:http';
import { sendJson } from '../http.js';
import { MALFORMED_KINDS, type MalformedKind } from './malformed.js';

export interface FaultConfig {
  /** Probability (0..1) that a request fails. */
  rate: number;
  statuses: number[];
  /** Added to every platform request (on top of `--latency`). */
  latencyMs: number;
  resetConnections: boolean;
  /** Probability (0..1) that a platform answer is spoiled after the request took effect (malformed.ts). */
  malformed: number;
  /** Which spoilings `malformed` draws from (default: all of MALFORMED_KINDS). */
  malformedKinds: MalformedKind[];
}

const DEFAULT_FAULT_STATUSES = [500, 503, 429];

export function defaultFaults(rate = 0): FaultConfig {
  return {
    rate,
    statuses: [...DEFAULT_FAULT_STATUSES],
    latencyMs: 0,
    resetConnections: false,
    malformed: 0,
    malformedKinds: [...MALFORMED_KINDS],
  };
}

/** Validates a `POST /_sim/faults` body; missing fields fall back to the defaults. */
export function parseFaults(body: unknown): FaultConfig | string {
  if (typeof body !== 'object' || body === null) return 'body must be a JSON object';
  const b = body as Record<string, unknown>;
  const out = defaultFaults();
  if (b['rate'] !== undefined) {
    if (typeof b['rate'] !== 'number' || b['rate'] < 0 || b['rate'] > 1) return 'rate must be a number between 0 and 1';
    out.rate = b['rate'];
  }
  if (b['statuses'] !== undefined) {
    const s = b['statuses'];
    if (!Array.isArray(s) || s.length === 0 || !s.every((x) => Number.isInteger(x) && x >= 400 && x <= 599))
      return 'statuses must be a non-empty array of HTTP error statuses';
    out.statuses = s as number[];
  }
  if (b['latencyMs'] !== undefined) {
    if (typeof b['latencyMs'] !== 'number' || b['latencyMs'] < 0) return 'latencyMs must be a non-negative number';
    out.latencyMs = b['latencyMs'];
  }
  if (b['resetConnections'] !== undefined) out.resetConnections = b['resetConnections'] === true;
  if (b['malformed'] !== undefined) {
    if (typeof b['malformed'] !== 'number' || b['malformed'] < 0 || b['malformed'] > 1)
      return 'malformed must be a number between 0 and 1';
    out.malformed = b['malformed'];
  }
  if (b['malformedKinds'] !== undefined) {
    const k = b['malformedKinds'];
    if (!Array.isArray(k) || k.length === 0 || !k.every((x) => (MALFORMED_KINDS as readonly unknown[]).includes(x)))
      return `malformedKinds must be a non-empty array of ${MALFORMED_KINDS.join(', ')}`;
    out.malformedKinds = k as MalformedKind[];
  }
  return out;
}

export type FaultOutcome = { kind: 'none' } | { kind: 'status'; status: number } | { kind: 'reset' };

export function drawFault(config: FaultConfig, random: () => number = Math.random): FaultOutcome {
  if (config.rate <= 0 || random() >= config.rate) return { kind: 'none' };
  const choices = config.resetConnections ? config.statuses.length + 1 : config.statuses.length;
  const pick = Math.floor(random() * choices);
  if (pick >= config.statuses.length) return { kind: 'reset' };
  return { kind: 'status', status: config.statuses[pick] as number };
}

export function sendFault(res: ServerResponse, outcome: Exclude<FaultOutcome, { kind: 'none' }>): void {
  if (outcome.kind === 'reset') {
    res.socket?.destroy();
    return;
  }
  const headers: Record<string, string> = outcome.status === 429 ? { 'retry-after': '1' } : {};
  sendJson(
    res,
    outcome.status,
    {
      error: {
        status: outcome.status,
        code: 'injected_fault',
        message: 'fault injected by the simulator (/_sim/faults)',
      },
    },
    headers,
  );
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
