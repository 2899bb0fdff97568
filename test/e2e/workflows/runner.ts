/**
 * Whole jobs and whole runs of the example workflows outside GitHub, on top of harness.ts's
 * steps: each step's `if:` (status functions included), `continue-on-error`, `uses:` steps
 * handed to emulations (the checkouts are the test's; upload-artifact and download-artifact
 * are here, storing artifacts per run and registering them with the fake gh), job outputs,
 * `needs` and the job's `if:`, and the environment gate: a job naming an environment runs
 * only when the test's approver says so, after seeing the summaries of the jobs before it.
 * A finished run is registered with the fake gh (path, event, head commit, conclusion), as
 * the `actions/runs` API would list it.
 */
import { cp, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { cacheAction, CACHE } from './cache-action.js';
import { condition, interpolate, type Status } from './expressions.js';
import {
  runStep,
  updateFakeGitHub,
  readFakeGitHub,
  type ExpressionContext,
  type Job,
  type Step,
  type StepResult,
  type Workflow,
} from './harness.js';

/** One run of a workflow: its id and attempt, the file it was read from, its event and commits. */
export interface RunInfo {
  id: number;
  attempt: number;
  /** The workflow file as the repository holds it (`.github/workflows/switchboard-plan.yml`). */
  path: string;
  event: string;
  /** The commit the run is for (a pull request's head commit for pull_request). */
  headSha: string;
  /** The fake gh's data file. */
  ghState: string;
  /** Where artifacts are kept: `<root>/<run id>/<name>/`. */
  artifactsRoot: string;
}

export interface ActionCall {
  step: Step;
  with: Record<string, string>;
  cwd: string;
  job: string;
  run: RunInfo;
  /** Registers the action's post step: run after the job's steps, told whether the job failed. */
  post: (step: (jobFailed: boolean) => Promise<void>) => void;
}

type PostStep = (jobFailed: boolean) => Promise<void>;

/** Emulates a `uses:` step; throwing fails the step. */
export type ActionHandler = (call: ActionCall) => Promise<Record<string, string> | void>;

export interface JobRun {
  result: 'success' | 'failure' | 'skipped' | 'waiting';
  outputs: Record<string, string>;
  /** The job summary: every step's GITHUB_STEP_SUMMARY, in order. */
  summary: string;
  /** Each step by its name (or uses, or id): its result, or 'skipped'. */
  steps: { name: string; result: StepResult | 'skipped' | 'action' | 'action failed'; error?: string }[];
  cwd?: string;
}

export interface RunOptions {
  workflow: Workflow;
  run: RunInfo;
  /** The contexts of the run (steps and needs are filled in per job). */
  context: Omit<ExpressionContext, 'steps' | 'needs'>;
  runnerEnv: Record<string, string>;
  /** A fresh runner workspace for a job (each job of a run gets its own). */
  workspace: (job: string) => Promise<string>;
  /** Emulations of the `uses:` actions, by name without `@ref`; artifact actions default to this file's. */
  actions: Record<string, ActionHandler>;
  /** The environment's required reviewers: true approves, false leaves the job waiting (it never runs). */
  approve?: (job: string, environment: string, before: Record<string, JobRun>, run: RunInfo) => Promise<boolean>;
}

const STATUS_FUNCTION = /\b(always|success|failure|cancelled)\(/;

/** Runs every job of the workflow in `needs` order; the run is then listed by the fake gh. */
export async function runWorkflow(options: RunOptions): Promise<Record<string, JobRun>> {
  const jobs: Record<string, JobRun> = {};
  const pending = Object.keys(options.workflow.jobs);
  while (pending.length > 0) {
    const index = pending.findIndex((id) => needsOf(options.workflow.jobs[id] as Job).every((n) => n in jobs));
    if (index < 0) throw new Error(`jobs whose needs never run: ${pending.join(', ')}`);
    const [id = ''] = pending.splice(index, 1);
    jobs[id] = await runJobOfRun(id, options, jobs);
  }
  const failed = Object.values(jobs).some((j) => j.result === 'failure');
  const waiting = Object.values(jobs).some((j) => j.result === 'waiting');
  await updateFakeGitHub(options.run.ghState, (state) => {
    state.runs.push({
      id: options.run.id,
      path: options.run.path,
      event: options.run.event,
      head_sha: options.run.headSha,
      status: waiting ? 'waiting' : 'completed',
      conclusion: waiting ? null : failed ? 'failure' : 'success',
      created_at: new Date().toISOString(),
    });
  });
  return jobs;
}

function needsOf(job: Job): string[] {
  return job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs];
}

async function runJobOfRun(id: string, options: RunOptions, before: Record<string, JobRun>): Promise<JobRun> {
  const job = options.workflow.jobs[id] as Job;
  const needs = Object.fromEntries(
    needsOf(job).map((n) => [n, { outputs: before[n]?.outputs ?? {}, result: before[n]?.result ?? 'skipped' }]),
  );
  const contexts = { ...options.context, steps: {}, needs, env: options.workflow.env ?? {} };
  const needsFailed = Object.values(needs).some((n) => n.result !== 'success');
  // A job whose needs did not all succeed is skipped unless its if: asks for a status function.
  const status: Status = { failed: needsFailed, cancelled: false };
  const skipped = { result: 'skipped' as const, outputs: {}, summary: '', steps: [] };
  if (needsFailed && !STATUS_FUNCTION.test(job.if ?? '')) return skipped;
  if (!condition(job.if, contexts, status)) return skipped;
  const environment = typeof job.environment === 'string' ? job.environment : job.environment?.name;
  if (environment !== undefined) {
    if (!options.approve || !(await options.approve(id, environment, before, options.run)))
      return { result: 'waiting', outputs: {}, summary: '', steps: [] };
  }
  return runJob({ ...options, job: id, needs, cwd: await options.workspace(id) });
}

/** Runs one job's steps in order on `cwd`, as a runner does. */
async function runJob(
  options: RunOptions & { job: string; needs?: ExpressionContext['needs']; cwd: string },
): Promise<JobRun> {
  const { workflow, job: id, cwd } = options;
  const job = workflow.jobs[id] as Job;
  const github = { ...options.context.github, workspace: cwd };
  const context: ExpressionContext = { ...options.context, github, steps: {}, needs: options.needs ?? {} };
  const result: JobRun = { result: 'success', outputs: {}, summary: '', steps: [], cwd };
  const posts: ((jobFailed: boolean) => Promise<void>)[] = [];
  let failed = false;
  for (const step of job.steps) {
    const name = step.name ?? step.uses ?? step.id ?? '';
    const contexts = { ...context, env: { ...workflow.env, ...job.env } };
    if (!condition(step.if, contexts, { failed, cancelled: false })) {
      if (step.id) context.steps[step.id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' };
      result.steps.push({ name, result: 'skipped' });
      continue;
    }
    if (step.uses !== undefined) {
      const action = step.uses.replace(/@.*$/, '');
      const handler =
        options.actions[action] ?? ARTIFACT_ACTIONS[action] ?? (action === CACHE ? cacheAction : undefined);
      if (!handler) throw new Error(`no emulation of ${action} (${workflow.name}, job ${id})`);
      const inputs = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(String(v), contexts)]),
      );
      try {
        const call = { step, with: inputs, cwd, job: id, run: options.run, post: (p: PostStep) => posts.push(p) };
        const outputs = (await handler(call)) ?? {};
        if (step.id) context.steps[step.id] = { outputs, outcome: 'success', conclusion: 'success' };
        result.steps.push({ name, result: 'action' });
      } catch (error) {
        const conclusion = step['continue-on-error'] === true ? 'success' : 'failure';
        if (step.id) context.steps[step.id] = { outputs: {}, outcome: 'failure', conclusion };
        result.steps.push({ name, result: 'action failed', error: (error as Error).message });
        failed ||= conclusion === 'failure';
      }
      continue;
    }
    const ran = await runStep({ workflow, job: id, step: name, cwd, context, runnerEnv: options.runnerEnv });
    result.steps.push({ name, result: ran });
    result.summary += ran.summary;
    failed ||= ran.code !== 0 && step['continue-on-error'] !== true;
  }
  // Post steps run in reverse order of their actions, as a runner runs them.
  for (const post of posts.reverse()) await post(failed);
  result.result = failed ? 'failure' : 'success';
  const contexts = { ...context, env: { ...workflow.env, ...job.env } };
  for (const [key, value] of Object.entries(job.outputs ?? {})) result.outputs[key] = interpolate(value, contexts);
  return result;
}

