import { createHash } from 'node:crypto';
import { valueDigest } from '../core/value-digest.js';
import { pointer } from './normalize.js';

/**
 * The manifest set's digest (the plan file's `manifests.digest`): `sha256:` over the
 * valid documents after parsing and `${VAR}` interpolation (as JSON, sorted by document
 * address) and the contents of the CSV files they read. Comments, quoting, flow or block
 * style, and which file a document sits in do not count; key order does. Values from the
 * environment count through their own keyed or salted-and-slow digest (core/value-digest.ts),
 * so a rotated secret changes the digest without the digest input ever holding the secret,
 * and the digest of a set whose only unknown is one short secret is no dictionary oracle
 * for it. Everything else it covers is what the manifest files say.
 */
export class DigestBuilder {
  /** The CSV files' parts. */
  private readonly csvParts: string[] = [];
  /** Each document's address and digest input, in the order they were added. */
  private readonly documents: { address: string; digestInput: string }[] = [];

  /** Adds a document by its digest input (`documentDigestInput`), which its document record hashes too. */
  addDocument(address: string, digestInput: string): void {
    this.documents.push({ address, digestInput });
  }

  addCsv(ownerAddress: string, text: string): void {
    this.csvParts.push(`${ownerAddress}\ncsv ${createHash('sha256').update(text).digest('hex')}`);
  }

  /** How many documents were added so far. */
  get documentCount(): number {
    return this.documents.length;
  }

  /** The documents added since the count was `from` (what the manifest cache keeps of a file). */
  documentsSince(from: number): readonly { address: string; digestInput: string }[] {
    return this.documents.slice(from);
  }

  digest(): string {
    // Each document's part is `address\ndigest input`, made here: kept joined, they would hold the inputs twice.
    const parts = this.documents.map((d) => `${d.address}\n${d.digestInput}`);
    const sorted = [...parts, ...this.csvParts].sort();
    return `sha256:${createHash('sha256').update(sorted.join('\n\u0000\n')).digest('hex')}`;
  }
}

/**
 * A document (at `address`) as the digests see it: its JSON, each sensitive value (a string
 * that took a `${VAR}`) replaced by its value digest, salted by the document and the place.
 */
export function documentDigestInput(value: unknown, sensitive: ReadonlySet<string>, address: string): string {
  if (sensitive.size === 0) return JSON.stringify(value);
  const mask = (item: unknown, path: (string | number)[]): unknown => {
    if (typeof item === 'string') {
      const at = pointer(path);
      return sensitive.has(at) ? valueDigest(item, `manifest\u0000${address}\u0000${at}`) : item;
    }
    if (item === null || typeof item !== 'object') return item;
    if (Array.isArray(item)) return item.map((v, i) => mask(v, [...path, i]));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(item)) out[k] = mask(v, [...path, k]);
    return out;
  };
  return JSON.stringify(mask(value, []));
}
