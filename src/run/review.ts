/**
 * What the CI workflow says about the review an apply comes from, read from environment
 * variables it sets (docs/audit.md, "The run record"): the pull request the commit was
 * merged from, the change-set digest reviewed on it, and who approved the apply. Nothing
 * here is authenticated: whoever starts switchboard can set these variables, and the run
 * record says so (`sources.review: "environment"`). A value that does not have the
 * documented form is left out of the record, with a note saying which variable and why.
 */
import type { ReviewRecord } from '../apply/journal.js';

const REVIEW_VARIABLES = {
  pullRequest: 'SWITCHBOARD_PULL_REQUEST',
  reviewedChangeSet: 'SWITCHBOARD_REVIEWED_CHANGE_SET',
  approvedBy: 'SWITCHBOARD_APPROVED_BY',
} as const;

/** A GitHub or GitLab login (GitHub's bots end in `[bot]`). */
const LOGIN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}(\[bot\])?$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const MAX_APPROVERS = 50;

export interface ReviewFromEnv {
  review?: ReviewRecord;
  /** One line per variable that was set but not usable. */
  notes: string[];
}

/** The review record the environment describes; `review` is absent when no variable is set. */
export function reviewFromEnv(env: NodeJS.ProcessEnv): ReviewFromEnv {
  const review: ReviewRecord = {};
  const notes: string[] = [];
  const ignored = (name: string, what: string) => notes.push(`${name} is not ${what}: left out of the run record`);

  const pr = env[REVIEW_VARIABLES.pullRequest]?.trim();
  if (pr) {
    if (/^[1-9]\d{0,9}$/.test(pr)) review.pullRequest = Number(pr);
    else ignored(REVIEW_VARIABLES.pullRequest, 'a pull request number');
  }
  const digest = env[REVIEW_VARIABLES.reviewedChangeSet]?.trim();
  if (digest) {
    if (DIGEST.test(digest)) review.reviewedChangeSet = digest;
    else ignored(REVIEW_VARIABLES.reviewedChangeSet, 'a digest (sha256: and 64 hexadecimal digits)');
  }
  const approvers = env[REVIEW_VARIABLES.approvedBy]?.trim();
  if (approvers) {
    const logins = [...new Set(approvers.split(/[\s,]+/).filter(Boolean))];
    if (logins.length <= MAX_APPROVERS && logins.every((l) => LOGIN.test(l))) review.approvedBy = logins;
    else ignored(REVIEW_VARIABLES.approvedBy, `a list of at most ${MAX_APPROVERS} logins separated by commas`);
  }
  return Object.keys(review).length > 0 ? { review, notes } : { notes };
}
