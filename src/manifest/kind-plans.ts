import { kinds } from '../kinds/index.js';
import type { FieldSpec, KindDefinition, ManifestForm } from '../kinds/types.js';
import type { Json } from './build-context.js';
import { sortKeysDeep } from '../core/canonical-json.js';
import type { JsonScalar, JsonValue } from './types.js';

/**
 * The kind table as the manifest walker reads it (see walker.ts): for each kind, the fields
 * an item may declare and how, and its child collections by key.
 */

/** A kind as the walker uses it, computed once from its table row. */
export interface KindPlan {
  kind: KindDefinition;
  form: ManifestForm;
  /** The fields an item may declare, in the table's order (then `extraFields`). */
  fields: readonly FieldPlan[];
  /** The fields formed from the others when an item leaves them out (`FieldSpec.derived`). */
  derived: readonly FieldSpec[];
  /** For a map-shaped collection: the identity field its keys give. */
  keyField?: string;
  /** Child collections and CSV sources by their key in this kind's items. */
  children?: ReadonlyMap<string, ChildPlan>;
  /** The identity field the API can change, when items may say `renamedFrom` (`manifest.renamable`). */
  renamableField?: string;
}

interface FieldPlan {
  name: string;
  /** Documents only: read from `metadata`, not from `spec`. */
  fromMetadata: boolean;
  /** A text field: a number written unquoted ("10", "1000", "32") becomes its text. */
  text: boolean;
}

export interface ChildPlan {
  plan: KindPlan;
  /** The key names a CSV file of items, not the items. */
  csv: boolean;
}

/** The key listing an object's former names: in `metadata` for a document, in the item for a nested kind. */
export const RENAMED_FROM_KEY = 'renamedFrom';
/** The `metadata` key pinning a document to a live object's id (`DocumentForm.pinnable`). */
export const PINNED_ID_KEY = 'uuid';

let plans: Map<string, KindPlan> | undefined;

/** The walker's view of every kind of the table (built on first use). */
export function kindPlans(): ReadonlyMap<string, KindPlan> {
  if (plans) return plans;
  const built = new Map<string, KindPlan>(kinds.map((kind) => [kind.kind, planOf(kind)]));
  for (const child of kinds) {
    if (child.collection === undefined) continue;
    for (const parentKind of child.parentKinds) {
      const parent = built.get(parentKind);
      if (!parent) continue; // a parent outside the table (a distributor)
      const children = (parent.children ?? new Map<string, ChildPlan>()) as Map<string, ChildPlan>;
      addChild(children, parent, child.collection, { plan: built.get(child.kind) as KindPlan, csv: false });
      const csv = child.manifest.csv;
      if (csv) addChild(children, parent, csv.key, { plan: built.get(child.kind) as KindPlan, csv: true });
      parent.children = children;
    }
  }
  plans = built;
  return built;
}

function addChild(children: Map<string, ChildPlan>, parent: KindPlan, key: string, child: ChildPlan): void {
  const taken = children.get(key);
  if (taken) {
    const both = `${taken.plan.kind.kind}, ${child.plan.kind.kind}`;
    throw new Error(`kind table: ${parent.kind.kind} has two child kinds at "${key}": ${both}`);
  }
  children.set(key, child);
}

function planOf(kind: KindDefinition): KindPlan {
  const form = kind.manifest;
  const metadata = new Set(form.document?.metadataFields ?? []);
  const fields: FieldPlan[] = kind.fields
    .filter((spec) => spec.change !== 'readOnly')
    .map((spec) => ({ name: spec.name, fromMetadata: metadata.has(spec.name), text: spec.type === 'string' }));
  for (const { name } of form.extraFields ?? []) fields.push({ name, fromMetadata: false, text: false });
  const derived = kind.fields.filter((spec) => spec.derived !== undefined);
  const plan: KindPlan = { kind, form, fields, derived };
  if (form.shape === 'map') plan.keyField = form.identity[0];
  if (form.renamable) plan.renamableField = renamableField(kind, form.renamable.field);
  return plan;
}

/** A rename changes the identity field through an update: the table must say both. */
function renamableField(kind: KindDefinition, field: string): string {
  const spec = kind.fields.find((f) => f.name === field);
  if (!kind.manifest.identity.includes(field) || spec?.change !== 'update' || !kind.update)
    throw new Error(`kind table: ${kind.kind} is renamable by "${field}", which is not an updatable identity field`);
  return field;
}

/**
 * The addresses an object had under the former names an item lists (`renamedFrom`): its
 * address with each name in place of the current one, under the same parent.
 */
export function previousAddressesOf(
  plan: KindPlan,
  fields: Json,
  parentAddress: string | undefined,
  formerNames: JsonValue | undefined,
): string[] | undefined {
  const field = plan.renamableField;
  if (field === undefined || !Array.isArray(formerNames) || formerNames.length === 0) return undefined;
  return formerNames.map((name) => plan.kind.address(parentAddress, plan.kind.identity({ ...fields, [field]: name })));
}

/**
 * An item's fields: the table's fields it declares (explicit null kept), a map item's key
 * as its identity field, then the derived fields it leaves out.
 */
export function fieldsOf(plan: KindPlan, item: Json, key?: string, metadata?: Json): Json {
  const out: Json = {};
  for (const field of plan.fields) {
    let value: JsonValue | undefined;
    if (key !== undefined && field.name === plan.keyField) value = key;
    else {
      const source = field.fromMetadata ? metadata : item;
      if (!source || !(field.name in source)) continue;
      value = source[field.name] as JsonValue;
    }
    if (typeof value === 'number') {
      if (field.text) value = String(value);
    } else if (value !== null && typeof value === 'object') {
      value = sortKeysDeep(value);
    }
    out[field.name] = value;
  }
  for (const spec of plan.derived) if (out[spec.name] === undefined) out[spec.name] = spec.derived?.(out) as JsonValue;
  return out;
}

/** The fields that identify an object of `plan`'s kind in its parent (`DesiredObject.identity`). */
export function identityOf(plan: KindPlan, fields: Json): Record<string, JsonScalar> {
  const identity: Record<string, JsonScalar> = {};
  for (const name of plan.form.identity) if (name in fields) identity[name] = fields[name] as JsonScalar;
  return identity;
}

/** The address of an object of `plan`'s kind: the one the live side builds for it. */
export function addressOf(plan: KindPlan, fields: Json, parentAddress: string | undefined): string {
  return plan.kind.address(parentAddress, plan.kind.identity(fields));
}
