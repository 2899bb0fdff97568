/**
 * Malformed answers (`POST /_sim/faults {"malformed": 0.2}`): a share of platform requests
 * (`/api/…`) is handled for real, then its answer is spoiled on the way out, the way a
 * broken proxy, a crashing server or a misbehaving upgrade would spoil it. The request has
 * taken effect (a POST did create its object): the client must read the answer as an error
 * naming the request and must never act on what it misread.
 *
 * | kind | what the client receives |
 * |---|---|
 * | `truncated` | the first half of the JSON body, with a matching content-length |
 * | `cut` | the headers of the real answer, half the body, then the connection closes |
 * | `html` | an HTML error page (`text/html`), status 200 or 502 |
 * | `wrong-type` | valid JSON in which one value has the wrong type (an object for a string, an object for a list…) |
 *
 * `malformedKinds` limits the draw to some of them. Answers without a JSON body (204, empty bodies) can only be spoiled by `html`, or `cut`
 * (the connection closes before any header).
 */
import type { ServerResponse } from 'node:http';

export const MALFORMED_KINDS = ['truncated', 'cut', 'html', 'wrong-type'] as const;
export type MalformedKind = (typeof MALFORMED_KINDS)[number];

const HTML_PAGE =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>The proxy server received an invalid response from an upstream server.</p></body></html>\n';

export function drawMalformed(
  rate: number,
  kinds: readonly MalformedKind[] = MALFORMED_KINDS,
  random: () => number = Math.random,
): MalformedKind | undefined {
  if (rate <= 0 || kinds.length === 0 || random() >= rate) return undefined;
  return kinds[Math.floor(random() * kinds.length)] ?? 'html';
}

/**
 * Makes `res` spoil the answer the handler writes: the handler's `writeHead` and `end` are
 * captured and replaced by the malformed answer of `kind`. Handlers only ever answer with
 * one `writeHead` and one `end` (src/sim/http.ts), which is all this needs.
 */
export function spoilResponse(res: ServerResponse, kind: MalformedKind, random: () => number = Math.random): void {
  let status = 200;
  let headers: Record<string, unknown> = {};
  const writeHead = res.writeHead.bind(res);
  const end = res.end.bind(res);
  res.writeHead = ((code: number, h?: Record<string, unknown>) => {
    status = code;
    headers = { ...(h ?? {}) };
    return res;
  }) as ServerResponse['writeHead'];
  res.end = ((chunk?: unknown) => {
    const body = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
    const out = spoil(kind, status, body, random);
    if (out === 'cut') {
      if (body === '') {
        res.socket?.destroy();
        return res;
      }
      const half = body.slice(0, Math.floor(body.length / 2));
      writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
      res.write(half, () => res.socket?.destroy());
      return res;
    }
    writeHead(out.status, { 'content-type': out.type, 'content-length': Buffer.byteLength(out.body) });
    return end(out.body);
  }) as ServerResponse['end'];
}

type Spoiled = { status: number; type: string; body: string } | 'cut';

function spoil(kind: MalformedKind, status: number, body: string, random: () => number): Spoiled {
  const json = parseJson(body);
  if (kind === 'cut') return 'cut';
  if (kind === 'html' || json === undefined)
    return { status: random() < 0.5 ? 200 : 502, type: 'text/html; charset=utf-8', body: HTML_PAGE };
  if (kind === 'truncated')
    return { status, type: 'application/json', body: body.slice(0, Math.max(1, Math.floor(body.length / 2))) };
  return { status, type: 'application/json', body: JSON.stringify(wrongType(json, random)) };
}

function parseJson(body: string): unknown {
  if (body === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * One value of the document, picked at random among those up to three levels deep, gets a
 * type it can never have: a list or a string becomes an object, an object or a number
 * becomes a list, a boolean becomes a string. (Numbers are not turned into numeric
 * strings: the spec itself serves some numbers as strings.)
 */
function wrongType(value: unknown, random: () => number = Math.random): unknown {
  const slots = collectSlots(value, 0);
  const slot = slots[Math.floor(random() * slots.length)];
  if (!slot) return typeof value === 'object' && value !== null && !Array.isArray(value) ? [value] : { value };
  slot.set(mistype(slot.value));
  return value;
}

interface Slot {
  value: unknown;
  set(v: unknown): void;
}

function collectSlots(value: unknown, depth: number): Slot[] {
  if (depth > 3 || typeof value !== 'object' || value === null) return [];
  const slots: Slot[] = [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.slice(0, 5).map((v, i) => [i, v])
    : Object.entries(value);
  for (const [key, child] of entries) {
    if (child === null) continue;
    slots.push({ value: child, set: (v) => ((value as Record<string | number, unknown>)[key] = v) });
    slots.push(...collectSlots(child, depth + 1));
  }
  return slots;
}

function mistype(value: unknown): unknown {
  if (Array.isArray(value)) return { items: value.length };
  if (typeof value === 'string') return { text: value };
  if (typeof value === 'boolean') return value ? 'yes-ish' : 'no-ish';
  if (typeof value === 'number') return [value];
  return [value];
}
