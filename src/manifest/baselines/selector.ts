import { hasKind, kinds, kindOf } from '../../kinds/index.js';
import type { KindDefinition } from '../../kinds/types.js';
import { selectorKinds } from '../schema-baseline.js';
import type { Json } from '../build-context.js';
import type { JsonValue } from '../types.js';

/**
 * Which documents a baseline selects: those under the named ancestors (a tenant's reseller,
 * the reseller's group) and whose `metadata.labels` match every label condition, as
 * Kubernetes label selectors do (`in`, `notIn`, which an absent label matches, `exists`).
 * Selection is decided from the manifests alone (validate needs no server): an ancestor is
 * known by name when the document names it, or when a document of the set names it in turn.
 */

/** A parent as a document's metadata names it. */
export interface ParentName {
  kind: string;
  name: string;
}

/** The selector keys (`resellers`, `groups`) and their kinds, from the kind table. */
let keys: { kind: KindDefinition; key: string }[] | undefined;
export function selectorKeys(): readonly { kind: KindDefinition; key: string }[] {
  keys ??= selectorKinds(kinds);
  return keys;
}

/** The parent a document names in its metadata (by name; one by uuid has no name to select by). */
export function parentNamed(kind: KindDefinition, metadata: Json): ParentName | undefined {
  for (const parentKind of kind.parentKinds) {
    const ref = metadata[parentKind.toLowerCase()];
    if (ref === undefined) continue;
    return typeof ref === 'string' ? { kind: parentKind, name: ref } : undefined;
  }
  return undefined;
}

/** The declared documents of the selector kinds and their parents: who is under whom. */
export class Ancestry {
  private readonly parents = new Map<string, ParentName | undefined>();

  declare(kind: string, name: string, parent: ParentName | undefined): void {
    const key = `${kind}\u0000${name}`;
    if (!this.parents.has(key)) this.parents.set(key, parent);
  }

  /** The names of a document's ancestors by kind, from its own parent up (a cycle ends the walk). */
  of(parent: ParentName | undefined): Map<string, string> {
    const found = new Map<string, string>();
    for (let at = parent; at !== undefined && !found.has(at.kind);) {
      found.set(at.kind, at.name);
      at = this.parents.get(`${at.kind}\u0000${at.name}`);
    }
    return found;
  }
}

/** Whether a selector (`spec.selector`, schema-valid) selects a document with these ancestors and labels. */
export function selects(selector: Json, ancestors: ReadonlyMap<string, string>, labels: Json | undefined): boolean {
  for (const { kind, key } of selectorKeys()) {
    const names = selector[key];
    if (!Array.isArray(names)) continue;
    const name = ancestors.get(kind.kind);
    if (name === undefined || !names.includes(name)) return false;
  }
  const conditions = selector['labels'];
  if (conditions && typeof conditions === 'object' && !Array.isArray(conditions)) {
    for (const [label, condition] of Object.entries(conditions)) {
      if (!labelMatches(labels?.[label], condition)) return false;
    }
  }
  return true;
}

function labelMatches(value: JsonValue | undefined, condition: JsonValue): boolean {
  const present = typeof value === 'string';
  if (typeof condition === 'string') return value === condition;
  if (!condition || typeof condition !== 'object' || Array.isArray(condition)) return false;
  if (Array.isArray(condition['in'])) return present && condition['in'].includes(value as string);
  if (Array.isArray(condition['notIn'])) return !present || !condition['notIn'].includes(value as string);
  if (typeof condition['exists'] === 'boolean') return present === condition['exists'];
  return false;
}

/** A selector as one line, for messages and the baseline report (`resellers: north; labels: offer=office`). */
export function selectorText(selector: Json): string {
  const parts: string[] = [];
  for (const { key } of selectorKeys()) {
    const names = selector[key];
    if (Array.isArray(names)) parts.push(`${key}: ${names.join(', ')}`);
  }
  const conditions = selector['labels'];
  if (conditions && typeof conditions === 'object' && !Array.isArray(conditions)) {
    const text = Object.entries(conditions).map(([label, c]) => {
      if (typeof c === 'string') return `${label}=${c}`;
      const o = (c ?? {}) as Json;
      if (Array.isArray(o['in'])) return `${label} in (${o['in'].join(', ')})`;
      if (Array.isArray(o['notIn'])) return `${label} notin (${o['notIn'].join(', ')})`;
      return o['exists'] === false ? `!${label}` : label;
    });
    if (text.length > 0) parts.push(`labels: ${text.join(', ')}`);
  }
  return parts.length > 0 ? parts.join('; ') : 'every document';
}

/** An object's name (the first identity field of its kind), as selectors and ancestries name it. */
export function nameOf(object: { kind: string; identity: Readonly<Record<string, unknown>> }): string | undefined {
  if (!hasKind(object.kind)) return undefined;
  const value = object.identity[kindOf(object.kind).manifest.identity[0] as string];
  return typeof value === 'string' ? value : undefined;
}
