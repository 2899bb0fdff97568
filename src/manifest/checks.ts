import { hasKind, kindOf, kinds } from '../kinds/index.js';
import { Codes } from './codes.js';
import { PINNED_ID_KEY, RENAMED_FROM_KEY } from './kind-plans.js';
import type { BuildOutput } from './build-context.js';
import type { Reporter } from './reporter.js';
import { placeOf } from './desired-set.js';
import { didYouMean } from './suggest.js';
import type { DesiredObject, ExternalParent, SourcePosition } from './types.js';

/** file:line:col of an object, for "first at ..." messages. */
function where(reporter: Reporter, o: DesiredObject, field?: string): string {
  const p = placeOf(reporter, o, field);
  return `${p.file}:${p.line}:${p.column}`;
}

/**
 * Addresses must be unique in the set: a second object at the same address (two tenants
 * with one name, two subscriptions named alike in a tenant, an address both inline and in
 * the CSV) is reported where it is written, pointing at the first. Returns the set
 * without the duplicates.
 */
export function dropDuplicates(
  objects: readonly DesiredObject[],
  reporter: Reporter,
): { kept: DesiredObject[]; byAddress: Map<string, DesiredObject> } {
  const first = new Map<string, DesiredObject>();
  const kept: DesiredObject[] = [];
  const dropped = new Set<string>();
  for (const o of objects) {
    if (dropped.size > 0 && o.parentAddress !== undefined && dropped.has(o.parentAddress)) {
      dropped.add(o.address);
      continue;
    }
    const earlier = first.get(o.address);
    if (earlier) {
      reporter.error(
        Codes.duplicate,
        `${o.address} is declared twice; first at ${where(reporter, earlier)}`,
        placeOf(reporter, o),
      );
      dropped.add(o.address);
      continue;
    }
    first.set(o.address, o);
    kept.push(o);
  }
  return { kept, byAddress: first };
}

/**
 * Links documents to the parents their metadata names: a declared parent gives a
 * `parentAddress`; a uuid or an undeclared name gives a `parentRef` (an undeclared name
 * must exist live: the planner looks it up; it is listed in the external parents).
 */
export function resolveParents(out: BuildOutput, declared: ReadonlyMap<string, DesiredObject>): ExternalParent[] {
  const external = new Map<string, ExternalParent>();
  for (const [object, decl] of out.parents) {
    if (declared.get(object.address) !== object) continue;
    if (decl.uuid !== undefined) {
      object.parentRef = { kind: decl.kind, uuid: decl.uuid };
      continue;
    }
    const name = decl.name ?? '';
    const kind = decl.kind;
    // Only a kind of the table can be named: the schemas take a distributor by uuid only.
    const address = hasKind(kind) ? kindOf(kind).address(undefined, name) : `${kind}/${name}`;
    if (declared.has(address)) {
      object.parentAddress = address;
      continue;
    }
    object.parentRef = { kind, name };
    const entry = external.get(address) ?? { kind, name, referencedBy: [] };
    entry.referencedBy.push(object.address);
    external.set(address, entry);
  }
  return [...external.values()];
}

/**
 * billingId is unique per group (Doc 1 §2.4, Doc 2 §2.1): within one kind, two objects
 * under the same group (or the same undeclared parent) may not share one.
 */
export function checkBillingIds(
  objects: readonly DesiredObject[],
  reporter: Reporter,
  byAddress: ReadonlyMap<string, DesiredObject>,
): void {
  const seen = new Map<string, DesiredObject>();
  // The root of the objects under one declared parent, found once. An object with no declared
  // parent is its own root, or hangs under its own undeclared parent: never one key for all of them.
  const roots = new Map<string, string>();
  for (const o of objects) {
    const billingId = o.fields['billingId'];
    if (typeof billingId !== 'string') continue;
    let root: string | undefined;
    if (o.parentAddress === undefined) root = rootOf(o, byAddress);
    else if ((root = roots.get(o.parentAddress)) === undefined) {
      root = rootOf(o, byAddress);
      roots.set(o.parentAddress, root);
    }
    const key = `${root}|${o.kind}|${billingId}`;
    const earlier = seen.get(key);
    if (!earlier) {
      seen.set(key, o);
      continue;
    }
    reporter.error(
      Codes.duplicateBillingId,
      `billingId "${billingId}" is also used by ${earlier.address} (${where(reporter, earlier, 'billingId')}); it must be unique per group`,
      placeOf(reporter, o, 'billingId'),
    );
  }
}

/** The top of an object's tree: its declared group, or the undeclared parent it hangs under. */
function rootOf(o: DesiredObject, byAddress: ReadonlyMap<string, DesiredObject>): string {
  let node: DesiredObject | undefined = o;
  for (let depth = 0; node && depth < 10; depth++) {
    if (node.parentRef) return JSON.stringify(node.parentRef);
    if (node.parentAddress === undefined) return node.address;
    node = node.parentAddress === undefined ? undefined : byAddress.get(node.parentAddress);
  }
  return '?';
}

/**
 * Identities unique in the whole platform (`manifest.uniqueInPlatform`): an administrator's
 * e-mail (Doc 1 §4.2: 400 "e-mail exists") may be declared once in the set.
 */
