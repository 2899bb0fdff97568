import type { ExtraField, FieldSpec, KindDefinition } from '../kinds/types.js';
import { orList } from './schema-envelope.js';

/**
 * What a kind's columns mean for someone writing a manifest, in words: the description of a
 * collection after what one of its objects is, and the hover's second paragraph of a field.
 */

type Field = FieldSpec | (ExtraField & { change?: undefined });

/** What a collection's columns say about it, after what one of its objects is. */
export function collectionDoc(child: KindDefinition): string {
  const notes = [child.manifest.collectionDoc ?? child.manifest.doc];
  if (child.assumedToExist) notes.push('The API cannot list or create them: a declared one must exist.');
  else if (!child.create) notes.push('The API cannot create them: a declared one that does not exist fails the plan.');
  if (child.cannotDelete) notes.push(`Never deleted: ${child.cannotDelete}.`);
  else if (child.delete && !child.assumedToExist)
    notes.push(`Declaring the ${child.manifest.shape === 'map' ? 'map' : 'list'} makes it a collection for prune.`);
  return notes.join(' ');
}

/** What a field's change and traits mean for someone editing it (the hover's second paragraph). */
export function traitNotes(kind: KindDefinition, spec: Field): string[] {
  const notes: string[] = [];
  if (spec.change === 'replace' && !kind.manifest.identity.includes(spec.name)) {
    const allow = kind.holdsData ? ', refused unless --allow-replace' : '';
    notes.push(`The API cannot change it: a new value is a replace (delete, then create again${allow}).`);
  }
  if (spec.change === 'writeOnly' || (kind.unreadable && spec.change !== undefined))
    notes.push('Write-only: the API never returns it; plans compare it with the last-applied record.');
  if ('sensitive' in spec && spec.sensitive) notes.push('Sensitive: plans show it as (sensitive).');
  if (spec.manifest?.onlyUnder) notes.push(`Only under ${orList(spec.manifest.onlyUnder)}.`);
  return notes;
}
