/** What the trust tests share: a plan file edited and sealed again as a forger would, and what a simulator was sent. */
import { readFile, writeFile } from 'node:fs/promises';
import { digestOf } from '../../src/core/canonical-json.js';
import { changeSetSeal } from '../../src/plan/change-set.js';
import type { Change, Plan } from '../../src/plan/types.js';

export type PlanJson = Plan & Record<string, unknown>;

/**
 * Reads a plan file, edits it, and writes it back sealed again: with `changeSet` its
 * change-set digest and then its digest recomputed (what anyone holding the file can do),
 * with `digest` only the digest, with `none` neither.
 */
export async function forge(
  file: string,
  edit: (plan: PlanJson) => void,
  reseal: 'changeSet' | 'digest' | 'none' = 'changeSet',
): Promise<void> {
  const plan = JSON.parse(await readFile(file, 'utf8')) as PlanJson;
  edit(plan);
  const { digest: _digest, ...content } = plan;
  if (reseal === 'changeSet') content['changeSet'] = changeSetSeal(content.changes);
  const sealed = reseal === 'none' ? plan : { ...content, digest: digestOf(content) };
  await writeFile(file, JSON.stringify(sealed, null, 2));
}

/** The change at `address` of a parsed plan file. */
export function changeAt(plan: Plan, address: string): Change {
  const change = plan.changes.find((c) => c.address === address);
  if (!change) throw new Error(`the plan has no change of ${address}`);
  return change;
}

/** Counts agree with the changes again, as a forger keeps them. */
export function recount(plan: Plan): void {
  for (const action of ['create', 'update', 'replace', 'delete'] as const)
    plan.summary[action] = plan.changes.filter((c) => c.action === action).length;
}

interface Stats {
  routes: { method: string; route: string; count: number }[];
}

/** Zeroes the simulator's request counters. */
export async function resetStats(url: string): Promise<void> {
  await fetch(`${url}/_sim/stats`, { method: 'DELETE' });
}

/**
 * The requests the simulator handled since the counters were zeroed that could change
 * something: every method but GET, logins excepted (a login changes nothing).
 */
export async function writesSent(url: string): Promise<string[]> {
  const stats = (await (await fetch(`${url}/_sim/stats`)).json()) as Stats;
  return stats.routes
    .filter((r) => r.method !== 'GET' && !r.route.includes('/auth/'))
    .map((r) => `${r.method} ${r.route} ×${r.count}`);
}

/** The simulator's whole store: equal before and after means nothing changed. */
export async function simState(url: string): Promise<string> {
  return JSON.stringify(await (await fetch(`${url}/_sim/state`)).json());
}
