import type { ContractStep, KindDefinition } from '../../src/kinds/types.js';

/**
 * Why a kind cannot take a step of the kind contract, as its columns say it (no `create`
 * hook, `cannotDelete`, no collection, not renamable, unreadable, …) or, where no column
 * says it, as its `contract.cannot` declares. Undefined: the kind takes the step, and the
 * contract test runs it. A declaration where a column already answers is a mistake: the
 * table would say one thing twice.
 */
export function cannot(kind: KindDefinition, step: ContractStep, all: readonly KindDefinition[]): string | undefined {
  return derived(kind, step, all) ?? kind.contract.cannot?.[step];
}

/** Declarations that repeat (or contradict) what the columns say. */
export function redundantDeclarations(kind: KindDefinition, all: readonly KindDefinition[]): string[] {
  const declared = Object.keys(kind.contract.cannot ?? {}) as ContractStep[];
  return declared
    .filter((step) => derived(kind, step, all) !== undefined)
    .map((step) => `${kind.kind}: contract.cannot.${step} repeats what its columns say: ${derived(kind, step, all)}`);
}

/** The fields an update step may change: updatable or write-only, not the identity. */
export function updatableFields(kind: KindDefinition): string[] {
  return kind.fields
    .filter((f) => (f.change === 'update' || f.change === 'writeOnly') && !kind.manifest.identity.includes(f.name))
    .map((f) => f.name);
}

/** The fields whose change is a replace, but the identity's. */
export function replaceFields(kind: KindDefinition): string[] {
  return kind.fields
    .filter((f) => f.change === 'replace' && !kind.manifest.identity.includes(f.name))
    .map((f) => f.name);
}

function derived(kind: KindDefinition, step: ContractStep, all: readonly KindDefinition[]): string | undefined {
  switch (step) {
    case 'create':
      if (kind.assumedToExist) return 'the API cannot list or create it: a declared one is taken to exist';
      return kind.create ? undefined : 'it has no create request (the API has no such endpoint)';
    case 'update':
      if (updatableFields(kind).length === 0) return 'no field but its identity can change';
      return kind.update ? undefined : 'it has no update request';
    case 'replace':
      if (replaceFields(kind).length === 0) return 'no field but its identity forces a replace';
      return kind.create && kind.delete ? undefined : 'it cannot be both deleted and created';
    case 'rename':
      return kind.manifest.renamable ? undefined : 'its identity is no name the API can change (not renamable)';
    case 'delete':
      if (kind.collection === undefined)
        return 'a top-level document kind: no collection holds it, so nothing prunes it';
      if (kind.cannotDelete) return kind.cannotDelete;
      return kind.delete ? undefined : 'it has no delete request (the API has no such endpoint)';
    case 'export':
      if (kind.unreadable) return 'the API cannot read it, so export cannot write it';
      return unlisted(kind, all) ? 'the API cannot list it (or an ancestor), so export cannot find it' : undefined;
  }
}

/** The kind, or the first kind of its parent chain, is taken to exist without being listed. */
function unlisted(kind: KindDefinition, all: readonly KindDefinition[]): boolean {
  if (kind.assumedToExist) return true;
  const parent = all.find((k) => k.kind === kind.parentKinds[0]);
  return parent !== undefined && unlisted(parent, all);
}
