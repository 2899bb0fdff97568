import { Agent, request } from 'undici';
import type { NotifyOutcome } from './types.js';

/** How a POST is retried inside the notification's bound. */
export interface SendOptions {
  /** The whole bound: attempts, waits and retries end before it (ms). */
  timeoutMs: number;
  /** Attempts at most (default 4). */
  attempts?: number;
  /** First wait before a retry without Retry-After (default 250 ms, doubled each time). */
  backoffMs?: number;
}

/** The body read of an answer, at most: enough for a receiver's error message, never a flood. */
const MAX_ANSWER_BYTES = 4096;

/**
 * POSTs `body` (JSON text) to `url`, and retries on an overloaded or failing receiver (429,
 * 5xx, no answer) as long as the bound allows: a retry starts only when it can start before
 * the bound, after the receiver's Retry-After (seconds) or an exponential backoff. Every
 * attempt is cut at the bound, whatever the receiver does (a receiver that never answers
 * costs the bound, no more), and the connection pool is destroyed at the end so that
 * nothing of it keeps the process alive. Never throws: the outcome says what happened.
 */
export async function postWithin(url: string, body: string, options: SendOptions): Promise<NotifyOutcome> {
  const deadline = performance.now() + options.timeoutMs;
  const remaining = () => Math.max(0, deadline - performance.now());
  const agent = new Agent({ connect: { timeout: options.timeoutMs }, pipelining: 0 });
  const most = options.attempts ?? 4;
  let last: NotifyOutcome = { delivered: false, attempts: 0, reason: 'not sent' };
  try {
    for (let attempt = 1; attempt <= most; attempt++) {
      const left = Math.ceil(remaining());
      if (left <= 0) return { ...last, reason: `${last.reason}; no time left within ${options.timeoutMs} ms` };
      const answer = await attemptPost(url, body, agent, left, options.timeoutMs);
      last = { ...answer.outcome, attempts: attempt };
      if (last.delivered || !answer.retryable) return last;
      const wait = answer.retryAfterMs ?? (options.backoffMs ?? 250) * 2 ** (attempt - 1);
      if (attempt === most) break;
      if (wait >= remaining()) {
        return { ...last, reason: `${last.reason}; a retry would end after the ${options.timeoutMs} ms bound` };
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    return { ...last, reason: `${last.reason}; gave up after ${last.attempts} attempts` };
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}

interface Attempt {
  outcome: Omit<NotifyOutcome, 'attempts'>;
  retryable: boolean;
  retryAfterMs?: number;
}

/**
 * One POST, cut after `timeoutMs`: what is left of the notification's `bound`, which a
 * timeout names (the user set the bound; what was left of it depends on the machine's pace).
 */
async function attemptPost(
  url: string,
  body: string,
  agent: Agent,
  timeoutMs: number,
  bound: number,
): Promise<Attempt> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'switchboard' },
      dispatcher: agent,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await readSome(response.body, signal);
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { outcome: { delivered: true, status }, retryable: false };
    const retryable = status === 429 || status >= 500;
    const retryAfterMs = retryAfter(response.headers['retry-after']);
    const said = text.trim() ? `: ${text.trim().slice(0, 200)}` : '';
    return {
      outcome: { delivered: false, status, reason: `answered ${status}${said}` },
      retryable,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  } catch (error) {
    const reason = signal.aborted
      ? `no answer within ${bound} ms`
      : `no answer: ${error instanceof Error ? error.message : String(error)}`;
    return { outcome: { delivered: false, reason }, retryable: !signal.aborted };
  }
}

/** The first bytes of an answer (the rest is dropped): a receiver's message, bounded. */
async function readSome(stream: AsyncIterable<Buffer> & { destroy(): void }, signal: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      if (signal.aborted) break;
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_ANSWER_BYTES) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
}

/** `Retry-After` in seconds (an HTTP date is read as no advice: the backoff applies). */
function retryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value) * 1000;
}
