import type { Document } from 'yaml';
import { yamlPackage } from '../../core/yaml-package.js';
import { kinds } from '../../kinds/index.js';
import type { Json } from '../build-context.js';
import { baselineTarget } from '../schema-baseline.js';
import { hasContent } from '../positions.js';
import { partialSchemaFile } from '../schema-partial.js';
import type { Reduction } from './reduce.js';

/**
 * Rewrites a manifest file's documents as a reduction says (reduce.ts): the values a baseline
 * gives deleted, the overrides added to `metadata.overrides` (one flow mapping each). The
 * yaml package edits the documents in place, so comments and the layout of what stays are
 * kept. Documents without a reduction are left as they are. A rewritten file's schema modeline
 * names the partial schema (schema-baseline.ts), so an editor accepts an item that holds only
 * its identity and the field it overrides.
 */
export function rewriteFile(
  text: string,
  reductionOf: (value: Json, doc: number) => Reduction | undefined,
  reason: string,
): { text: string; changed: number } {
  const { parseAllDocuments, isMap, isSeq } = yamlPackage();
  const parsed = parseAllDocuments(text, { uniqueKeys: false });
  const documents = Array.isArray(parsed) ? parsed : [];
  let changed = 0;
  let ordinal = 0;
  for (const document of documents) {
    if (!hasContent(document)) continue;
    const doc = ordinal++;
    const value = document.toJS() as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const reduction = reductionOf(value as Json, doc);
    if (!reduction || (reduction.deletions.length === 0 && reduction.overrides.length === 0)) continue;
    changed += 1;
    for (const path of reduction.deletions) document.deleteIn(path);
    if (reduction.overrides.length > 0) addOverrides(document, reduction, reason, { isMap, isSeq });
    if (document.getIn(['spec']) === undefined && isMap(document.contents))
      document.setIn(['spec'], document.createNode({}));
  }
  if (changed === 0) return { text, changed };
  return { text: partialModeline(documents.map((d) => d.toString({ lineWidth: 0 })).join('')), changed };
}

/** The text with its modeline's schema (`…/tenant.schema.json`) replaced by its partial form. */
function partialModeline(text: string): string {
  const schema = baselineTarget(kinds).manifest.document?.schema ?? '';
  const line = /^# yaml-language-server: \$schema=(\S+)$/m.exec(text);
  if (!line || !schema || !(line[1] === schema || line[1]?.endsWith(`/${schema}`))) return text;
  const at = line.index + line[0].length - schema.length;
  return `${text.slice(0, at)}${partialSchemaFile(schema)}${text.slice(at + schema.length)}`;
}

function addOverrides(
  document: Document.Parsed,
  reduction: Reduction,
  reason: string,
  is: { isMap: (n: unknown) => boolean; isSeq: (n: unknown) => boolean },
): void {
  const metadata = document.getIn(['metadata'], true);
  if (is.isMap(metadata)) (metadata as { flow?: boolean }).flow = false;
  let list = document.getIn(['metadata', 'overrides'], true);
  if (!is.isSeq(list)) {
    document.setIn(['metadata', 'overrides'], document.createNode([]));
    list = document.getIn(['metadata', 'overrides'], true);
  }
  for (const override of reduction.overrides) {
    const node = document.createNode({ path: override.path, reason, ...(override.remove ? { remove: true } : {}) });
    (node as { flow?: boolean }).flow = true;
    (list as { items: unknown[] }).items.push(node);
  }
}
