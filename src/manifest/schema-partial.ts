/**
 * The editor's form of the document kind baselines select (schema-generate.ts writes it
 * beside the kind's own schema): see partialDocumentSchema.
 */
import type { Schema } from './schema-envelope.js';

const COMBINATORS = new Set(['oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else']);

/** The editor's schema of a document that baselines select: `tenant.schema.json` → `tenant.partial.schema.json`. */
export function partialSchemaFile(file: string): string {
  return file.replace(/\.schema\.json$/, '.partial.schema.json');
}

/**
 * The schema an editor checks a document that baselines select with: the document kind's
 * own, but with no field of its spec required, since a baseline may give it (an override
 * names one field of an item: `- { sku: TPL-STD, vrp: vrp-std2 }`); what tells alternatives
 * apart (an entitlement's `type` or `typeId`) stays. `validate` never reads
 * it: it checks the merged document against the kind's full schema. Suggest and export
 * --baselines write its modeline into the files they rewrite (docs/baselines.md).
 */
export function partialDocumentSchema(document: Schema): Schema {
  const file = partialSchemaFile(document['$id'] as string);
  const relax = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(relax);
    if (node === null || typeof node !== 'object') return node;
    const out: Schema = {};
    for (const [key, value] of Object.entries(node as Schema)) {
      if (key === 'required') continue;
      // An alternative's `required` says which one it is (an entitlement's type or typeId): kept.
      out[key] = COMBINATORS.has(key) ? value : relax(value);
    }
    return out;
  };
  const properties = { ...(document['properties'] as Record<string, Schema>) };
  properties['spec'] = relax(properties['spec']) as Schema;
  return {
    ...document,
    $id: file,
    description: `${String(document['description'] ?? '')} This form, for editors, leaves every field of spec optional: the baselines that select the document may give it; validate checks the merged document against ${String(document['$id'])}.`,
    properties,
    $defs: relax(document['$defs'] ?? {}) as Schema,
  };
}
