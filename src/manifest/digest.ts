import { createHash } from 'node:crypto';
import { pointer } from './normalise.js';

/**
 * The manifest set's digest (the plan file's `manifests.digest`): `sha256:` over the
 * valid documents after parsing and `${VAR}` interpolation (as JSON, sorted by document
 * address) and the contents of the CSV files they read. Comments, quoting, flow or block
 * style, and which file a document sits in do not count; key order does. Values from the
 * environment count through their own sha256, so a rotated secret changes the digest
 * without the digest input ever holding the secret.
 */
export class DigestBuilder {
  private readonly parts: string[] = [];

  /** Adds a document by its digest input (`documentDigestInput`), which its document record hashes too. */
  addDocument(address: string, digestInput: string): void {
    this.parts.push(`${address}\n${digestInput}`);
  }

  addCsv(ownerAddress: string, text: string): void {
    this.parts.push(`${ownerAddress}\ncsv ${createHash('sha256').update(text).digest('hex')}`);
  }

  digest(): string {
    const sorted = [...this.parts].sort();
    return `sha256:${createHash('sha256').update(sorted.join('\n\u0000\n')).digest('hex')}`;
  }
}

/** A document as the digests see it: its JSON, each sensitive value replaced by its own sha256. */
export function documentDigestInput(value: unknown, sensitive: ReadonlySet<string>): string {
  return sensitive.size === 0 ? JSON.stringify(value) : JSON.stringify(maskSensitive(value, sensitive));
}

function maskSensitive(value: unknown, sensitive: ReadonlySet<string>, path: (string | number)[] = []): unknown {
  if (typeof value === 'string') {
    return sensitive.has(pointer(path)) ? `sha256:${createHash('sha256').update(value).digest('hex')}` : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v, i) => maskSensitive(v, sensitive, [...path, i]));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = maskSensitive(v, sensitive, [...path, k]);
  return out;
}
