/**
 * The plan's own digest: `sha256:` of the RFC 8785 canonical JSON of the plan file's
 * content without its `digest` member. The pull-request comment, the text plan, the HTML
 * report and the journal show it; `apply --plan` and `show` refuse a file without one or
 * whose content no longer matches it (exit 3). Whitespace and key order do not count (any
 * RFC 8785 tool computes the same value); any changed value, name or array element does.
 * The digest of the change set (change-set.ts) is part of that content, and is checked too.
 */
import { digestOf, isDigest } from '../core/canonical-json.js';
import { RefusedError } from '../core/errors.js';
import { isPlainObject } from '../core/values.js';
import { changeSetDigest } from './change-set.js';
import { planDocument } from './render-json.js';
import type { Change, Plan } from './types.js';

const PLAN_DIGEST_ERROR = 'SB_PLAN_DIGEST';

/** The plan with its `digest` and `changeSet` set, as `plan` prints and saves it. */
export function sealPlan(plan: Plan): Plan {
  const { digest, changeSet } = planDocument(plan);
  return { ...plan, digest, ...(changeSet ? { changeSet } : {}) };
}

/** What a parsed plan file's `digest` says about its content. */
export type DigestCheck =
  | { status: 'valid'; digest: string }
  | { status: 'absent' }
  | { status: 'mismatch'; recorded: unknown; computed: string };

/** Checks a parsed plan file (a JSON object) against the digest it carries. */
export function checkPlanDigest(document: Record<string, unknown>): DigestCheck {
  if (!Object.hasOwn(document, 'digest')) return { status: 'absent' };
  const { digest: recorded, ...content } = document;
  const computed = digestOf(content);
  return isDigest(recorded) && recorded === computed
    ? { status: 'valid', digest: recorded }
    : { status: 'mismatch', recorded, computed };
}

/** What a parsed plan file's `changeSet` says about its changes (well-formed changes: see plan-validate.ts). */
export type ChangeSetCheck =
  | { status: 'valid'; digest: string; changes: number }
  | { status: 'mismatch'; recorded: unknown; computed: string; changes: number };

/** Checks the recorded change-set digest and count against the changes the file holds. */
export function checkChangeSet(document: Record<string, unknown>): ChangeSetCheck {
  const changes = document['changes'] as Change[];
  const computed = changeSetDigest(changes);
  const recorded = document['changeSet'];
  const digest = isPlainObject(recorded) ? recorded['digest'] : undefined;
  const count = isPlainObject(recorded) ? recorded['changes'] : undefined;
  return digest === computed && count === changes.length
    ? { status: 'valid', digest: computed, changes: changes.length }
    : { status: 'mismatch', recorded: digest, computed, changes: changes.length };
}

/**
 * The refusal of a plan file changed after it was made, before anything else is read from
 * it: its content does not match its digest, or it no longer parses although it carries one.
 */
export function changedPlanError(source: string, why: string): RefusedError {
  return new RefusedError(
    PLAN_DIGEST_ERROR,
    `${source} was changed after switchboard wrote it: ${why}. Nothing was sent. Apply the plan file as it was reviewed, or make a new one with \`switchboard plan --out FILE\``,
  );
}

/** A plan's text mentions a digest of its own (the file is a switchboard plan, perhaps damaged). */
export function carriesDigest(text: string): boolean {
  return /"digest"\s*:\s*"sha256:[0-9a-f]{64}"\s*,\s*"(?:changeSet|tool)"/.test(text);
}
