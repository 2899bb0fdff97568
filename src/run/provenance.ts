/**
 * Who made a plan or applied one, from where: the platform user (the profile's username and
 * how it logged in: what the platform authenticated), the manifests' git commit, branch and
 * whether what was read differs from it, the pull request and the CI run (from environment
 * variables, which whoever starts the process can set). The plan file records it as
 * `provenance`; the journal's run record uses the same git state. Nothing here may fail a
 * plan or an apply: what cannot be found is left out.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { RunRecord } from '../apply/journal.js';
import { VERSION } from '../core/package.js';
import type { GitProvenance, PlanProvenance, UncommittedState } from '../plan/types.js';
import { runGit } from './git.js';
import type { PlanRun } from './plan.js';
import type { Session } from './session.js';
import { relativeLeadsInside } from '../core/path-inside.js';

const GIT_TIMEOUT_MS = 5_000;

/** Files listed by name in the provenance; the rest are counted. */
const MAX_LISTED = 100;

/** Where the plan came from: a saved plan file (`apply --plan`), or made by this run. */
export interface PlanSource {
  file: string;
  /** The saved plan's digest. */
  digest?: string;
}

export interface ProvenanceOptions {
  /** `apply --plan`. */
  savedPlan?: PlanSource;
  /** The manifest paths the run read (files or folders). */
  manifestPaths?: readonly string[];
  /** Where the CI variables are read (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
}

/** The run record of an apply of `run`'s plan: the git state is the plan's own when it has one. */
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
  if (client) {
    await client.profile();
    record.actor = { username: client.login.username, login: client.login.kind };
  }
  if (routing) {
    const { username, kind } = routing.http.login;
    record.routingActor = { ...(username ? { username } : {}), login: kind };
  }
  const git =
    planRun.plan.provenance?.git ??
    (await gitState({ files: planRun.plan.manifests.files, paths: options.manifestPaths ?? [] }));
  if (git) record.git = { commit: git.commit, dirty: git.dirty };
  const ci = ciRun(options.env ?? process.env);
  if (ci) record.ci = ci;
  return record;
}

