import { RefusedError } from '../core/errors.js';
import { parentAddressOf } from '../kinds/address-path.js';
import type { Change, Plan, PlanOptions } from '../plan/types.js';

/** Lists at most this many stale addresses in the refusal. */
const MAX_LISTED = 30;

/**
 * `apply --plan FILE`: the saved plan may be applied only if it still says what a fresh
 * plan from the same manifests says. Refuses (exit 3) when the target or the manifests
 * differ, or when any touched object changed since (its `liveDigest`), or the fresh plan
 * would do something else with an address (another action, other requests, or nothing).
 * Returns the fresh plan's changes for exactly the saved addresses, in the fresh plan's
 * order: they carry the same actions and digests, and their live objects were just read.
 */
export function checkSavedPlan(saved: Plan, fresh: Plan, planFile: string): Change[] {
  if (
    saved.target.baseUrl.replace(/\/+$/, '') !== fresh.target.baseUrl.replace(/\/+$/, '') ||
    saved.target.instance !== fresh.target.instance
  ) {
    throw new RefusedError(
      'SB_PLAN_TARGET',
      `${planFile} was made for ${saved.target.baseUrl} (instance ${saved.target.instance}), not ${fresh.target.baseUrl} (instance ${fresh.target.instance}): apply it with the environment it was made for`,
    );
  }
  if (saved.manifests.digest !== fresh.manifests.digest) {
    throw new RefusedError(
      'SB_PLAN_MANIFESTS',
      `${planFile} was made from other manifests (digest ${saved.manifests.digest}, these are ${fresh.manifests.digest}; files then: ${saved.manifests.files.join(', ') || 'none'}): the request bodies come from the manifests, so give the same ones, or make a new plan`,
    );
  }
  const freshByAddress = new Map(fresh.changes.map((c) => [c.address, c]));
  const stale: string[] = [];
  for (const change of saved.changes) {
    const now = freshByAddress.get(change.address);
    const why = staleReason(change, now);
    if (why) stale.push(`${change.address}: ${why}`);
  }
  if (stale.length > 0) {
    const listed = stale.slice(0, MAX_LISTED).map((s) => `  ${s}`);
    if (stale.length > MAX_LISTED) listed.push(`  … and ${stale.length - MAX_LISTED} more`);
    throw new RefusedError(
      'SB_PLAN_STALE',
      `${planFile} is stale: the platform changed since it was made (${stale.length} change(s) differ):\n${listed.join('\n')}\nRun plan again and review the new plan.`,
    );
  }
  const wanted = new Set(saved.changes.map((c) => c.address));
  return fresh.changes.filter((c) => wanted.has(c.address));
}

function staleReason(saved: Change, now: Change | undefined): string | undefined {
  if (!now) return `the plan would now do nothing here (saved: ${saved.action})`;
  if (now.action !== saved.action) return `the plan would now ${now.action} (saved: ${saved.action})`;
  if (now.provider !== saved.provider)
    return `the plan would now make it through the ${now.provider} provider (saved: ${saved.provider})`;
  if ((now.previousAddress ?? null) !== (saved.previousAddress ?? null)) {
    const from = (c: Change) => (c.previousAddress === undefined ? 'no rename' : `a rename from ${c.previousAddress}`);
    return `the plan would now make ${from(now)} (saved: ${from(saved)})`;
  }
  if ((now.liveDigest ?? null) !== (saved.liveDigest ?? null)) return 'the live object changed since the plan was made';
  const requests = (c: Change) => c.requests.map((r) => `${r.method} ${r.path}`).join('\n');
  if (requests(now) !== requests(saved)) return 'the requests it needs changed (a parent was re-created?)';
  return undefined;
}

const OPTION_FLAGS: Record<keyof PlanOptions, string> = {
  target: '--target',
  exclude: '--exclude',
  prune: '--prune',
  allowReplace: '--allow-replace',
  maxDeletePercent: '--max-delete-percent',
  maxUpdatePercent: '--max-update-percent',
  allowPolicy: '--allow-policy',
};

/**
 * The options `apply --plan` plans again with: the saved plan's own (a plan made with
 * `--prune` or `--target` is checked against a fresh plan made the same way). An option
 * also given on the command line must say the same, or the run is refused (exit 3). The
 * policy overrides are the exception: whoever applies must give the plan's `--allow-policy`
 * again, exactly, so that no override is applied without being asked for at apply too. A
 * plan file without `options` (made before they were recorded) leaves the given ones as they are.
 */
