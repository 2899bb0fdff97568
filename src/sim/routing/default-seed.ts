import type { RoutingSeed } from './types.js';

/**
 * The routing-engine part of the simulator's default data set (notes/seed.md): service
 * `draas`, versions `active` and `standby`, tables `routes` and `carriers`, five sample
 * rows in `active/routes`, Basic `routing`/`routing` and Bearer `routing-token`.
 */
export function defaultRoutingSeed(): RoutingSeed {
  const tables = () => ({
    routes: {
      fields: {
        number: { type: 'string' as const, unique: true, nullable: false },
        route: { type: 'string' as const, nullable: false },
        priority: { type: 'integer' as const, nullable: true },
      },
    },
    carriers: {
      fields: {
        prefix: { type: 'string' as const, unique: true },
        carrier: { type: 'string' as const },
        weight: { type: 'integer' as const },
      },
    },
  });
  const active = tables();
  const sampleRoutes = [
    { number: '+3221234560', route: 'trunk-7', priority: 10 },
    { number: '+3221234561', route: 'trunk-7', priority: 10 },
    { number: '+3221234562', route: 'trunk-8', priority: 20 },
    { number: '+3221234563', route: 'trunk-8', priority: null },
    { number: '+3221234564', route: 'trunk-1', priority: 5 },
  ];
  return {
    credentials: { basic: [{ username: 'routing', password: 'routing' }], tokens: ['routing-token'] },
    maxResultsPerPage: 100,
    services: {
      draas: {
        active: { ...active, routes: { ...active.routes, rows: sampleRoutes } },
        standby: tables(),
      },
    },
  };
}
