/**
 * The one registry of the secrets this process knows: passwords, TOTP secrets, tokens
 * (configured and issued), routing-engine credentials and the values of `${VAR}` references
 * in manifests. Where credentials are loaded, they are registered; every sink that lets
 * text leave the process (stdout, stderr, the pino log, the journal, plan files) passes its
 * text through `maskSecrets`, so an output added later is covered by construction and a
 * platform message that echoes a header or a body shows `[redacted]` instead of the value.
 */

import { SecretSearch } from './secret-search.js';

/** What a secret is replaced with, everywhere (the pino redaction uses the same word). */
export const MASK = '[redacted]';

/**
 * What a value from `${VAR}` looks like where a plan, a render, a journal or a message shows
 * the field it is in (a structured place: whatever its length).
 */
export const SENSITIVE = '(sensitive)';

/**
 * Shorter values are not masked in free text: a 5-letter password such as `admin` also
 * spells part of addresses and messages, and masking every occurrence would garble them and,
 * by the gaps it leaves, point at the secret. GitLab refuses to mask CI variables under 8
 * characters for the same reason. Structured places (plan fields from `${VAR}`, auth
 * bodies, headers) are masked whatever the length.
 */
export const MIN_MASKED_LENGTH = 8;

/**
 * Where a secret comes from. `credential`: what switchboard itself holds to log in or sign
 * (passwords, TOTP secrets, tokens, keys, a webhook address). `manifest`: the value of a
 * `${VAR}` a manifest references, which whoever writes the manifest chooses.
 */
export type SecretOrigin = 'credential' | 'manifest';

/** The secrets registered, and their search (every form of each). */
const known = new Set<string>();
const search = new SecretSearch(MIN_MASKED_LENGTH);
/** The credentials alone (see {@link maskCredentials}). */
const credentials = new Set<string>();
const credentialSearch = new SecretSearch(MIN_MASKED_LENGTH);

/**
 * Adds a secret to the registry: it is then masked in every form a server may echo it
 * (secret-forms.ts: raw, JSON-escaped in any style and up to three levels, URL-encoded,
 * HTML-escaped, base64). Values shorter than {@link MIN_MASKED_LENGTH} are ignored. Returns
 * the value.
 */
export function registerSecret<T extends string | undefined>(value: T, origin: SecretOrigin = 'credential'): T {
  if (typeof value !== 'string' || value.length < MIN_MASKED_LENGTH) return value;
  if (!known.has(value)) {
    known.add(value);
    search.add(value);
  }
  if (origin === 'credential' && !credentials.has(value)) {
    credentials.add(value);
    credentialSearch.add(value);
  }
  return value;
}

/** Whether any secret is registered (the sinks skip the scan otherwise). */
export function hasSecrets(): boolean {
  return known.size > 0;
}

/** `text` with every registered secret, in any of its forms, replaced by {@link MASK}. */
export function maskSecrets(text: string): string {
  if (known.size === 0 || text.length < MIN_MASKED_LENGTH) return text;
  const spans = search.spans(text);
  return spans.length === 0 ? text : replaceSpans(text, spans);
}

/**
 * `text` with every registered credential masked, but not the values manifests chose. For
 * what switchboard computes or authenticates itself and records as proof (the journal's run
 * record, a plan file's provenance): none of it comes from a manifest, so a manifest value
 * found there is that record's own value (a commit, a CI variable, a username), which a
 * manifest must not be able to erase by naming it (`lastName: "${GITHUB_SHA}"`). A
 * credential is masked there as everywhere.
 */
export function maskCredentials(text: string): string {
  if (credentials.size === 0 || text.length < MIN_MASKED_LENGTH) return text;
  const spans = credentialSearch.spans(text);
  return spans.length === 0 ? text : replaceSpans(text, spans);
}

/** Whether `text` holds a registered credential, in any of its forms (not a value a manifest chose). */
export function holdsCredential(text: string): boolean {
  return credentials.size > 0 && text.length >= MIN_MASKED_LENGTH && credentialSearch.spans(text).length > 0;
}

/** `text` with each span (merged where they overlap) replaced by {@link MASK}. */
function replaceSpans(text: string, spans: [number, number][]): string {
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    if (end <= at) continue;
    if (start >= at) out += text.slice(at, start) + MASK;
    at = end;
  }
  return out + text.slice(at);
}

/** Forgets every secret (tests only: a process's secrets live as long as the process). */
export function clearSecrets(): void {
  known.clear();
  search.clear();
  credentials.clear();
  credentialSearch.clear();
}

type Write = NodeJS.WritableStream['write'];

/** The write of each stream {@link maskStream} wrapped, as it was. */
const unmaskedWrites = new WeakMap<NodeJS.WritableStream, (text: string) => boolean>();

/**
 * Writes `text` past the stream's masking: for a document masked by its own rules, whose
 * digest covers its bytes (a plan document: planDocument masks credentials everywhere and
 * manifest values outside switchboard's own record). Masked again, `plan --format json`
 * would no longer be the file `--out` writes, and its digest would fail.
 */
export function writePremasked(stream: NodeJS.WritableStream, text: string): boolean {
  const raw = unmaskedWrites.get(stream);
  return raw ? raw(text) : stream.write(text);
}

/**
 * Makes `stream.write` mask secrets in everything written to it (strings and buffers), so
 * every writer of stdout and stderr is covered, commander's and Node's own included.
 */
export function maskStream(stream: NodeJS.WriteStream): void {
  const original = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  const masked = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (known.size === 0) return original(chunk, ...rest);
    if (typeof chunk === 'string') return original(maskSecrets(chunk), ...rest);
    if (chunk instanceof Uint8Array) {
      const encoding = typeof rest[0] === 'string' ? rest.slice(1) : rest;
      return original(maskSecrets(Buffer.from(chunk).toString('utf8')), 'utf8', ...encoding);
    }
    return original(chunk, ...rest);
  };
  stream.write = masked as Write;
  unmaskedWrites.set(stream, (text) => original(text));
}
