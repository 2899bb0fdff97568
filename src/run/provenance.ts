/**
 * What the journal's run record says about who applied what from where: the actor (the
 * platform profile's username and how it logged in), the plan (its digest, and the file it
 * was read from or "planned in this run"), the manifests' digest, switchboard's version,
 * the manifests repository's commit and whether it had uncommitted changes, and the CI run.
 * Nothing here may fail an apply: what cannot be found is left out.
 */
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { RunRecord } from '../apply/journal.js';
import { VERSION } from '../core/package.js';
import { runGit } from './git.js';
import type { PlanRun } from './plan.js';

const GIT_TIMEOUT_MS = 5_000;

/** Where the plan came from: a saved plan file (`apply --plan`), or made by this run. */
export interface PlanSource {
  file: string;
  /** The saved plan's digest; absent for a plan file made before plans carried one. */
  digest?: string;
}

export interface ProvenanceOptions {
  /** `apply --plan FILE`. */
  savedPlan?: PlanSource;
  /** The manifest paths the run read: their git repository's state is recorded. */
  manifestPaths?: readonly string[];
  /** The state folder, left out of the "uncommitted changes" check (apply writes there). */
  stateDir?: string;
  /** Where the CI variables are read (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
}

/** The run record of an apply of `run`'s plan. */
export async function runRecord(planRun: PlanRun, options: ProvenanceOptions = {}): Promise<RunRecord> {
  const { client, routing } = planRun.session;
  const saved = options.savedPlan;
  const record: RunRecord = {
    plan: saved
      ? { digest: saved.digest ?? null, source: 'file', file: saved.file }
      : { digest: planRun.plan.digest ?? null, source: 'planned in this run' },
    manifests: { digest: planRun.plan.manifests.digest, files: planRun.plan.manifests.files.length },
    tool: { name: 'switchboard', version: VERSION },
  };
  if (client) record.actor = { username: client.login.username, login: client.login.kind };
  if (routing) {
    const { username, kind } = routing.http.login;
    record.routingActor = { ...(username ? { username } : {}), login: kind };
  }
  const git = await gitState(options.manifestPaths ?? [], options.stateDir);
  if (git) record.git = git;
  const ci = ciRun(options.env ?? process.env);
  if (ci) record.ci = ci;
  return record;
}

/**
 * The commit checked out where the manifests are, and whether the manifests (not the state
 * folder) differ from it; undefined when there is no git, no repository, or no commit.
 */
export async function gitState(
  paths: readonly string[],
  stateDir?: string,
): Promise<{ commit: string; dirty: boolean } | undefined> {
  const targets = (paths.length > 0 ? paths : ['.']).map((p) => resolve(p));
  try {
    const first = targets[0] as string;
    const folder = (await stat(first)).isDirectory() ? first : dirname(first);
    const git = (args: string[]) => runGit(folder, args, GIT_TIMEOUT_MS);
    const head = (await git(['rev-parse', '--verify', 'HEAD'])).trim();
    if (!/^[0-9a-f]{40,64}$/.test(head)) return undefined;
    const exclude = stateDir ? [`:(exclude)${resolve(stateDir)}`] : [];
    const status = await git(['status', '--porcelain', '--', ...targets, ...exclude]);
    return { commit: head, dirty: status.trim() !== '' };
  } catch {
    return undefined;
  }
}

/**
 * The variables of each CI system that identify a run (never a token: only these names
 * are read), and the run's address when they give one.
 */
const CI_SYSTEMS = [
  {
    system: 'github-actions',
    marker: 'GITHUB_RUN_ID',
    names: [
      'GITHUB_SERVER_URL',
      'GITHUB_REPOSITORY',
      'GITHUB_RUN_ID',
      'GITHUB_RUN_ATTEMPT',
      'GITHUB_RUN_NUMBER',
      'GITHUB_WORKFLOW',
      'GITHUB_JOB',
      'GITHUB_ACTOR',
      'GITHUB_TRIGGERING_ACTOR',
      'GITHUB_EVENT_NAME',
      'GITHUB_REF',
      'GITHUB_SHA',
    ],
    url: (v: Record<string, string>) =>
      v['GITHUB_SERVER_URL'] && v['GITHUB_REPOSITORY']
        ? `${v['GITHUB_SERVER_URL']}/${v['GITHUB_REPOSITORY']}/actions/runs/${v['GITHUB_RUN_ID']}` +
          (v['GITHUB_RUN_ATTEMPT'] ? `/attempts/${v['GITHUB_RUN_ATTEMPT']}` : '')
        : undefined,
  },
  {
    system: 'gitlab-ci',
    marker: 'CI_JOB_ID',
    names: [
      'CI_SERVER_URL',
      'CI_PROJECT_PATH',
      'CI_PIPELINE_ID',
      'CI_PIPELINE_URL',
      'CI_PIPELINE_SOURCE',
      'CI_JOB_ID',
      'CI_JOB_NAME',
      'CI_JOB_URL',
      'CI_COMMIT_SHA',
      'CI_COMMIT_REF_NAME',
      'GITLAB_USER_LOGIN',
    ],
    url: (v: Record<string, string>) => v['CI_JOB_URL'] ?? v['CI_PIPELINE_URL'],
  },
] as const;

/** The CI run this process belongs to, or undefined outside CI. */
export function ciRun(env: NodeJS.ProcessEnv): RunRecord['ci'] {
  for (const ci of CI_SYSTEMS) {
    if (!env[ci.marker]) continue;
    const vars: Record<string, string> = {};
    for (const name of ci.names) {
      const value = env[name];
      if (value) vars[name] = value.slice(0, 500);
    }
    const url = ci.url(vars);
    return { system: ci.system, ...(url ? { url } : {}), vars };
  }
  return undefined;
}