export function checkPlatformUnique(objects: readonly DesiredObject[], reporter: Reporter): void {
  const unique = new Map(
    kinds.flatMap((k) =>
      k.manifest.uniqueInPlatform ? [[k.kind, { kind: k, rule: k.manifest.uniqueInPlatform }] as const] : [],
    ),
  );
  if (unique.size === 0) return;
  const seen = new Map<string, DesiredObject>();
  for (const o of objects) {
    const entry = unique.get(o.kind);
    if (!entry) continue;
    const identity = entry.kind.identity(o.fields);
    const key = `${o.kind}|${entry.rule.ignoreCase ? identity.toLowerCase() : identity}`;
    const earlier = seen.get(key);
    if (!earlier) {
      seen.set(key, o);
      continue;
    }
    reporter.error(
      Codes.duplicateAdmin,
      `${entry.kind.manifest.noun} ${identity} is also declared under ${earlier.parentAddress ?? '?'} (${where(reporter, earlier)}); ${entry.rule.why}`,
      placeOf(reporter, o),
    );
  }
}

/**
 * A field naming a sibling by identity (`manifest.refersTo`: a number's address, by full
 * address) that its parent does not declare is probably a typo; when the parent declares
 * no such collection the sibling may exist live.
 */
export function checkReferences(
  objects: readonly DesiredObject[],
  byAddress: ReadonlyMap<string, DesiredObject>,
  children: (a: string) => readonly DesiredObject[],
  reporter: Reporter,
): void {
  const referring = new Map(
    kinds.flatMap((k) =>
      k.manifest.refersTo
        ? [[k.kind, { kind: k, ref: k.manifest.refersTo, target: kindOf(k.manifest.refersTo.kind) }] as const]
        : [],
    ),
  );
  if (referring.size === 0) return;
  for (const o of objects) {
    const entry = referring.get(o.kind);
    const value = entry && o.fields[entry.ref.field];
    if (!entry || typeof value !== 'string' || o.parentAddress === undefined) continue;
    const { target } = entry;
    const parent = byAddress.get(o.parentAddress);
    if (!parent || target.collection === undefined || !parent.declaredCollections.includes(target.collection)) continue;
    if (byAddress.has(target.address(parent.address, value))) continue;
    const known = children(parent.address)
      .filter((c) => c.kind === target.kind)
      .map((c) => target.identity(c.fields));
    reporter.warning(
      Codes.unknownAddress,
      `the ${kindOf(parent.kind).manifest.noun} declares no ${target.manifest.noun} "${value}"${didYouMean(value, known)}; the ${entry.kind.manifest.noun} needs it to exist live`,
      placeOf(reporter, o, entry.ref.field),
    );
  }
}

/**
 * Former names (`renamedFrom`) and pins (`metadata.uuid`) must each say one thing: a former
 * name is no object's current name in the set, nor another object's former name, nor the
 * object's own; one live object is pinned by one document at most.
 */
export function checkIdentities(
  objects: readonly DesiredObject[],
  byAddress: ReadonlyMap<string, DesiredObject>,
  reporter: Reporter,
): void {
  const formerOf = new Map<string, DesiredObject>();
  const pinned = new Map<string, DesiredObject>();
  for (const o of objects) {
    for (const previous of o.previousAddresses ?? []) {
      const at = keyPlace(reporter, o, RENAMED_FROM_KEY);
      const declared = byAddress.get(previous);
      const earlier = formerOf.get(previous);
      if (previous === o.address) reporter.error(Codes.rename, `${RENAMED_FROM_KEY} lists the current name`, at);
      else if (declared)
        reporter.error(
          Codes.rename,
          `${RENAMED_FROM_KEY} names ${previous}, which is declared too (${where(reporter, declared)}): a name is either current or former`,
          at,
        );
      else if (earlier)
        reporter.error(
          Codes.rename,
          `${previous} is also a former name of ${earlier.address} (${where(reporter, earlier)}): one object can take it over`,
          at,
        );
      else formerOf.set(previous, o);
    }
    if (o.pinnedId === undefined) continue;
    const key = `${o.kind}|${o.pinnedId}`;
    const earlier = pinned.get(key);
    if (!earlier) pinned.set(key, o);
    else
      reporter.error(
        Codes.duplicateUuid,
        `metadata.${PINNED_ID_KEY} ${o.pinnedId} also pins ${earlier.address} (${where(reporter, earlier)}): one document per live object`,
        keyPlace(reporter, o, PINNED_ID_KEY),
      );
  }
  // A parent named by a former name: found today, gone once the rename is applied.
  for (const o of objects) {
    const ref = o.parentRef;
    if (!ref || !('name' in ref) || !hasKind(ref.kind)) continue;
    const renamed = formerOf.get(kindOf(ref.kind).address(undefined, ref.name));
    if (!renamed) continue;
    reporter.error(
      Codes.rename,
      `${ref.name} is a former name of ${renamed.address} (${where(reporter, renamed)}): name the ${kindOf(ref.kind).manifest.noun} ${kindOf(ref.kind).identity(renamed.fields)}`,
      keyPlace(reporter, o, ref.kind.toLowerCase()),
    );
  }
}

/** Where a key of an object's own node is written: `metadata.<key>` for a document, else the item's key. */
function keyPlace(reporter: Reporter, o: DesiredObject, key: string): SourcePosition {
  if (o.origin.type !== 'yaml') return placeOf(reporter, o);
  const path = o.origin.document ? ['metadata', key] : [...o.origin.path, key];
  return reporter.resolve({ file: o.origin.file, doc: o.origin.doc, path, key: true });
}
