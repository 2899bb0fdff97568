import { canonicalJson } from '../../core/canonical-json.js';
import { kinds } from '../../kinds/index.js';
import type { KindDefinition } from '../../kinds/types.js';
import { baselineKind } from '../../kinds/baseline.js';
import type { Json } from '../build-context.js';
import type { DesiredSet } from '../desired-set.js';
import { kindPlans, type KindPlan } from '../kind-plans.js';
import { baselineTarget } from '../schema-baseline.js';
import type { DesiredObject } from '../types.js';
import { isItem } from './merge.js';
import { Ancestry, nameOf, parentNamed, selectorKeys, selects } from './selector.js';

/**
 * What adopting baselines needs besides the merge and its reverse: the kind baselines apply
 * to, who is under whom in a flat manifest set, selectors from the command line, and the
 * check that a rewritten set declares exactly what the flat one did (`baseline suggest
 * --write`, `export --baselines` refuse to write otherwise).
 */

let documentKind: { kind: KindDefinition; plan: KindPlan } | undefined;
/** The document kind baselines apply to, and the walker's plan of it (found once per process). */
export function baselineDocumentKind(): { kind: KindDefinition; plan: KindPlan } {
  if (!documentKind) {
    const kind = baselineTarget(kinds);
    documentKind = { kind, plan: kindPlans().get(kind.kind) as KindPlan };
  }
  return documentKind;
}

/** Who is under whom, from the document objects of a loaded set. */
export function ancestryOf(set: DesiredSet): Ancestry {
  const ancestry = new Ancestry();
  const keyKinds = new Set(selectorKeys().map((k) => k.kind.kind));
  for (const object of set.objects) {
    if (!keyKinds.has(object.kind) || object.address !== object.documentAddress) continue;
    const name = nameOf(object);
    if (name === undefined) continue;
    const parent = object.parentAddress === undefined ? undefined : set.get(object.parentAddress);
    const parentName = parent ? nameOf(parent) : undefined;
    if (parent && parentName !== undefined)
      ancestry.declare(object.kind, name, { kind: parent.kind, name: parentName });
    else if (object.parentRef && 'name' in object.parentRef)
      ancestry.declare(object.kind, name, { kind: object.parentRef.kind, name: object.parentRef.name });
  }
  return ancestry;
}

/** Whether a document (its metadata) is selected by a selector, given who is under whom. */
export function documentSelected(selector: Json, metadata: Json, ancestry: Ancestry): boolean {
  const { kind } = baselineDocumentKind();
  const labels = isItem(metadata['labels']) ? metadata['labels'] : undefined;
  return selects(selector, ancestry.of(parentNamed(kind, metadata)), labels);
}

/**
 * A selector from `--select` arguments, each `KEY=VALUE` with KEY one of the selector's
 * owners (`reseller`, `group`) or `label:NAME`; several are all required. Throws a message.
 */
export function selectorFromArguments(args: readonly string[]): Json {
  const selector: Json = {};
  const owners = selectorKeys().map((k) => k.kind.manifest.noun);
  for (const arg of args) {
    const at = arg.indexOf('=');
    const key = at < 0 ? '' : arg.slice(0, at).trim();
    const value = at < 0 ? '' : arg.slice(at + 1).trim();
    if (!key || !value)
      throw new Error(`--select ${arg}: expected KEY=VALUE (${owners.join('=NAME, ')}=NAME or label:NAME=VALUE)`);
    if (key.startsWith('label:')) {
      const labels = (selector['labels'] as Json | undefined) ?? {};
      labels[key.slice('label:'.length)] = value;
      selector['labels'] = labels;
      continue;
    }
    const owner = selectorKeys().find((k) => k.kind.manifest.noun === key);
    if (!owner) throw new Error(`--select ${arg}: ${key} is not ${owners.join(', ')} or label:NAME`);
    const names = (selector[owner.key] as string[] | undefined) ?? [];
    selector[owner.key] = [...names, value];
  }
  return selector;
}

/** A Baseline document as data (what `baseline suggest` writes). */
export function baselineDocument(name: string, description: string, selector: Json, values: Json): Json {
  return {
    apiVersion: 'switchboard/v1',
    kind: baselineKind.kind,
    metadata: { name, description },
    spec: { selector, values },
  };
}

/**
 * What differs between the objects of two loads of the same manifests (flat, then with
 * baselines): an object missing on one side, or declared otherwise. Empty when they agree.
 */
export function declaredDifferences(flat: DesiredSet, merged: DesiredSet, limit = 10): string[] {
  const differences: string[] = [];
  const addresses = new Set([...flat.objects.map((o) => o.address), ...merged.objects.map((o) => o.address)]);
  for (const address of addresses) {
    if (differences.length >= limit) break;
    const a = flat.get(address);
    const b = merged.get(address);
    if (!a || !b) {
      differences.push(`${address}: declared ${a ? 'only before' : 'only after'} the rewrite`);
      continue;
    }
    const [x, y] = [declaration(a), declaration(b)];
    if (x !== y) differences.push(`${address}: declared ${x} before the rewrite, ${y} after`);
  }
  return differences;
}

function declaration(o: DesiredObject): string {
  return canonicalJson({
    kind: o.kind,
    fields: o.fields,
    collections: [...o.declaredCollections].sort(),
    sensitive: [...o.sensitiveFields].sort(),
    prune: o.prune,
    protect: o.protect,
    parentAddress: o.parentAddress ?? null,
    parentRef: o.parentRef ?? null,
    previousAddresses: o.previousAddresses ?? null,
    pinnedId: o.pinnedId ?? null,
  });
}
