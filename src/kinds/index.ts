import { addressKind } from './address.js';
import { administratorKind } from './administrator.js';
import { brandingKind } from './branding.js';
import { callingPlanKinds, prefixKind, trunkGroupKind } from './calling-plan.js';
import { enabledUcKind } from './enabled-uc.js';
import { entitlementKind } from './entitlement.js';
import { groupKind } from './group.js';
import { locationKind } from './location.js';
import { numberLinkKind } from './number-link.js';
import { productKind } from './product.js';
import { resellerKind } from './reseller.js';
import { subscriptionKind } from './subscription.js';
import { templateKind } from './template.js';
import { tenantKind } from './tenant.js';
import type { KindDefinition } from './types.js';

/** Every resource kind, registered explicitly. Parents come before their children. */
export const kinds: readonly KindDefinition[] = [
  groupKind,
  resellerKind,
  tenantKind,
  subscriptionKind,
  entitlementKind,
  addressKind,
  locationKind,
  templateKind,
  trunkGroupKind,
  ...callingPlanKinds,
  prefixKind,
  productKind,
  administratorKind,
  brandingKind,
  numberLinkKind,
  enabledUcKind,
];

const byName = new Map(kinds.map((k) => [k.kind, k]));

export function kindOf(name: string): KindDefinition {
  const kind = byName.get(name);
  if (!kind) throw new Error(`unknown kind ${name}`);
  return kind;
}

export function hasKind(name: string): boolean {
  return byName.has(name);
}

export type * from './types.js';
