/**
 * The Document 2 route modules (subscription-level resources), in registration order. The
 * first one registers the Document 2 store tables before any seed or state is loaded.
 */
import type { RouteModule } from '../router.js';
import { subscriptionTables } from '../store/subscription-tables.js';
import { registerAddressRoutes } from './addresses.js';
import { registerBulkJobRoutes } from './bulk-jobs.js';
import { registerCallingPlanRoutes } from './calling-plans.js';
import { registerEntitlementRoutes } from './entitlements.js';
import { registerLocationRoutes } from './locations.js';
import { registerNumberRoutes } from './numbers.js';
import { registerOrderRoutes } from './orders.js';
import { registerProductRoutes } from './products.js';
import { registerReportRoutes } from './reports.js';
import { registerSubscriptionRoutes } from './subscriptions.js';
import { registerTemplateRoutes } from './templates.js';

const registerSubscriptionTables: RouteModule = (_router, store) => {
  subscriptionTables(store);
};

export const subscriptionResourceModules: RouteModule[] = [
  registerSubscriptionTables,
  registerSubscriptionRoutes,
  registerEntitlementRoutes,
  registerNumberRoutes,
  registerAddressRoutes,
  registerBulkJobRoutes,
  registerLocationRoutes,
  registerTemplateRoutes,
  registerCallingPlanRoutes,
  registerProductRoutes,
  registerReportRoutes,
  registerOrderRoutes,
];
