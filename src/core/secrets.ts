/**
 * The one registry of the secrets this process knows: passwords, TOTP secrets, tokens
 * (configured and issued), routing-engine credentials and the values of `${VAR}` references
 * in manifests. Where credentials are loaded, they are registered; every sink that lets
 * text leave the process (stdout, stderr, the pino log, the journal, plan files) passes its
 * text through `maskSecrets`, so an output added later is covered by construction and a
 * platform message that echoes a header or a body shows `[redacted]` instead of the value.
 */

/** What a secret is replaced with, everywhere (the pino redaction uses the same word). */
export const MASK = '[redacted]';

/**
 * Shorter values are not masked in free text: a 5-letter password such as `admin` also
 * spells part of addresses and messages, and masking every occurrence would garble them and,
 * by the gaps it leaves, point at the secret. GitLab refuses to mask CI variables under 8
 * characters for the same reason. Structured places (plan fields from `${VAR}`, auth
 * bodies, headers) are masked whatever the length.
 */
export const MIN_MASKED_LENGTH = 8;

const known = new Set<string>();
let pattern: RegExp | undefined;

/**
 * Adds a secret (and the forms it takes when echoed: JSON-escaped, URL-encoded) to the
 * registry. Values shorter than {@link MIN_MASKED_LENGTH} are ignored. Returns the value.
 */
export function registerSecret<T extends string | undefined>(value: T): T {
  if (typeof value !== 'string' || value.length < MIN_MASKED_LENGTH) return value;
  // A message quoting a JSON body, inside an error message, inside a JSON log line: up to
  // three levels of JSON escaping stand between the value and the output.
  const forms: string[] = [value, encodeURIComponent(value)];
  let escaped: string = value;
  for (let level = 0; level < 3; level++) forms.push((escaped = JSON.stringify(escaped).slice(1, -1)));
  for (const form of forms) {
    if (form.length >= MIN_MASKED_LENGTH && !known.has(form)) {
      known.add(form);
      pattern = undefined;
    }
  }
  return value;
}

/** Whether any secret is registered (the sinks skip the scan otherwise). */
export function hasSecrets(): boolean {
  return known.size > 0;
}

/** `text` with every registered secret replaced by {@link MASK}. */
export function maskSecrets(text: string): string {
  if (known.size === 0 || text.length < MIN_MASKED_LENGTH) return text;
  pattern ??= new RegExp(
    [...known]
      .sort((a, b) => b.length - a.length) // the longest form first: a secret inside another is masked whole
      .map(escapeRegExp)
      .join('|'),
    'g',
  );
  pattern.lastIndex = 0;
  return pattern.test(text) ? text.replace(pattern, MASK) : text;
}

/** Forgets every secret (tests only: a process's secrets live as long as the process). */
export function clearSecrets(): void {
  known.clear();
  pattern = undefined;
}

type Write = NodeJS.WritableStream['write'];

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
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
