import { kinds } from './index.js';

/**
 * Reading an address back into its parts. Addresses are `word/identity` pairs
 * (`tenant/acme/subscription/main/address/<full address>`), and an identity may itself
 * contain `/`: Belgian house numbers with a box (`Rue Haute 16/2, 1000 Brussels`), a sku.
 * Splitting on every `/` would then give the wrong parent, so an identity runs until the
 * next segment that is one of the kinds' address words (read from the kind table) and is
 * followed by an identity of its own. Routing rows (`routing/<service>/<version>/<table>/
 * <key>`) belong to the table named by their first four segments.
 */

const ROUTING = 'routing';
const ROUTING_TABLE_SEGMENTS = 4;

/** The word each kind puts before its identity (`address`, `subscription`, …). */
const WORDS: ReadonlySet<string> = new Set(kinds.map((kind) => wordOf(kind.address('\u0000', '\u0001'))));

function wordOf(sample: string): string {
  const withoutParent = sample.startsWith('\u0000/') ? sample.slice(2) : sample;
  return withoutParent.slice(0, withoutParent.indexOf('/'));
}

/** The `[word, identity]` pairs of a platform object's address. */
export function addressPairs(address: string): [string, string][] {
  const segments = address.split('/');
  const pairs: [string, string][] = [];
  for (let i = 0; i < segments.length;) {
    const word = segments[i] as string;
    let end = i + 2; // an identity has at least one segment
    while (end < segments.length - 1 && !WORDS.has(segments[end] as string)) end++;
    if (end === segments.length - 1) end++; // a last lone segment cannot start a pair
    pairs.push([word, segments.slice(i + 1, end).join('/')]);
    i = end;
  }
  return pairs;
}

/** The address of the object (or routing table) an address belongs to; undefined for a top-level one. */
export function parentAddressOf(address: string): string | undefined {
  if (address.startsWith(`${ROUTING}/`)) {
    const segments = address.split('/');
    return segments.length > ROUTING_TABLE_SEGMENTS ? segments.slice(0, ROUTING_TABLE_SEGMENTS).join('/') : undefined;
  }
  const pairs = addressPairs(address);
  if (pairs.length < 2) return undefined;
  return pairs
    .slice(0, -1)
    .map(([word, identity]) => `${word}/${identity}`)
    .join('/');
}
