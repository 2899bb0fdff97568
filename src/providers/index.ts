/**
 * The providers: the systems a plan changes, each behind the same small contract (read,
 * plan, apply; see types.ts). The run layer makes one of each that the manifests need.
 */
export { platformProvider, type PlatformClient, type PlatformInput } from './platform.js';
export { ROUTING_ROW, routingInScope, routingProvider, type RoutingInput } from './routing/index.js';
export type { LiveValuesRef, Provider, ProviderApplyEnv, ProviderPlanOptions } from './types.js';
