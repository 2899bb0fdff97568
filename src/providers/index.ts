/**
 * The providers: the systems a plan changes, each behind the same small contract (read,
 * plan, apply; see types.ts). The run layer makes one of each that the manifests need.
 */
import type { ProviderName } from '../plan/types.js';
import { platformOwns } from './platform.js';
import { ROUTING_ROW } from './routing/index.js';

export { platformProvider, type PlatformClient, type PlatformInput } from './platform.js';
export { ROUTING_ROW, routingInScope, routingProvider, type RoutingInput } from './routing/index.js';
export type { LiveValuesRef, Provider, ProviderApplyEnv, ProviderPlanOptions } from './types.js';

/** Which provider plans objects of a kind (for plan files that do not say); undefined when none does. */
export function providerOfKind(kind: string): ProviderName | undefined {
  if (platformOwns(kind)) return 'platform';
  return kind === ROUTING_ROW ? 'routing' : undefined;
}
