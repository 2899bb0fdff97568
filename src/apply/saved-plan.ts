import { canonicalJson } from '../core/canonical-json.js';
import { RefusedError } from '../core/errors.js';
import { compareChangeSets, type ChangeDifference } from '../plan/change-set.js';
import { planDocument } from '../plan/render-json.js';
import { DEFAULT_MAX_UPDATE_PERCENT } from '../plan/safety.js';
import type { Change, Plan, PlanOptions } from '../plan/types.js';

/** Lists at most this many differences in the refusal. */
const MAX_LISTED = 30;

/** What the fresh plan of `apply --plan` did besides its changes. */
export interface FreshPlanReads {
  /** The fresh plan read the routing engine (the manifests declare a routing table in scope, or a policy reads one). */
  routing?: boolean;
}

/**
 * `apply --plan FILE`: the saved plan may be applied only if a fresh plan, made from the same
 * manifests over the same scope with every safety rail run again, would do exactly what the
 * file says. Refuses (exit 3) when the target or the manifests differ, when a touched object
 * changed since (its id, `liveDigest` or requests: SB_PLAN_STALE), or when the changes differ
 * in any other way: a change the file lacks or holds in excess, another action, rename,
 * value (before, after, patch, sensitive digests), request or dependency (SB_PLAN_MISMATCH).
 * The target is the platform (`baseUrl`, `instance`) and, when the plan reads or changes
 * routing tables, the routing engine too (targetRefusal). Returns the fresh plan's changes,
 * which are then exactly the file's.
 */
export function checkSavedPlan(saved: Plan, fresh: Plan, planFile: string, reads: FreshPlanReads = {}): Change[] {
  const otherTarget = targetRefusal(saved, fresh, reads, planFile);
  if (otherTarget) throw otherTarget;
  if (saved.manifests.digest !== fresh.manifests.digest) {
    throw new RefusedError(
      'SB_PLAN_MANIFESTS',
      `${planFile} was made from other manifests (digest ${saved.manifests.digest}, these are ${fresh.manifests.digest}; files then: ${saved.manifests.files.join(', ') || 'none'}): the request bodies come from the manifests, so give the same ones, or make a new plan`,
    );
  }
  // Compared as the files hold them: masked, keys in order.
  const now = planDocument(fresh).changes;
  const stale = staleAddresses(saved.changes, now);
  const comparison = compareChangeSets(saved.changes, now);
  if (stale.length === 0 && comparison.same) return fresh.changes;
  const reasons = [
    ...stale.map((s) => `${s.address}: ${s.why}`),
    ...comparison.differences.filter((d) => !stale.some((s) => s.address === d.address)).map(differenceText),
    ...(comparison.reordered ? ['the fresh plan holds the same changes in another order'] : []),
  ];
  const listed = reasons.slice(0, MAX_LISTED).map((s) => `  ${s}`);
  if (reasons.length > MAX_LISTED) listed.push(`  … and ${reasons.length - MAX_LISTED} more`);
  const versions =
    saved.tool.version === fresh.tool.version
      ? ''
      : ` (the plan was made by switchboard ${saved.tool.version}, this is ${fresh.tool.version}: make the plan with the version that applies it)`;
  if (stale.length > 0) {
    throw new RefusedError(
      'SB_PLAN_STALE',
      `${planFile} is stale: a fresh plan differs from it (${reasons.length} difference(s)); the platform changed since it was made, or the file was edited:\n${listed.join('\n')}\nNothing was sent. Run plan again and review the new plan.`,
    );
  }
  throw new RefusedError(
    'SB_PLAN_MISMATCH',
    `${planFile} does not say what a fresh plan of the same manifests would do (${reasons.length} difference(s))${versions}:\n${listed.join('\n')}\nNothing was sent: a plan is applied only as a whole and exactly as made. Run plan again and review the new plan.`,
  );
}

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * The refusal (SB_PLAN_TARGET) when the fresh plan was made against another target than the
 * saved one: another platform (`baseUrl`, `instance`); or, when the routing engine is part of
 * the plan (the fresh plan read it, or either plan changes a routing row), another routing
 * engine, or none recorded in the file (it cannot say which engine it was read from). An
 * engine the run has configured but the plan never reads is not part of its target.
 */
function targetRefusal(saved: Plan, fresh: Plan, reads: FreshPlanReads, planFile: string): RefusedError | undefined {
  const { baseUrl, instance } = saved.target;
  if (!sameUrl(baseUrl, fresh.target.baseUrl) || instance !== fresh.target.instance) {
    return new RefusedError(
      'SB_PLAN_TARGET',
      `${planFile} was made for ${baseUrl} (instance ${instance}), not ${fresh.target.baseUrl} (instance ${fresh.target.instance}): apply it with the environment it was made for`,
    );
  }
  const routing = reads.routing === true || [...saved.changes, ...fresh.changes].some((c) => c.provider === 'routing');
  if (!routing) return undefined;
  const made = saved.target.routingEngine;
  const now = fresh.target.routingEngine;
  if (made !== undefined && now !== undefined && sameUrl(made, now)) return undefined;
  const then = made === undefined ? 'records no routing engine' : `was made against the routing engine ${made}`;
  return new RefusedError(
    'SB_PLAN_TARGET',
    `${planFile} ${then}, and this run reads the routing engine ${now ?? '(none configured)'}: apply it with the environment it was made for (SWITCHBOARD_RE_URL, or the configuration's routingEngine.url)`,
  );
}

