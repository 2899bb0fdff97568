/**
 * A seeded fuzzer of manifests and CSV files: every case starts from a real file of
 * examples/ and applies one to three mutations, at the text level (bytes and lines a
 * careless edit or a bad merge would produce) or at the YAML level (a value of the wrong
 * type, a key renamed or dropped, an unknown key, a huge or deeply nested value).
 * Deterministic for a seed, so a failing case can be replayed from its number.
 */
import { parseDocument, isMap, isSeq, isScalar, type Document, type Node } from 'yaml';
import { seededRandom } from '../../../src/core/random.js';

/** mulberry32: small, fast, good enough to spread mutations. */
export const seeded = seededRandom;

type Rand = () => number;
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;
const int = (r: Rand, n: number): number => Math.floor(r() * n);

const NASTY = [
  ':',
  ': ',
  '- ',
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  '&a',
  '*a',
  '!!binary ',
  '|',
  '>',
  '#',
  '\t',
  '\0',
  '\uFEFF',
  '%',
  '@',
  '`',
  '\\',
  '$',
  '${',
  '${UNSET_FUZZ_VAR}',
  '$$',
  '\u202e',
  '💥',
  '\r',
  '\r\n',
  ',',
  '"""',
  '\n---\n',
  '\n...\n',
  '<<: *a',
  '~',
  'null',
  '0x1F',
  '1e999',
  '-.inf',
  '.nan',
];

const textMutations: ((text: string, r: Rand) => string)[] = [
  (t, r) => {
    const lines = t.split('\n');
    lines.splice(int(r, lines.length), 1);
    return lines.join('\n');
  },
  (t, r) => {
    const lines = t.split('\n');
    const i = int(r, lines.length);
    lines.splice(i, 0, lines[i] ?? '');
    return lines.join('\n');
  },
  (t, r) => {
    const lines = t.split('\n');
    const i = int(r, lines.length);
    const j = int(r, lines.length);
    [lines[i], lines[j]] = [lines[j] ?? '', lines[i] ?? ''];
    return lines.join('\n');
  },
  (t, r) => {
    const at = int(r, t.length + 1);
    return t.slice(0, at) + pick(r, NASTY) + t.slice(at);
  },
  (t, r) => {
    const at = int(r, t.length);
    return t.slice(0, at) + pick(r, NASTY) + t.slice(at + 1);
  },
  (t, r) => t.slice(0, int(r, t.length + 1)),
  (t, r) => {
    const lines = t.split('\n');
    const i = int(r, lines.length);
    lines[i] = (r() < 0.5 ? ' '.repeat(1 + int(r, 3)) : '') + (lines[i] ?? '').replace(/^ {1,2}/, r() < 0.5 ? '' : ' ');
    return lines.join('\n');
  },
  (t, r) => {
    const at = int(r, t.length + 1);
    return (
      t.slice(0, at) + String.fromCharCode(...Array.from({ length: 1 + int(r, 8) }, () => int(r, 0x2fff))) + t.slice(at)
    );
  },
  (t, r) => t.replace(/\b(\d+)\b/, () => pick(r, ['-1', '99999999999999999999', '1.5', 'NaN', '"7"', '0', ''])),
  (t, r) => {
    const lines = t.split('\n');
    const i = int(r, lines.length);
    lines[i] = `${lines[i] ?? ''}${'x'.repeat(1 + int(r, 5000))}`;
    return lines.join('\n');
  },
];

const SCALARS: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e21,
  '',
  'x',
  '${UNSET_FUZZ_VAR}',
  '💥',
  'a'.repeat(3000),
  [],
  {},
  [1, 2],
  { a: 1 },
  ['x', { y: null }],
];

function nodesOf(
  node: unknown,
  out: { parent: Node; key: unknown; node: unknown }[] = [],
  depth = 0,
): { parent: Node; key: unknown; node: unknown }[] {
  if (depth > 8) return out;
  if (isMap(node)) {
    for (const pair of node.items) {
      out.push({ parent: node, key: pair.key, node: pair.value });
      nodesOf(pair.value, out, depth + 1);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      out.push({ parent: node, key: i, node: item });
      nodesOf(item, out, depth + 1);
    });
  }
  return out;
}

const yamlMutations: ((doc: Document, r: Rand) => void)[] = [
  (doc, r) => {
    const n = pick(r, nodesOf(doc.contents));
    if (n) (n.parent as any).set?.(isScalar(n.key) ? n.key.value : n.key, doc.createNode(pick(r, SCALARS)));
  },
  (doc, r) => {
    const n = pick(r, nodesOf(doc.contents));
    if (n) (n.parent as any).delete?.(isScalar(n.key) ? n.key.value : n.key);
  },
  (doc, r) => {
    const maps = nodesOf(doc.contents).filter((n) => isMap(n.node));
    const m = pick(r, maps);
    if (m)
      (m.node as any).set(
        pick(r, [
          'spec',
          'metadata',
          'nmae',
          'billingID',
          'extra',
          'kind',
          'apiVersion',
          'prune',
          'protect',
          'addressesFrom',
          'recordsFrom',
          '',
        ]),
        doc.createNode(pick(r, SCALARS)),
      );
  },
  (doc, r) => {
    const n = pick(
      r,
      nodesOf(doc.contents).filter((x) => isScalar(x.node) && typeof (x.node as any).value === 'string'),
    );
    if (n)
      (n.node as any).value =
        `${String((n.node as any).value)}${pick(r, ['-', ' ', '\u0000', '/', '..', '../../etc/passwd', ''])}${int(r, 10)}`;
  },
  (doc, r) => {
    const n = pick(r, nodesOf(doc.contents));
    if (n) {
      let deep: unknown = 'bottom';
      for (let i = 0; i < 50 + int(r, 200); i++) deep = [deep];
      (n.parent as any).set?.(isScalar(n.key) ? n.key.value : n.key, doc.createNode(deep));
    }
  },
  (doc, r) => {
    const seqs = nodesOf(doc.contents).filter((n) => isSeq(n.node) && (n.node as any).items.length > 0);
    const s = pick(r, seqs);
    if (s) {
      const items = (s.node as any).items as unknown[];
      items.push(items[int(r, items.length)]);
    }
  },
];

/** One mutated version of `text` (a YAML manifest or a CSV file). */
export function mutate(text: string, r: Rand, kind: 'yaml' | 'csv'): string {
  let out = text;
  const rounds = 1 + int(r, 3);
  for (let i = 0; i < rounds; i++) {
    if (kind === 'yaml' && r() < 0.5) {
      const docs = out.split(/^---$/m);
      const index = int(r, docs.length);
      const doc = parseDocument(docs[index] ?? '', { uniqueKeys: false });
      try {
        if (doc.errors.length > 0) throw new Error('not YAML any more');
        pick(r, yamlMutations)(doc, r);
        docs[index] = doc.toString({ lineWidth: 0 });
        out = docs.join('---\n');
      } catch {
        // an earlier text mutation broke the YAML (or left an alias without its anchor): mutate the text
        out = pick(r, textMutations)(out, r);
      }
    } else {
      out = pick(r, textMutations)(out, r);
    }
  }
  return out;
}
