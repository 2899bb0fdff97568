/**
 * What `audit` takes from a run's start line (the run record, journal.ts `RunRecord`). A
 * journal is a file anyone can edit, or a newer switchboard's: every member is read with
 * its type checked, and a member that is not what the record's format says is left out
 * (its columns empty) and reported, never passed on to the table (a number where a string
 * goes, an object, `dirty: "no"`) and never a reason to stop the audit.
 */
import { isPlainObject } from '../core/values.js';

/** The columns of every row of a run that come from its record. */
export interface RunFacts {
  runId: string;
  /** The platform profile's username (the routing engine's user for a routing-only run); '' when not recorded. */
  actor: string;
  /** How the actor logged in: password, totp or token. */
  login: string;
  /** Who started the CI run (GITHUB_ACTOR, GITLAB_USER_LOGIN): from the environment, not authenticated. */
  ciActor: string;
  /** Who triggered this attempt of the run (GITHUB_TRIGGERING_ACTOR, a re-run): from the environment. */
  triggeringActor: string;
  /** Who approved the apply (the deployment environment's reviewers), as the workflow passed it. */
  approvedBy: string[];
  /** The pull request the applied commit was merged from, as the workflow passed it; null when none. */
  pullRequest: number | null;
  /** Its address, when the CI run's variables give the repository's. */
  pullRequestUrl: string;
  planDigest: string;
  /** The applied plan's change-set digest. */
  changeSetDigest: string;
  /** The change-set digest reviewed on the pull request, as the workflow passed it. */
  reviewedChangeSet: string;
  /** `file <path>` for a saved plan, `planned in this run`, or '' when not recorded. */
  plan: string;
  /** The manifests repository's commit. */
  commit: string;
  /** Whether the manifests differed from the commit; null when not recorded. */
  dirty: boolean | null;
  /** The CI run's address (or its system and id). */
  ciRun: string;
  /**
   * `apply --emergency-change TICKET`: the run's ticket (it applied changes outside their change
   * window); '' when none.
   */
  emergencyChange: string;
}

/** The facts of the lines before any start line (a journal written before runs were recorded). */
export const NO_RECORD: RunFacts = {
  runId: '',
  actor: '',
  login: '',
  ciActor: '',
  triggeringActor: '',
  approvedBy: [],
  pullRequest: null,
  pullRequestUrl: '',
  planDigest: '',
  changeSetDigest: '',
  reviewedChangeSet: '',
  plan: '',
  commit: '',
  dirty: null,
  ciRun: '',
  emergencyChange: '',
};

/** Reads the members of a start line; `report` is told of each one left out, by its JSON path. */
export function runFacts(line: Record<string, unknown>, report: (reason: string) => void): RunFacts {
  const read = new RecordReader(report);
  const actor = read.object(line, 'actor') ?? read.object(line, 'routingActor');
  const actorName = line['actor'] === undefined ? 'routingActor' : 'actor';
  const plan = read.object(line, 'plan');
  const git = read.object(line, 'git');
  const ci = read.object(line, 'ci');
  const vars = ci ? read.stringMap(ci, 'ci.vars') : {};
  const review = read.object(line, 'review');
  const emergency = read.object(line, 'emergencyChange');
  const pullRequest = review ? read.count(review, 'review.pullRequest') : null;
  const server = vars['GITHUB_SERVER_URL'] ?? '';
  const repository = vars['GITHUB_REPOSITORY'] ?? '';
  const source = plan ? read.string(plan, 'plan.source') : '';
  const system = ci ? read.string(ci, 'ci.system') : '';
  const ciUrl = ci ? read.string(ci, 'ci.url') : '';
  return {
    runId: read.string(line, 'runId'),
    actor: actor ? read.string(actor, `${actorName}.username`) : '',
    login: actor ? read.string(actor, `${actorName}.login`) : '',
    ciActor: vars['GITHUB_ACTOR'] || vars['GITLAB_USER_LOGIN'] || '',
    triggeringActor: vars['GITHUB_TRIGGERING_ACTOR'] ?? '',
    approvedBy: review ? read.strings(review, 'review.approvedBy') : [],
    pullRequest,
    pullRequestUrl: pullRequest !== null && server && repository ? `${server}/${repository}/pull/${pullRequest}` : '',
    planDigest: plan ? read.string(plan, 'plan.digest') : '',
    changeSetDigest: plan ? read.string(plan, 'plan.changeSetDigest') : '',
    reviewedChangeSet: review ? read.string(review, 'review.reviewedChangeSet') : '',
    plan: source === 'file' && plan ? `file ${read.string(plan, 'plan.file')}` : source,
    commit: git ? read.string(git, 'git.commit') : '',
    dirty: git ? read.boolean(git, 'git.dirty') : null,
    ciRun: ciUrl || (system ? [system, ...Object.values(vars)].join(' ') : ''),
    emergencyChange: emergency ? read.string(emergency, 'emergencyChange.ticket') : '',
  };
}

/**
 * Typed reads of a record's members: an absent member is empty (an older switchboard's
 * record), one of another type is empty and reported. `null` is absent (a plan file made
 * before plans carried a digest gives `plan.digest: null`).
 */
class RecordReader {
  constructor(private readonly report: (reason: string) => void) {}

  private member(parent: Record<string, unknown>, path: string): unknown {
    return parent[path.slice(path.lastIndexOf('.') + 1)] ?? undefined;
  }

  private wrong(path: string, expected: string): void {
    this.report(`the run record's ${path} is not ${expected}: left out`);
  }

  object(parent: Record<string, unknown>, path: string): Record<string, unknown> | undefined {
    const value = this.member(parent, path);
    if (value === undefined || value === null) return undefined;
    if (isPlainObject(value)) return value;
    this.wrong(path, 'an object');
    return undefined;
  }

  string(parent: Record<string, unknown>, path: string): string {
    const value = this.member(parent, path);
    if (value === undefined || value === null) return '';
    if (typeof value === 'string') return value;
    this.wrong(path, 'a string');
    return '';
  }

  boolean(parent: Record<string, unknown>, path: string): boolean | null {
    const value = this.member(parent, path);
    if (value === undefined || value === null) return null;
    if (typeof value === 'boolean') return value;
    this.wrong(path, 'true or false');
    return null;
  }

  count(parent: Record<string, unknown>, path: string): number | null {
    const value = this.member(parent, path);
    if (value === undefined || value === null) return null;
    if (Number.isSafeInteger(value) && (value as number) > 0) return value as number;
    this.wrong(path, 'a positive whole number');
    return null;
  }

  strings(parent: Record<string, unknown>, path: string): string[] {
    const value = this.member(parent, path);
    if (value === undefined || value === null) return [];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
    this.wrong(path, 'a list of strings');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }

  /** A mapping of strings: a member of another type is left out alone. */
  stringMap(parent: Record<string, unknown>, path: string): Record<string, string> {
    const value = this.object(parent, path);
    const out: Record<string, string> = {};
    for (const [key, v] of Object.entries(value ?? {})) {
      if (typeof v === 'string') out[key] = v;
      else this.wrong(`${path}.${key}`, 'a string');
    }
    return out;
  }
}