/** The files a `path:` input names (lines; a folder holds its files; `*` in a last segment), hidden ones only when asked. */
async function filesOf(paths: string, cwd: string, hidden: boolean): Promise<string[]> {
  const files: string[] = [];
  const walk = async (path: string): Promise<void> => {
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile()) files.push(path);
    else if (info?.isDirectory()) for (const entry of await readdir(path)) await walk(join(path, entry));
  };
  for (const line of paths
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const full = isAbsolute(line) ? line : resolve(cwd, line);
    const glob = basename(full);
    if (glob.includes('*')) {
      const re = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
      for (const entry of await readdir(dirname(full)).catch(() => [] as string[]))
        if (re.test(entry)) await walk(join(dirname(full), entry));
    } else await walk(full);
  }
  const isHidden = (f: string) =>
    relative(cwd, f)
      .split(sep)
      .some((part) => part.startsWith('.') && part !== '..');
  return hidden ? files : files.filter((f) => !isHidden(f));
}

/** The deepest folder holding every file: actions/upload-artifact keeps paths below it. */
function commonRoot(files: string[]): string {
  let root = dirname(files[0] ?? '');
  while (!files.every((f) => f.startsWith(`${root}${sep}`))) root = dirname(root);
  return root;
}

const ARTIFACT_ACTIONS: Record<string, ActionHandler> = {
  'actions/upload-artifact': async ({ with: inputs, cwd, run }) => {
    const name = inputs['name'] ?? 'artifact';
    const files = await filesOf(inputs['path'] ?? '', cwd, inputs['include-hidden-files'] === 'true');
    if (files.length === 0) {
      if ((inputs['if-no-files-found'] ?? 'warn') === 'error') throw new Error(`no files for artifact ${name}`);
      return;
    }
    const into = join(run.artifactsRoot, String(run.id), name);
    const state = await readFakeGitHub(run.ghState);
    const exists = state.artifacts.some((a) => a.name === name && a.workflow_run.id === run.id);
    if (exists && inputs['overwrite'] !== 'true') throw new Error(`an artifact named ${name} exists in run ${run.id}`);
    await rm(into, { recursive: true, force: true });
    const root = commonRoot(files);
    for (const file of files) {
      await mkdir(dirname(join(into, relative(root, file))), { recursive: true });
      await cp(file, join(into, relative(root, file)));
    }
    await updateFakeGitHub(run.ghState, (s) => {
      s.artifacts = s.artifacts.filter((a) => !(a.name === name && a.workflow_run.id === run.id));
      s.artifacts.push({ id: s.nextId++, name, expired: false, workflow_run: { id: run.id, head_sha: run.headSha } });
    });
  },
  'actions/download-artifact': async ({ with: inputs, cwd, run }) => {
    const name = inputs['name'] ?? '';
    const from = inputs['run-id'] ? Number(inputs['run-id']) : run.id;
    if (inputs['run-id'] && !inputs['github-token']) throw new Error('run-id without github-token');
    const state = await readFakeGitHub(run.ghState);
    const artifact = state.artifacts.find((a) => a.name === name && a.workflow_run.id === from);
    if (!artifact || artifact.expired) throw new Error(`Artifact not found: ${name} (run ${from})`);
    const into = inputs['path'] ? resolve(cwd, inputs['path']) : cwd;
    await mkdir(into, { recursive: true });
    await cp(join(run.artifactsRoot, String(from), name), into, { recursive: true });
  },
};
