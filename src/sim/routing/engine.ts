import { SimTable } from './table.js';
import {
  PEER_QUIRKS,
  type RoutingSeed,
  type SimCredentials,
  type SimPeer,
  type SimQuirks,
  type SimTableSeed,
  type SimVersionName,
} from './types.js';

const VERSIONS: readonly SimVersionName[] = ['active', 'standby'];

/** The simulator's whole store: services → versions → tables, plus auth and limits. */
export class SimEngine {
  readonly tables = new Map<string, SimTable>();
  readonly credentials: SimCredentials;
  readonly maxResultsPerPage: number;
  readonly quirks: SimQuirks;
  readonly peer: SimPeer | undefined;
  private readonly services: RoutingSeed['services'];

  constructor(seed: RoutingSeed) {
    this.credentials = seed.credentials ?? {};
    this.maxResultsPerPage = seed.maxResultsPerPage ?? 100;
    this.peer = seed.peer;
    this.quirks = { ...(seed.peer ? PEER_QUIRKS[seed.peer] : {}), ...seed.quirks };
    this.services = seed.services;
    for (const [service, versions] of Object.entries(seed.services)) {
      for (const version of VERSIONS) {
        for (const [name, table] of Object.entries(versions[version] ?? {})) {
          this.tables.set(
            tableKey(service, version, name),
            new SimTable(name, table, { typeAffinity: this.quirks.typeAffinity === true }),
          );
        }
      }
    }
  }

  table(service: string, version: string, name: string): SimTable | undefined {
    return this.tables.get(tableKey(service, version, name));
  }

  /** The current data as a seed (credentials, limits and quirks included). */
  snapshot(): RoutingSeed {
    const services: RoutingSeed['services'] = {};
    for (const [service, versions] of Object.entries(this.services)) {
      const out: Partial<Record<SimVersionName, Record<string, SimTableSeed>>> = {};
      for (const version of VERSIONS) {
        if (!versions[version]) continue;
        const tables: Record<string, SimTableSeed> = {};
        for (const name of Object.keys(versions[version] ?? {})) {
          const t = this.table(service, version, name);
          if (t) tables[name] = t.snapshot();
        }
        out[version] = tables;
      }
      services[service] = out;
    }
    return {
      credentials: this.credentials,
      maxResultsPerPage: this.maxResultsPerPage,
      ...(this.peer ? { peer: this.peer } : {}),
      quirks: this.quirks,
      services,
    };
  }
}

function tableKey(service: string, version: string, table: string): string {
  return `${service}\u0000${version}\u0000${table}`;
}
