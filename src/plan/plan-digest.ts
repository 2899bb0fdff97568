/**
 * The plan's own digest: `sha256:` of the RFC 8785 canonical JSON of the plan file's
 * content without its `digest` member. The pull-request comment, the text plan, the HTML
 * report and the journal show it; `apply --plan` refuses a file whose content no longer
 * matches it (exit 3). Whitespace and key order do not count (any RFC 8785 tool computes
 * the same value); any changed value, name or array element does.
 */
import { digestOf, isDigest } from '../core/canonical-json.js';
import { RefusedError } from '../core/errors.js';
import { planDocument } from './render-json.js';
import type { Plan } from './types.js';

export const PLAN_DIGEST_ERROR = 'SB_PLAN_DIGEST';

/** The plan with its `digest` set, as `plan` prints and saves it. */
export function sealPlan(plan: Plan): Plan {
  return { ...plan, digest: planDocument(plan).digest };
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
  return /"digest"\s*:\s*"sha256:[0-9a-f]{64}"\s*,\s*"tool"/.test(text);
}
