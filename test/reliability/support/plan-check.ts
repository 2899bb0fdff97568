/** Checks writes seen on the wire against the saved plan that was applied. */
import type { WireRecord } from './chaos-proxy.js';

export interface PlanFile {
  summary: Record<string, number>;
  changes: { address: string; action: string; requests?: { method: string; path: string }[] }[];
}

/** A planned request path as a pattern: pending ids (`{id:ADDRESS}`) match any one segment. */
function pattern(path: string): RegExp {
  const parts = path.split(/\{id:[^}]*\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

export function pendingChanges(plan: PlanFile): number {
  return ['create', 'update', 'replace', 'delete'].reduce((n, k) => n + (plan.summary[k] ?? 0), 0);
}

/**
 * Updates and deletes on the wire that no change of the plan asked for. A planned create of
 * an object the API cannot read (an administrator) may become its update (`PUT …/admins/{email}`,
 * docs/apply.md "The last-applied record") when the account exists, and address creates may go as one bulk PUT: those
 * PUTs are allowed under the planned POST path, nothing else is.
 */
export function writesOutsidePlan(plan: PlanFile, writes: WireRecord[]): string[] {
  const allowed: { method: string; re: RegExp }[] = [];
  for (const change of plan.changes) {
    for (const r of change.requests ?? []) {
      allowed.push({ method: r.method, re: pattern(r.path) });
      if (r.method === 'POST' && /\/admins$/.test(r.path))
        allowed.push({ method: 'PUT', re: pattern(`${r.path}/{id:x}`) });
      // address creates of one subscription above the bulk threshold go as one PUT A/bulk (Doc 2 §4.5)
      if (r.method === 'POST' && /\/addresses$/.test(r.path))
        allowed.push({ method: 'PUT', re: pattern(`${r.path}/bulk`) });
    }
  }
  return writes
    .filter((w) => w.method === 'PUT' || w.method === 'DELETE' || w.method === 'PATCH')
    .filter((w) =>
      !w.path.startsWith('/api/')
        ? false
        : !allowed.some((a) => a.method === w.method && a.re.test(decodeURIComponent(w.path))),
    )
    .map((w) => `${w.method} ${w.path} → ${String(w.status)}`);
}