/** What a plan made in this process records of where it was made (the plan file's `provenance`). */
export async function planProvenance(
  read: { files: readonly string[]; paths: readonly string[] },
  session: Pick<Session, 'client' | 'routing'>,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<PlanProvenance> {
  const provenance: PlanProvenance = {};
  const git = await gitState(read, cwd);
  if (git) provenance.git = git;
  const pullRequest = pullRequestOf(env);
  if (pullRequest) provenance.pullRequest = pullRequest;
  const ci = ciRun(env);
  if (ci) {
    const actor = env['GITHUB_ACTOR'] ?? env['GITLAB_USER_LOGIN'];
    provenance.ci = {
      system: ci.system,
      ...(ci.url ? { url: ci.url } : {}),
      ...(actor ? { actor: actor.slice(0, 200) } : {}),
      authenticated: false,
    };
  }
  if (session.client) {
    await session.client.profile();
    const { username, kind } = session.client.login;
    provenance.user = { username, login: kind, api: 'platform', authenticated: true };
  } else if (session.routing) {
    const { username, kind } = session.routing.http.login;
    provenance.user = { ...(username ? { username } : {}), login: kind, api: 'routing', authenticated: true };
  }
  return provenance;
}

/**
 * The commit checked out where the manifests are, its branch, and which of the files read
 * (`files`, manifests and data files, relative to `cwd`) are not as committed: modified,
 * added, untracked, ignored by git (a `.gitignore` hides them from `git status`, not from
 * switchboard), or outside the repository; and the manifests (`*.yaml`, `*.yml`) below the
 * given `paths` that were committed and are gone. Undefined when there is no git, no
 * repository or no commit. Nothing outside the files read counts: a state folder in the
 * repository, or outside it, is never looked at.
 */
export async function gitState(
  read: { files: readonly string[]; paths?: readonly string[] },
  cwd = process.cwd(),
): Promise<GitProvenance | undefined> {
  const paths = (read.paths && read.paths.length > 0 ? read.paths : ['.']).map((p) => resolve(cwd, p));
  try {
    const first = paths[0] as string;
    const folder = (await stat(first)).isDirectory() ? first : dirname(first);
    const asked = (args: string[]) => runGit(folder, args, GIT_TIMEOUT_MS);
    const head = (await asked(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).trim();
    if (!/^[0-9a-f]{40,64}$/.test(head)) return undefined;
    const root = await realpath((await asked(['rev-parse', '--show-toplevel'])).trim());
    const git = (args: string[]) => runGit(root, args, GIT_TIMEOUT_MS);
    const branch = (await git(['symbolic-ref', '--quiet', '--short', 'HEAD']).catch(() => '')).trim();
    const inside = await Promise.all(paths.map((p) => repoPath(root, p)));
    const scopes = inside.filter((p): p is string => p !== undefined);
    const status =
      scopes.length === 0
        ? ''
        : await git([
            'status',
            '--porcelain=v1',
            '-z',
            '--untracked-files=all',
            '--ignored=matching',
            '--no-renames',
            '--',
            ...scopes.map((p) => `:(literal)${p === '' ? '.' : p}`),
          ]);
    const entries = parseStatus(status);
    const uncommitted: { file: string; state: UncommittedState }[] = [];
    for (const file of [...new Set(read.files)].sort()) {
      const absolute = resolve(cwd, file);
      const at = await repoPath(root, absolute);
      const state = at === undefined ? 'outside the repository' : stateOf(at, entries);
      if (state) uncommitted.push({ file, state });
    }
    for (const [at, state] of entries.files)
      if (state === 'deleted' && loadable(at, scopes)) uncommitted.push({ file: shown(join(root, at), cwd), state });
    return {
      commit: head,
      ...(branch ? { branch } : {}),
      dirty: uncommitted.length > 0,
      ...(uncommitted.length > 0 ? { uncommitted: uncommitted.slice(0, MAX_LISTED) } : {}),
      ...(uncommitted.length > MAX_LISTED ? { uncommittedCount: uncommitted.length } : {}),
      authenticated: false,
    };
  } catch {
    return undefined;
  }
}

/** A manifest the loader would have read from one of the folders given (`*.yaml`, no dot folder, no node_modules). */
function loadable(at: string, scopes: readonly string[]): boolean {
  if (!/\.ya?ml$/i.test(at)) return false;
  return scopes.some((scope) => {
    if (at === scope) return true;
    const below = scope === '' ? at : at.startsWith(`${scope}/`) ? at.slice(scope.length + 1) : undefined;
    return below !== undefined && !below.split('/').some((part) => part.startsWith('.') || part === 'node_modules');
  });
}

/** A path relative to the working tree's top (with `/`), or undefined outside it. Symbolic links resolved. */
async function repoPath(root: string, absolute: string): Promise<string | undefined> {
  const real = await realpath(absolute).catch(async () => {
    const parent = await realpath(dirname(absolute)).catch(() => dirname(absolute));
    return join(parent, basename(absolute));
  });
  const rel = relative(root, real);
  if (!relativeLeadsInside(rel)) return undefined;
  return rel.split(sep).join('/');
}

function shown(absolute: string, cwd: string): string {
  return relative(cwd, absolute).split(sep).join('/');
}

interface StatusEntries {
  files: Map<string, UncommittedState>;
  /** Folders git reports whole (untracked or ignored), with a trailing `/`. */
  folders: Map<string, UncommittedState>;
}

/** `git status --porcelain=v1 -z`: `XY path\0` entries (no renames with --no-renames). */
function parseStatus(output: string): StatusEntries {
  const files = new Map<string, UncommittedState>();
  const folders = new Map<string, UncommittedState>();
  for (const entry of output.split('\0')) {
    if (entry.length < 4) continue;
    const xy = entry.slice(0, 2);
    const at = entry.slice(3);
    const state: UncommittedState =
      xy === '??'
        ? 'untracked'
        : xy === '!!'
          ? 'ignored'
          : xy.includes('D')
            ? 'deleted'
            : xy.includes('A')
              ? 'added'
              : 'modified';
    (at.endsWith('/') ? folders : files).set(at, state);
  }
  return { files, folders };
}

function stateOf(at: string, entries: StatusEntries): UncommittedState | undefined {
  const own = entries.files.get(at);
  if (own) return own;
  for (const [folder, state] of entries.folders) if (at.startsWith(folder)) return state;
  return undefined;
}

/** The pull request the CI run is for, from its variables (GitHub: `refs/pull/N/…`; GitLab: a merge request's iid). */
export function pullRequestOf(env: NodeJS.ProcessEnv): PlanProvenance['pullRequest'] {
  const ref = env['GITHUB_REF'] ?? '';
  const github = /^refs\/pull\/(\d+)\//.exec(ref);
  if (env['GITHUB_RUN_ID'] && github) {
    const number = Number(github[1]);
    const server = env['GITHUB_SERVER_URL'];
    const repository = env['GITHUB_REPOSITORY'];
    const url = server && repository ? `${server}/${repository}/pull/${number}` : undefined;
    return { number, ...(url ? { url: url.slice(0, 500) } : {}), from: 'GITHUB_REF', authenticated: false };
  }
  const iid = env['CI_MERGE_REQUEST_IID'];
  if (env['CI_JOB_ID'] && iid && /^\d+$/.test(iid)) {
    const project = env['CI_MERGE_REQUEST_PROJECT_URL'];
    const url = project ? `${project}/-/merge_requests/${iid}` : undefined;
    return {
      number: Number(iid),
      ...(url ? { url: url.slice(0, 500) } : {}),
      from: 'CI_MERGE_REQUEST_IID',
      authenticated: false,
    };
  }
  return undefined;
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
