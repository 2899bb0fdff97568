/**
 * Hierarchy visibility (Document 1 §1.5, §5.3). The caller's scope is its profile's
 * `admin_of` (level + reference uuid):
 *
 * - system: everything;
 * - group: the group and everything below it;
 * - distributor: the distributor, its resellers and their direct and indirect customers;
 * - reseller: the reseller and its direct customers (tenants and resellers it owns);
 * - tenant: its tenant only (and what is below it), and no billable changes.
 *
 * Out of scope is 403, whatever the api_rules say.
 */
import { forbidden } from './errors.js';
import type { RequestContext } from './router.js';
import type { OrgNode, PlatformStore } from './store/store.js';
import type { AdminLevel, UserRow } from './store/types.js';

export interface Actor {
  level: AdminLevel;
  reference: string;
}

export function actorOf(user: UserRow | undefined): Actor {
  return user ? user.adminOf : { level: 'tenant', reference: '' };
}

export function isSystem(ctx: RequestContext): boolean {
  return actorOf(ctx.user).level === 'system';
}

/** The node's uuid followed by its ancestors' uuids, nearest first. */
export function lineage(node: OrgNode): string[] {
  switch (node.type) {
    case 'group':
      return [node.row.uuid];
    case 'distributor':
      return [node.row.uuid, node.row.groupUuid];
    default:
      return [node.row.uuid, ...node.row.ancestors];
  }
}

export function canSee(actor: Actor, node: OrgNode): boolean {
  switch (actor.level) {
    case 'system':
      return true;
    case 'group':
    case 'distributor':
      return lineage(node).includes(actor.reference);
    case 'reseller':
      if (node.row.uuid === actor.reference) return true;
      return (node.type === 'tenant' || node.type === 'reseller') && node.row.owner.uuid === actor.reference;
    case 'tenant':
      return node.row.uuid === actor.reference;
  }
}

/** 403 unless the caller sees the node. */
export function assertVisible(ctx: RequestContext, node: OrgNode): void {
  if (!canSee(actorOf(ctx.user), node)) {
    throw forbidden(`${node.type} ${node.row.uuid} is outside the hierarchy of user ${ctx.user?.username ?? '?'}`);
  }
}

/** Group administration is for system administrators (Document 1 §4.2). */
export function assertSystem(ctx: RequestContext, what: string): void {
  if (!isSystem(ctx)) throw forbidden(`${what} is reserved to system administrators`);
}

/** Tenant administrators may not make billable changes (Document 1 §1.5). */
export function assertMayBill(ctx: RequestContext, what: string): void {
  if (actorOf(ctx.user).level === 'tenant')
    throw forbidden(`${what} is a billable change, which tenant administrators may not make`);
}

/** The organization node of the caller's own level, if it has one. */
export function ownNode(store: PlatformStore, actor: Actor): OrgNode | undefined {
  return actor.level === 'system' ? undefined : store.node(actor.reference);
}