/** Saved changes whose object is no longer as the plan read it (or whose plan no longer touches it). */
function staleAddresses(saved: readonly Change[], fresh: readonly Change[]): { address: string; why: string }[] {
  const byAddress = new Map(fresh.map((c) => [c.address, c]));
  const out: { address: string; why: string }[] = [];
  for (const change of saved) {
    const now = byAddress.get(change.address);
    const why = staleReason(change, now);
    if (why) out.push({ address: change.address, why });
  }
  return out;
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
  if ((now.id ?? null) !== (saved.id ?? null)) return `the live object has another id now (${now.id ?? 'none'})`;
  if (canonicalJson(now.requests) !== canonicalJson(saved.requests))
    return 'the requests it needs changed (a parent was re-created?)';
  return undefined;
}

/** `tenant/acme: after differs (plan file: {…}, fresh plan: {…})`, or a change one side lacks. */
function differenceText(d: ChangeDifference): string {
  if (d.in === 'first') return `${d.address}: the plan file holds a ${d.actions.first ?? ''} the fresh plan does not`;
  if (d.in === 'second')
    return `${d.address}: the fresh plan would ${d.actions.second ?? ''} it, and the plan file does not hold that change`;
  const fields = d.fields.map((f) => `${f.field} (plan file: ${short(f.first)}, fresh plan: ${short(f.second)})`);
  return `${d.address}: ${fields.join('; ')} differ`;
}

function short(value: unknown): string {
  const text = canonicalJson(value);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

const OPTION_FLAGS: Record<keyof PlanOptions, string> = {
  target: '--target',
  exclude: '--exclude',
  prune: '--prune',
  allowReplace: '--allow-replace',
  maxDeletePercent: '--max-delete-percent',
  maxUpdatePercent: '--max-update-percent',
  allowPolicy: '--allow-policy',
  allowAddressInUse: '--allow-address-in-use',
};

/**
 * The options `apply --plan` plans again with. What the plan covers (`--target`,
 * `--exclude`, `--prune`) is the saved plan's own. What loosens a safety rail is never taken
 * from the file: whoever applies gives it again, the same (a plan made with
 * `--max-delete-percent 50`, `--max-update-percent 60`, `--allow-replace` or `--allow-policy`
 * needs the same option at apply). A saved setting stricter than the command line's default
 * is kept. An option given on the command line must say what the plan was made with, or
 * the run is refused (exit 3). A plan file without `options` (a library's plan) is planned
 * again with the command line's.
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
  const made = saved.options;
  const clashes: string[] = [];
  for (const key of ['target', 'exclude', 'prune', 'maxDeletePercent', 'maxUpdatePercent', 'allowReplace'] as const) {
    if (isExplicit(key) && canonicalJson(given[key]) !== canonicalJson(made[key])) {
      clashes.push(
        `${OPTION_FLAGS[key]}: the plan was made with ${describeOption(key, made[key])}, this command gives ${describeOption(key, given[key])}`,
      );
    }
  }
  const givenUpdates = given.maxUpdatePercent ?? DEFAULT_MAX_UPDATE_PERCENT;
  const madeUpdates = made.maxUpdatePercent ?? DEFAULT_MAX_UPDATE_PERCENT;
  const looser: string[] = [];
  if (made.maxDeletePercent > given.maxDeletePercent)
    looser.push(describeOption('maxDeletePercent', made.maxDeletePercent));
  if (madeUpdates > givenUpdates) looser.push(describeOption('maxUpdatePercent', madeUpdates));
  if (made.allowReplace && !given.allowReplace) looser.push('--allow-replace');
  if (made.allowAddressInUse && !given.allowAddressInUse) looser.push('--allow-address-in-use');
  if (looser.length > 0)
    clashes.push(
      `the plan was made with ${looser.join(' ')}, which this command does not give: whoever applies a plan gives the options that loosen its safety rails again, the same`,
    );
  if (overrides) clashes.push(overrides);
  if (clashes.length > 0) throw optionsRefused(planFile, clashes);
  return {
    target: [...made.target],
    exclude: [...made.exclude],
    prune: made.prune,
    allowReplace: made.allowReplace && given.allowReplace,
    maxDeletePercent: Math.min(made.maxDeletePercent, given.maxDeletePercent),
    maxUpdatePercent: Math.min(madeUpdates, givenUpdates),
    allowPolicy: [...(made.allowPolicy ?? [])],
    ...(made.allowAddressInUse && given.allowAddressInUse ? { allowAddressInUse: true } : {}),
  };
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
    `${planFile} was made with other options:\n${clashes.map((c) => `  ${c}`).join('\n')}\nGive the plan's own (what it covers may be left out: the plan's is used), or make a new plan.`,
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
 * A saved plan the safety rails refused when it was made is refused (exit 3) before anything
 * is read: what a reviewer saw refused is never applied. (The reverse is never trusted: a
 * plan without refusals is checked again by every rail, on the fresh plan.)
 */
export function refuseRefusedPlan(saved: Plan, planFile: string): void {
  if (saved.errors.length === 0) return;
  throw new RefusedError(
    'SB_PLAN_REFUSED',
    `${planFile} was refused by the safety rails when it was made (${saved.errors.map((e) => e.code).join(', ')}): make a new plan once the reason is gone`,
  );
}