export function savedPlanOptions(
  saved: Plan,
  given: PlanOptions,
  isExplicit: (option: keyof PlanOptions) => boolean,
  planFile: string,
): PlanOptions {
  const overrides = overridesClash(saved, given);
  if (!saved.options) {
    if (overrides) throw optionsRefused(planFile, [overrides]);
    return given;
  }
  const used: PlanOptions = {
    ...saved.options,
    maxUpdatePercent: saved.options.maxUpdatePercent ?? given.maxUpdatePercent,
    allowPolicy: saved.options.allowPolicy ?? [],
  };
  const clashes: string[] = [];
  for (const key of Object.keys(OPTION_FLAGS) as (keyof PlanOptions)[]) {
    if (key === 'allowPolicy') continue;
    if (isExplicit(key) && JSON.stringify(given[key]) !== JSON.stringify(used[key])) {
      clashes.push(
        `${OPTION_FLAGS[key]}: the plan was made with ${describeOption(key, used[key])}, this command gives ${describeOption(key, given[key])}`,
      );
    }
  }
  if (overrides) clashes.push(overrides);
  if (clashes.length > 0) throw optionsRefused(planFile, clashes);
  return used;
}

/** The plan's policy overrides and the command line's must be the same rules (in any order). */
function overridesClash(saved: Plan, given: PlanOptions): string | undefined {
  const made = [...new Set(saved.options?.allowPolicy ?? saved.policy?.overrides ?? [])].sort();
  const now = [...new Set(given.allowPolicy ?? [])].sort();
  if (JSON.stringify(made) === JSON.stringify(now)) return undefined;
  return `--allow-policy: the plan was made with ${describeOption('allowPolicy', made)}, this command gives ${describeOption('allowPolicy', now)}; whoever applies a plan gives its policy overrides again, the same`;
}

function optionsRefused(planFile: string, clashes: string[]): RefusedError {
  return new RefusedError(
    'SB_PLAN_OPTIONS',
    `${planFile} was made with other options:\n${clashes.map((c) => `  ${c}`).join('\n')}\nLeave them out (the plan's own are used; --allow-policy excepted) or make a new plan.`,
  );
}

function describeOption(key: keyof PlanOptions, value: PlanOptions[keyof PlanOptions]): string {
  if (value === undefined) return `no ${OPTION_FLAGS[key]}`;
  if (Array.isArray(value))
    return value.length === 0 ? `no ${OPTION_FLAGS[key]}` : value.map((v) => `${OPTION_FLAGS[key]} ${v}`).join(' ');
  if (typeof value === 'boolean') return value ? OPTION_FLAGS[key] : `no ${OPTION_FLAGS[key]}`;
  return `${OPTION_FLAGS[key]} ${value}`;
}

/**
 * What `apply --plan` reads again: the subtrees its changes touch, not the whole estate
 * (a one-change plan of 2,000 tenants re-reads one tenant). Each change is targeted by its
 * address, a delete by its owner, whose declared collection it leaves (a target keeps its
 * subtree and its ancestors, see src/plan/targets.ts). The saved plan's safety rails were
 * checked when it was made, and a saved plan with refusals is refused here; the delete
 * share is therefore not checked again on this narrower scope, where its percentages would
 * be of a few objects; so are the update share and the policies' thresholds. Everything
 * else (protect, replace, permissions, the policies' other rules, capacity) is per object
 * and checked again.
 */
export function rereadScope(saved: Plan, options: PlanOptions, planFile: string): PlanOptions {
  if (saved.errors.length > 0) {
    throw new RefusedError(
      'SB_PLAN_REFUSED',
      `${planFile} was refused by the safety rails when it was made (${saved.errors.map((e) => e.code).join(', ')}): make a new plan once the reason is gone`,
    );
  }
  if (saved.changes.length === 0) return options;
  const targets = new Set<string>();
  for (const change of saved.changes)
    targets.add(change.action === 'delete' ? (parentAddressOf(change.address) ?? change.address) : change.address);
  return { ...options, target: [...targets], maxDeletePercent: 100, maxUpdatePercent: 100 };
}
