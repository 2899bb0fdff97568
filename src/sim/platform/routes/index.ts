/**
 * Every route module of the platform API, registered in this order. Document 2 modules
 * are added here (see the doc comment of ../router.ts).
 */
import type { RouteModule } from '../router.js';
import { registerAdminRoutes } from './admins.js';
import { registerAuthRoutes } from './auth.js';
import { registerConfigurationRoutes } from './configuration.js';
import { subscriptionResourceModules } from './subscription-resources.js';
import { registerGroupRoutes } from './groups.js';
import { registerProfileRoutes } from './profile.js';
import { registerReferenceRoutes } from './reference.js';
import { registerResellerRoutes } from './resellers.js';
import { registerTenantRoutes } from './tenants.js';

export const routeModules: RouteModule[] = [
  registerAuthRoutes,
  registerProfileRoutes,
  registerGroupRoutes,
  registerResellerRoutes,
  registerTenantRoutes,
  registerAdminRoutes,
  registerConfigurationRoutes,
  registerReferenceRoutes,
  ...subscriptionResourceModules,
];
